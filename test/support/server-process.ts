/**
 * The real server process (`src/main.ts`, as `npm start` runs it) for tests of process behaviour:
 * start it with a given environment, read its demo banner and JSON logs, signal it, and plain
 * node:http requests over keep-alive connections that report what the wire showed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Sends SIGTERM to each child still running and waits until every one has exited. */
export async function stopChildren(children: readonly ChildProcess[]): Promise<void> {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  for (const child of running) child.kill('SIGTERM');
  await Promise.all(running.map((child) => once(child, 'exit')));
}

/** Drops a database a process test made on the server of `serverUrl` (its sessions ended by force). */
export async function dropTestDatabase(serverUrl: string, databaseName: string): Promise<void> {
  const { default: postgres } = await import('postgres');
  const server = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await server.unsafe(`drop database if exists ${databaseName} with (force)`);
  await server.end();
}
export const START_TIMEOUT_MS = 60_000;

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** From the first-start banner (undefined when the data dir or database was set up before). */
  demo: { environmentId: string; templateId: string; apiKey: string } | undefined;
  stdout: () => string;
  stderr: () => string;
  logs: () => Record<string, unknown>[];
  exited: Promise<number | null>;
  /** Whether the process is still running. */
  running: () => boolean;
  /** Sends SIGTERM and resolves with the exit code. */
  stop: () => Promise<number | null>;
  /** Waits (bounded) until a log record matches. */
  waitForLog: (predicate: (line: Record<string, unknown>) => boolean, timeoutMs?: number) => Promise<Record<string, unknown>>;
}

/** A TCP port nobody listens on now (for a server that must be told its port, or a connection that must fail). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const children = new Set<ChildProcess>();
/** Kills whatever a test left running (call from afterAll). */
export function killLeftovers(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** The node flags `npm start` runs the server with (package.json's start script), so its memory behaves as in production. */
const NODE_FLAGS: string[] = (() => {
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/);
  if (start[0] !== 'node' || start.at(-1) !== 'dist/main.js') throw new Error(`package.json's start script is not "node [flags] dist/main.js": ${start.join(' ')}`);
  return start.slice(1, -1);
})();

/**
 * Spawns src/main.ts (or, with `entry: 'bundle'`, the dist/main.js bundle `npm start` runs), with the node
 * flags `npm start` gives it and only
 * the environment the test gives it (no setting leaks in from the suite's). No drain delay unless the
 * test sets DRAIN_DELAY_MS: there is no load balancer to wait for, and every stop would wait for it.
 */
export function spawnServer(env: Record<string, string>, entry: 'source' | 'bundle' = 'source') {
  const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', DRAIN_DELAY_MS: '0', ...env };
  const args = [...NODE_FLAGS, ...(entry === 'bundle' ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'])];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // 'close', not 'exit': by then stdout has been read to its end, the last log lines included.
  const exited = once(child, 'close').then(([code]) => code as number | null);
  /** stdout lines that are JSON log records. */
  const logs = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return { unparsable: line };
        }
      });
  return { child, exited, stdout: () => stdout, stderr: () => stderr, logs };
}

/** Starts src/main.ts with `env` (DATA_DIR, DATABASE_URL, … as the test gives them) and waits until it listens. */
export async function startServer(env: Record<string, string>, entry: 'source' | 'bundle' = 'source'): Promise<ServerProcess> {
  const { child, exited, logs, stdout, stderr } = spawnServer(env, entry);
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const waitForLog = async (predicate: (line: Record<string, unknown>) => boolean, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = logs().find(predicate);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no such log line within ${timeoutMs} ms in:\n${stdout()}\n${stderr()}`);
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const listening = logs().find((line) => line.msg === 'formloom listening');
    if (listening) {
      const environmentId = /^environment \(Site ID\): (\S+)$/m.exec(stdout())?.[1];
      const templateId = /^template form: +(\S+)$/m.exec(stdout())?.[1];
      const apiKey = /^API key: +(\S+)$/m.exec(stdout())?.[1];
      return {
        child,
        url: String(listening.url),
        demo: environmentId && templateId && apiKey ? { environmentId, templateId, apiKey } : undefined,
        stdout,
        stderr,
        logs,
        exited,
        running: () => child.exitCode === null && child.signalCode === null,
        stop: () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
        waitForLog,
      };
    }
    if (exitCode !== undefined) throw new Error(`formloom exited with ${exitCode} before listening:\n${stderr()}\n${stdout()}`);
    if (Date.now() > deadline) throw new Error(`formloom did not start within ${START_TIMEOUT_MS} ms:\n${stderr()}\n${stdout()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface WireResult {
  startedAt: number;
  /** Set when a response arrived. */
  status?: number;
  headers?: IncomingHttpHeaders;
  body?: string;
  /** The response body ended as HTTP framed it (false: the connection closed mid-body). */
  complete?: boolean;
  /** A request error (e.g. ECONNRESET, ECONNREFUSED) before or while receiving the response. */
  error?: string;
  /** The request went out on a connection used before (a keep-alive reuse). */
  reusedSocket?: boolean;
  ms: number;
}

/** One request over `agent` (keep-alive when the agent is); never rejects. */
export function wireRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent | false; keepBody?: boolean } = {},
): Promise<WireResult> {
  const startedAt = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: Omit<WireResult, 'startedAt' | 'ms'>) => {
      if (settled) return;
      settled = true;
      resolve({ startedAt, ms: performance.now() - startedAt, ...result });
    };
    const req = httpRequest(url, {
      method: options.method ?? 'GET',
      agent: options.agent ?? false,
      headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    });
    req.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message, reusedSocket: req.reusedSocket }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let length = 0;
      res.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (options.keepBody !== false) chunks.push(chunk);
      });
      const done = (complete: boolean) =>
        settle({
          status: res.statusCode!,
          headers: res.headers,
          body: options.keepBody !== false ? Buffer.concat(chunks).toString('utf8') : `(${length} bytes)`,
          complete,
          reusedSocket: req.reusedSocket,
        });
      res.on('end', () => done(res.complete));
      res.on('aborted', () => done(false));
      res.on('error', () => done(false));
      res.on('close', () => done(res.complete));
    });
    req.end(options.body);
  });
}
