/**
 * Cold start: time from spawning `npm start`'s command (package.json's scripts.start, after its prestart build) to the first 200 from /readyz, and the
 * process's RSS then (and at peak), on a fresh PGlite data dir, on the same dir again, and on PostgreSQL.
 * Run: npx tsx bench/startup.ts
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** `npm start`'s command line without its leading `node`; its prestart (the build) runs once first. */
function startArgs(): string[] {
  const words = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: { start: string } }).scripts.start.trim().split(/\s+/);
  return words.slice(1);
}
execFileSync('npm', ['run', '-s', 'prestart'], { cwd: root, stdio: 'inherit' });

function rssMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+)`))?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

async function measure(label: string, env: Record<string, string | undefined>, port: number) {
  const started = performance.now();
  const child = spawn(process.execPath, startArgs(), {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const banner = { printedSecrets: false };
  child.stdout.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes('API key:')) banner.printedSecrets = true;
  });
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.ok) break;
    } catch {
      // not answering yet: try again
    }
    if (performance.now() - started > 60_000) throw new Error(`${label}: not ready after 60 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const readyMs = Math.round(performance.now() - started);
  const memory = rssMb(child.pid!);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const exitCode = await exited;
  console.log(
    `${label.padEnd(34)} ready in ${String(readyMs).padStart(5)} ms   RSS ${String(memory.rss).padStart(4)} MB (peak ${memory.peak} MB)   banner: ${banner.printedSecrets ? 'yes' : 'no '}   exit on SIGTERM: ${exitCode}`,
  );
}

const dataDir = mkdtempSync(join(tmpdir(), 'formloom-startup-'));
try {
  await measure('PGlite, fresh data dir', { DATA_DIR: dataDir, DATABASE_URL: '' }, 4310);
  await measure('PGlite, existing data dir', { DATA_DIR: dataDir, DATABASE_URL: '' }, 4311);
  const pgUrl = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const { default: postgres } = await import('postgres');
  const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
  const name = `formloom_startup_${process.pid}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  try {
    const pgDir = mkdtempSync(join(tmpdir(), 'formloom-startup-pg-'));
    await measure('PostgreSQL, empty database', { DATA_DIR: pgDir, DATABASE_URL: url.toString() }, 4312);
    await measure('PostgreSQL, existing database', { DATA_DIR: pgDir, DATABASE_URL: url.toString() }, 4313);
    rmSync(pgDir, { recursive: true, force: true });
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
