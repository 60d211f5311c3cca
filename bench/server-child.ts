/**
 * What the benches that measure a server's CPU share: a migrated database to run on, and bench/server.ts
 * in a child process (its port, its CPU time so far, and a stop that waits for it to exit).
 */
import { fork } from 'node:child_process';
import postgres from 'postgres';
import { openDatabase } from '../src/db/client.ts';
import { processStat } from '../test/support/pg-cluster.ts';

/** Creates the database of `url` when it is missing (through the server's `postgres` database) and migrates it. */
export async function preparedBenchDatabase(url: string): Promise<void> {
  const server = new URL(url);
  const name = server.pathname.slice(1);
  server.pathname = '/postgres';
  const admin = postgres(server.toString(), { max: 1, onnotice: () => {} });
  const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
  if (!exists) await admin.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  await admin.end();
  const migrating = await openDatabase({ databaseUrl: url, maxConnections: 1 });
  await migrating.migrate();
  await migrating.close();
}

export interface BenchServer {
  port: number;
  /** The child's CPU time so far, in microseconds. */
  cpuMicros: () => number;
  stop: () => Promise<void>;
}

/** bench/server.ts on `url` in a child process, with `env` on top of this one's. */
export async function startBenchServer(url: string, options: { env?: NodeJS.ProcessEnv; execArgv?: string[] } = {}): Promise<BenchServer> {
  const child = fork(new URL('./server.ts', import.meta.url).pathname, [], {
    env: { ...process.env, NODE_ENV: 'production', BENCH_DATABASE_URL: url, ...options.env },
    execArgv: options.execArgv ?? ['--max-semi-space-size=4', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`bench/server.ts exited with ${code}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { port, cpuMicros: () => processStat(child.pid!)?.cpuMicros ?? 0, stop };
}
