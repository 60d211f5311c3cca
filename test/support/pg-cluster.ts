/**
 * Private PostgreSQL servers for tests of what happens around the database: a primary, a streaming
 * standby of it (`pg_basebackup -R`), and Debian's PgBouncer in front, each a process of its own on a
 * free port with its own files in a temporary dir, started by the machine's binaries
 * (/usr/lib/postgresql/<version>/bin, /usr/sbin/pgbouncer) as the `postgres` user when this process is
 * root (initdb and PgBouncer refuse root). Nothing here touches the machine's own PostgreSQL or a
 * PgBouncer service the package may have started. Everything started is stopped by `stopAll()`.
 * test/process/db-cluster.test.ts and the cluster part of `npm run bench` (BENCH_CLUSTER=1) use it.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from './server-process.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';

const PG_ROOT = '/usr/lib/postgresql';
/** The newest PostgreSQL's bin dir on this machine; undefined when none is installed. */
export const pgBin = existsSync(PG_ROOT)
  ? readdirSync(PG_ROOT)
      .sort((a, b) => Number(b) - Number(a))
      .map((version) => join(PG_ROOT, version, 'bin'))
      .find((dir) => existsSync(join(dir, 'initdb')))
  : undefined;
export const PGBOUNCER = '/usr/sbin/pgbouncer';
export const hasPgBouncer = existsSync(PGBOUNCER);

const isRoot = process.getuid?.() === 0;
/** uid and gid of the `postgres` user, when this process is root (the tools run as it). */
const postgresUser = isRoot
  ? { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()) }
  : undefined;

/** The command line that runs a PostgreSQL tool as the `postgres` user (initdb refuses root). */
function pgToolCommand(tool: string, args: string[]): [string, string[]] {
  const command = join(pgBin!, tool);
  return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

/** Runs a PostgreSQL tool, blocking this process (and every request it is making) until it ends. */
export function pgTool(tool: string, args: string[]): string {
  const [command, commandArgs] = pgToolCommand(tool, args);
  return execFileSync(command, commandArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs a PostgreSQL tool while this process goes on (a load it drives keeps running). */
export async function pgToolInBackground(tool: string, args: string[]): Promise<void> {
  const [command, commandArgs] = pgToolCommand(tool, args);
  await promisify(execFile)(command, commandArgs, { encoding: 'utf8' });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A process's parent and CPU time so far (user + system, µs), from /proc; undefined once it is gone. */
export function processStat(pid: number): { parent: number; cpuMicros: number } | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { parent: Number(fields[1]), cpuMicros: ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100 }; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

const stoppers: (() => Promise<void> | void)[] = [];
/** Stops every server started here and removes its files, the last started first. */
export async function stopAll(): Promise<void> {
  while (stoppers.length > 0) {
    try {
      await stoppers.pop()!();
    } catch {
      // already stopped
    }
  }
}

/** A temporary dir the `postgres` user owns, removed by `stopAll()`. */
export function ownDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (postgresUser) chownSync(dir, postgresUser.uid, postgresUser.gid);
  stoppers.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface PgServer {
  port: number;
  dir: string;
  /** `postgres://postgres@127.0.0.1:<port>/<database>`. */
  url(database?: string): string;
  /** Runs one statement on it (a connection of its own, closed after). */
  query<T extends Record<string, unknown>>(text: string, database?: string): Promise<T[]>;
  /** `pg_ctl stop -m <mode>` (immediate: as a crash), while this process goes on. */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** A standby: `pg_ctl promote`, resolved once it accepts writes. */
  promote(): Promise<void>;
  log(): string;
  /** Its processes' CPU time so far (user + system, µs): the postmaster and every child. */
  cpuMicros(): number;
}

/**
 * What every server here runs with: a small footprint; pg_stat_statements, so tests can count the
 * statements each server ran; and standbys that serve reads (hot_standby) and tell the primary what
 * they still read (hot_standby_feedback), so a long read on them is not cancelled by recovery.
 */
const SERVER_SETTINGS = [
  'listen_addresses=127.0.0.1',
  'shared_buffers=32MB',
  'max_connections=200',
  'wal_level=replica',
  'max_wal_senders=5',
  'hot_standby=on',
  'hot_standby_feedback=on',
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track=all',
  'fsync=off',
];

function pgServer(dir: string, port: number): PgServer {
  const data = join(dir, 'data');
  const logFile = join(dir, 'log');
  const options = [`-p ${port}`, `-k ${dir}`, ...SERVER_SETTINGS.map((setting) => `-c ${setting}`)].join(' ');
  const pgCtlArgs = (...args: string[]) => ['-D', data, '-w', '-t', '60', ...args];
  const pgCtl = (...args: string[]) => pgToolInBackground('pg_ctl', pgCtlArgs(...args));
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const server: PgServer = {
    port,
    dir,
    url,
    async query<T extends Record<string, unknown>>(text: string, database?: string) {
      const client = postgres(url(database), { max: 1, onnotice: () => {}, connect_timeout: 5, fetch_types: false });
      try {
        return (await client.unsafe(text)) as unknown as T[];
      } finally {
        await client.end({ timeout: 1 });
      }
    },
    stop: (mode) => pgCtl('-m', mode, 'stop'),
    start: () => pgCtl('-l', logFile, '-o', options, 'start'),
    promote: () => pgCtl('promote'),
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    cpuMicros: () => {
      const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      let micros = 0;
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        const stat = processStat(Number(entry));
        if (stat && (Number(entry) === postmaster || stat.parent === postmaster)) micros += stat.cpuMicros;
      }
      return micros;
    },
  };
  stoppers.push(() => {
    try {
      pgTool('pg_ctl', pgCtlArgs('-m', 'immediate', 'stop'));
    } catch {
      // not running
    }
  });
  return server;
}

/** A primary (fsync off: its files outlive `stop -m immediate`, which ends the server, not the machine). */
export async function startPrimary(): Promise<PgServer> {
  const dir = ownDir('formloom-pg-primary-');
  const port = await freePort();
  pgTool('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '--no-instructions']);
  const server = pgServer(dir, port);
  await server.start();
  await server.query('create extension if not exists pg_stat_statements');
  return server;
}

/**
 * A streaming standby of `primary` (`pg_basebackup -R`), started and replaying. `synchronous`: from
 * then on a commit on the primary waits until a standby has written it (`synchronous_standby_names =
 * '*'`), so a promoted standby holds everything the primary acknowledged.
 */
export async function startStandby(primary: PgServer, options: { synchronous?: boolean } = {}): Promise<PgServer> {
  const dir = ownDir('formloom-pg-standby-');
  const port = await freePort();
  pgTool('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', join(dir, 'data'), '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
  const server = pgServer(dir, port);
  await server.start();
  for (let i = 0; ; i++) {
    const [row] = await primary.query<{ streaming: number }>(`select count(*)::int as streaming from pg_stat_replication where state = 'streaming'`);
    if (row!.streaming > 0) break;
    if (i > 100) throw new Error(`the standby did not start streaming:\n${server.log()}`);
    await sleep(100);
  }
  if (options.synchronous) {
    await primary.query(`alter system set synchronous_standby_names = '*'`);
    await primary.query('select pg_reload_conf()');
  }
  return server;
}

export interface PgBouncer {
  port: number;
  pid: number;
  /** `postgres://postgres@127.0.0.1:<port>/<database>` through PgBouncer. */
  url(database?: string): string;
  /** Statements on its admin console (`SHOW POOLS`, …). */
  admin<T extends Record<string, unknown>>(command: string): Promise<T[]>;
  log(): string;
  stop(): Promise<void>;
}

/**
 * Debian's PgBouncer in transaction mode in front of `target`, on a free port, with its own
 * pgbouncer.ini (as the README's "PgBouncer" section asks for), run in the foreground as a child of
 * this process, so a PgBouncer service the package started elsewhere plays no part.
 */
export async function startPgBouncer(target: PgServer, settings: Record<string, string> = {}): Promise<PgBouncer> {
  if (!hasPgBouncer) throw new Error(`${PGBOUNCER} is not installed (apt-get install pgbouncer)`);
  const dir = ownDir('formloom-pgbouncer-');
  const port = await freePort();
  const logFile = join(dir, 'pgbouncer.log');
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  const ini = {
    listen_addr: '127.0.0.1',
    listen_port: String(port),
    unix_socket_dir: '',
    auth_type: 'trust',
    auth_file: join(dir, 'userlist.txt'),
    admin_users: 'postgres',
    pool_mode: 'transaction',
    max_client_conn: '5000',
    default_pool_size: '20',
    logfile: logFile,
    pidfile: join(dir, 'pgbouncer.pid'),
    ...settings,
  };
  const text = `[databases]\n* = host=127.0.0.1 port=${target.port}\n\n[pgbouncer]\n${Object.entries(ini)
    .map(([name, value]) => `${name} = ${value}`)
    .join('\n')}\n`;
  const iniFile = join(dir, 'pgbouncer.ini');
  writeFileSync(iniFile, text);
  if (postgresUser) for (const file of ['userlist.txt', 'pgbouncer.ini']) chownSync(join(dir, file), postgresUser.uid, postgresUser.gid);
  const child: ChildProcess = spawn(PGBOUNCER, [iniFile], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], ...(postgresUser ?? {}) });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      await exited;
    }
  };
  stoppers.push(stop);
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  // Its log file; what it printed (the same lines) only when it never opened the file.
  const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : stderr);
  const admin = async <T extends Record<string, unknown>>(command: string) => {
    const client = postgres(url('pgbouncer'), { max: 1, onnotice: () => {}, connect_timeout: 5, fetch_types: false, prepare: false });
    try {
      return (await client.unsafe(command)) as unknown as T[];
    } finally {
      await client.end({ timeout: 1 });
    }
  };
  for (let i = 0; ; i++) {
    try {
      await admin('show version');
      break;
    } catch (error) {
      if (child.exitCode !== null || i > 100) throw new Error(`PgBouncer did not start: ${(error as Error).message}\n${log()}`, { cause: error });
      await sleep(50);
    }
  }
  return { port, pid: child.pid!, url, admin, log, stop };
}
