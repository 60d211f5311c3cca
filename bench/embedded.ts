/**
 * `npm run bench:embedded`: the embedded default (PGlite) under load, and start-up on both databases.
 *
 * 1. Load: a fresh server (the `npm start` command, every limit on) on PGlite and on PostgreSQL; 1,000
 *    respondent sessions through the public JSON API, 100 in flight, each three requests (start a
 *    response with step 1, update it with step 2, finish it with step 3). Each session comes from its own
 *    address (X-Forwarded-For behind TRUST_PROXY=1), as respondents do, so the per-IP limit stays on
 *    without refusing the crowd. A request unanswered after 30 s counts as unanswered. Reported: p50/p99
 *    of every request, unanswered, 503s (with Retry-After) and other failures.
 * 2. Start-up: time from spawning the `npm start` command to the first 200 from /readyz, on a fresh
 *    PGlite data dir, on the same dir again, on an empty PostgreSQL database and again; the process's
 *    RSS a second after it is ready (idle) and its peak.
 *
 * `uptime` is printed with each measurement: the machine is shared, and load moves every figure.
 * Exported: `embeddedBench()` returns the table rows {target, value, goal, met} (bench/run.ts can add them).
 * Environment: BENCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_EMBEDDED_SESSIONS
 * (default 1000), BENCH_EMBEDDED_IN_FLIGHT (default 100), BENCH_EMBEDDED_ONLY=pglite|postgres,
 * BENCH_EMBEDDED_SKIP_STARTUP=1 (the load only), BENCH_EMBEDDED_ROUNDS (start-up rounds, default 3; medians reported).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const SESSIONS = Number(env.BENCH_EMBEDDED_SESSIONS ?? 1000);
const IN_FLIGHT = Number(env.BENCH_EMBEDDED_IN_FLIGHT ?? 100);
const REQUEST_TIMEOUT_MS = 30_000;
const STARTUP_ROUNDS = Number(env.BENCH_EMBEDDED_ROUNDS ?? 3);
const ADMIN_TOKEN = 'bench-admin-token-0123456789';

export interface BenchRow {
  target: string;
  value: string;
  goal: string;
  met: boolean;
}

const uptime = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

/** `npm start`'s command line (package.json scripts.start, without its leading `node`). */
function startArgs(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = pkg.scripts.start!.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`npm start is not a node command: ${pkg.scripts.start}`);
  return words.slice(1);
}

/** Runs package.json's prestart (a build step, if any) once, as `npm start` would before the server. */
async function runPrestart(): Promise<void> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  if (!pkg.scripts.prestart) return;
  const child = spawn('npm', ['run', '-s', 'prestart'], { cwd: ROOT, stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`npm run prestart exited with ${code}`);
}

interface Server {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  readyMs: number;
  /** CPU time (user + system, every thread) the process had used when it was ready: less moved by load. */
  readyCpuMs: number;
}

/** CPU time of each thread of a process (tid → ms). */
function threadCpuMs(pid: number): Map<number, number> {
  const result = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ');
      result.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // not answering yet: try again
    }
  }
  return result;
}

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function startServer(extraEnv: Record<string, string>, port: number): Promise<Server> {
  const started = performance.now();
  const child = spawn(process.execPath, startArgs(), {
    cwd: ROOT,
    env: {
      PATH: env.PATH,
      HOME: env.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN,
      TRUST_PROXY: '1',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${stdout}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.ok) break;
    } catch {
      // not answering yet: try again
    }
    if (performance.now() - started > 60_000) throw new Error('server not ready after 60 s');
    await new Promise((r) => setTimeout(r, 10));
  }
  const readyMs = performance.now() - started;
  return { child, port, stdout: () => stdout, readyMs, readyCpuMs: cpuMs(child.pid!) };
}

async function stopServer(server: Server): Promise<number | null> {
  const exited = once(server.child, 'exit').then(([code]) => code as number | null);
  server.child.kill('SIGTERM');
  return exited;
}

function rssMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+)`))?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

interface Answer {
  status?: number;
  body?: string;
  retryAfter?: string;
  ms: number;
  error?: string;
}

function send(agent: Agent, port: number, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const settle = (answer: Omit<Answer, 'ms'>) => {
      if (done) return;
      done = true;
      resolve({ ...answer, ms: performance.now() - started });
    };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest({ host: '127.0.0.1', port, method, path, agent, headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => settle({ status: res.statusCode, body: text, retryAfter: res.headers['retry-after'] }));
      res.on('error', (error) => settle({ error: error.message }));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => {
      settle({ error: 'timeout' });
      req.destroy();
    });
    req.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
    req.end(payload);
  });
}

/** The demo's template → a published three-step form (one answerable question per step). */
async function makeForm(server: Server): Promise<{ formId: string; questions: string[] }> {
  const environmentId = /^environment \(Site ID\): (\S+)$/m.exec(server.stdout())?.[1];
  const templateId = /^template form: +(\S+)$/m.exec(server.stdout())?.[1];
  const apiKey = /^API key: +(\S+)$/m.exec(server.stdout())?.[1];
  if (!environmentId || !templateId || !apiKey) throw new Error(`no demo banner in:\n${server.stdout()}`);
  const generated = await fetch(`http://127.0.0.1:${server.port}/api/v1/environments/${environmentId}/forms/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({
      sourceFormId: templateId,
      name: 'Embedded load',
      steps: [
        {
          name: 'You',
          components: [
            {
              type: 'IdentityInfo',
              content: {
                fields: [
                  { key: 'firstName', label: 'First name' },
                  { key: 'emailAddress', label: 'E-mail' },
                ],
              },
            },
          ],
        },
        { name: 'Role', components: [{ type: 'ShortInput', content: { question: 'Your role?' } }] },
        { name: 'Size', components: [{ type: 'Dropdown', content: { question: 'Team size?', options: ['1-10', '11-50', '51-200'] } }] },
      ],
    }),
  });
  if (!generated.ok) throw new Error(`generate answered ${generated.status}: ${await generated.text()}`);
  const formId = ((await generated.json()) as { result: { form: { id: string } } }).result.form.id;
  const definition = (await (await fetch(`http://127.0.0.1:${server.port}/s/${formId}/definition`)).json()) as {
    steps: { components: { id: string }[] }[];
  };
  return { formId, questions: definition.steps.map((step) => step.components[0]!.id) };
}

export interface LoadResult {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  unanswered: number;
  unavailable: number;
  unavailableWithoutRetryAfter: number;
  failed: number;
  finishedSessions: number;
  seconds: number;
  failures: string[];
  /** Server CPU during the load, ms: main thread, busiest other thread, all threads. */
  cpu: { mainThread: number; busiestOther: number; allThreads: number };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** 1,000 sessions of three steps, 100 in flight. */
export async function sessionLoad(server: Server): Promise<LoadResult> {
  const { formId, questions } = await makeForm(server);
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const answers: Answer[] = [];
  const failures: string[] = [];
  let finishedSessions = 0;
  let started = performance.now();
  const record = (answer: Answer, label: string) => {
    answers.push(answer);
    if (env.BENCH_EMBEDDED_DEBUG && answer.ms > 5000) console.log(`slow: ${label} ${Math.round(answer.ms)} ms, sent at ${Math.round(performance.now() - started - answer.ms)} ms`);
    if (answer.status !== undefined && answer.status >= 400 && answer.status !== 503 && failures.length < 5) failures.push(`${answer.status} ${answer.body?.slice(0, 200)}`);
    if (answer.error && failures.length < 5) failures.push(`${answer.error} (${label}, sent at ${Math.round(performance.now() - started - answer.ms)} ms)`);
    return answer;
  };
  const session = async (n: number) => {
    const headers = { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
    const start = record(
      await send(agent, server.port, 'POST', `/s/${formId}/responses`, headers, {
        answers: { [questions[0]!]: { firstName: `Person ${n}`, emailAddress: `person${n}@example.com` } },
      }),
      'start',
    );
    if (start.status !== 201) return;
    const { id, resumeToken } = JSON.parse(start.body!) as { id: string; resumeToken: string };
    const auth = { ...headers, authorization: `Bearer ${resumeToken}` };
    const second = record(await send(agent, server.port, 'PATCH', `/s/${formId}/responses/${id}`, auth, { answers: { [questions[1]!]: `Role ${n}` } }), 'step 2');
    if (second.status !== 200) return;
    const third = record(await send(agent, server.port, 'PATCH', `/s/${formId}/responses/${id}`, auth, { answers: { [questions[2]!]: '11-50' }, finished: true }), 'finish');
    if (third.status === 200) finishedSessions++;
  };
  const cpuBefore = threadCpuMs(server.child.pid!);
  started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < SESSIONS) await session(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  // Where the server's CPU went: its main thread (HTTP, validation, JSON, drizzle) and its busiest
  // other thread (on PGlite, the database's worker).
  const cpuAfter = threadCpuMs(server.child.pid!);
  const used = [...cpuAfter].map(([tid, ms]) => ({ tid, ms: ms - (cpuBefore.get(tid) ?? 0) }));
  const mainThread = used.find((t) => t.tid === server.child.pid)?.ms ?? 0;
  const busiestOther = Math.max(0, ...used.filter((t) => t.tid !== server.child.pid).map((t) => t.ms));
  const allThreads = used.reduce((sum, t) => sum + t.ms, 0);
  const answered = answers
    .filter((a) => a.status !== undefined)
    .map((a) => a.ms)
    .sort((a, b) => a - b);
  // An unanswered request counts at the timeout in the percentiles: it waited at least that long.
  const all = [...answered, ...answers.filter((a) => a.status === undefined).map(() => REQUEST_TIMEOUT_MS)].sort((a, b) => a - b);
  return {
    requests: answers.length,
    p50: Math.round(percentile(all, 50)),
    p99: Math.round(percentile(all, 99)),
    max: Math.round(all.at(-1) ?? 0),
    unanswered: answers.filter((a) => a.status === undefined).length,
    unavailable: answers.filter((a) => a.status === 503).length,
    unavailableWithoutRetryAfter: answers.filter((a) => a.status === 503 && !a.retryAfter).length,
    failed: answers.filter((a) => a.status !== undefined && a.status >= 400 && a.status !== 503).length,
    finishedSessions,
    seconds: Math.round(seconds * 10) / 10,
    failures,
    cpu: { mainThread, busiestOther, allThreads },
  };
}

interface StartupResult {
  readyMs: number;
  readyCpuMs: number;
  idleRss: number;
  peakRss: number;
}

async function startup(label: string, extraEnv: Record<string, string>, port: number): Promise<StartupResult> {
  const server = await startServer(extraEnv, port);
  await new Promise((r) => setTimeout(r, 1000));
  const memory = rssMb(server.child.pid!);
  const code = await stopServer(server);
  const result = { readyMs: Math.round(server.readyMs), readyCpuMs: server.readyCpuMs, idleRss: memory.rss, peakRss: memory.peak };
  console.log(
    `${label.padEnd(32)} ready ${String(result.readyMs).padStart(5)} ms (CPU ${result.readyCpuMs} ms)  idle RSS ${String(result.idleRss).padStart(4)} MB  peak ${result.peakRss} MB  exit ${code}  (load ${uptime()})`,
  );
  return result;
}

async function withPostgresDatabase<T>(run: (url: string) => Promise<T>): Promise<T> {
  const adminUrl = env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const { default: postgres } = await import('postgres');
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const name = `formloom_embedded_bench_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

function loadRows(label: string, load: LoadResult): BenchRow[] {
  console.log(
    `${label} load: ${load.requests} requests in ${load.seconds} s, p50 ${load.p50} ms, p99 ${load.p99} ms, max ${load.max} ms, ` +
      `unanswered ${load.unanswered}, 503 ${load.unavailable} (without Retry-After ${load.unavailableWithoutRetryAfter}), other failures ${load.failed}, ` +
      `sessions finished ${load.finishedSessions}/${SESSIONS}  (load ${uptime()})`,
  );
  console.log(
    `${label} server CPU during the load: main thread ${load.cpu.mainThread} ms, busiest other thread ${load.cpu.busiestOther} ms, ` +
      `all threads ${load.cpu.allThreads} ms (${Math.round((load.cpu.allThreads / load.requests) * 100) / 100} ms per request)`,
  );
  for (const failure of load.failures) console.log(`  failure: ${failure}`);
  const name = `${label}: ${SESSIONS} sessions × 3 steps, ${IN_FLIGHT} in flight`;
  return [
    { target: `${name}, p99`, value: `${load.p99} ms (p50 ${load.p50} ms)`, goal: '≤ 2000 ms', met: load.p99 <= 2000 },
    { target: `${name}, unanswered after 30 s`, value: String(load.unanswered), goal: '0', met: load.unanswered === 0 },
    {
      target: `${name}, 503 (all with Retry-After) / other failures`,
      value: `${load.unavailable} / ${load.failed}`,
      goal: 'reported; 0 other failures',
      met: load.failed === 0 && load.unavailableWithoutRetryAfter === 0,
    },
  ];
}

/** Medians over rounds of (fresh, existing) start-ups. */
async function startupRounds(label: string, round: (n: number) => Promise<{ fresh: StartupResult; existing: StartupResult }>) {
  const results: { fresh: StartupResult; existing: StartupResult }[] = [];
  for (let n = 0; n < STARTUP_ROUNDS; n++) results.push(await round(n));
  const median = (pick: (r: StartupResult) => number, which: 'fresh' | 'existing') => {
    const sorted = results.map((r) => pick(r[which])).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  const summary = (which: 'fresh' | 'existing'): StartupResult => ({
    readyMs: median((r) => r.readyMs, which),
    readyCpuMs: median((r) => r.readyCpuMs, which),
    idleRss: median((r) => r.idleRss, which),
    peakRss: Math.max(...results.map((r) => r[which].peakRss)),
  });
  return startupRows(`${label} (median of ${STARTUP_ROUNDS})`, summary('fresh'), summary('existing'));
}

function startupRows(label: string, fresh: StartupResult, existing: StartupResult): BenchRow[] {
  return [
    { target: `${label}: npm start ready, fresh`, value: `${fresh.readyMs} ms (CPU ${fresh.readyCpuMs} ms)`, goal: '≤ 5000 ms', met: fresh.readyMs <= 5000 },
    { target: `${label}: npm start ready, existing`, value: `${existing.readyMs} ms (CPU ${existing.readyCpuMs} ms)`, goal: '≤ 2000 ms', met: existing.readyMs <= 2000 },
    {
      target: `${label}: idle RSS (fresh / existing)`,
      value: `${fresh.idleRss} / ${existing.idleRss} MB (peak ${Math.max(fresh.peakRss, existing.peakRss)} MB)`,
      goal: '≤ 300 MB',
      met: Math.max(fresh.idleRss, existing.idleRss) <= 300,
    },
  ];
}

/** Every measurement above; the rows of the bench table. */
export async function embeddedBench(options: { only?: 'pglite' | 'postgres'; skipStartup?: boolean } = {}): Promise<BenchRow[]> {
  await runPrestart();
  const rows: BenchRow[] = [];
  if (options.only !== 'postgres') {
    if (!options.skipStartup) {
      rows.push(
        ...(await startupRounds('PGlite', async (n) => {
          const dataDir = mkdtempSync(join(tmpdir(), 'formloom-embedded-'));
          try {
            return {
              fresh: await startup(`PGlite, fresh data dir #${n + 1}`, { DATA_DIR: dataDir }, 4320),
              existing: await startup(`PGlite, existing data dir #${n + 1}`, { DATA_DIR: dataDir }, 4321),
            };
          } finally {
            rmSync(dataDir, { recursive: true, force: true });
          }
        })),
      );
    }
    const loadDir = mkdtempSync(join(tmpdir(), 'formloom-embedded-load-'));
    try {
      const server = await startServer({ DATA_DIR: loadDir }, 4322);
      try {
        rows.push(...loadRows('PGlite', await sessionLoad(server)));
        console.log(`PGlite RSS after the load: ${rssMb(server.child.pid!).rss} MB (peak ${rssMb(server.child.pid!).peak} MB)`);
      } finally {
        await stopServer(server);
      }
    } finally {
      rmSync(loadDir, { recursive: true, force: true });
    }
  }
  if (options.only !== 'pglite') {
    if (!options.skipStartup) {
      rows.push(
        ...(await startupRounds('PostgreSQL', (n) =>
          withPostgresDatabase(async (url) => {
            const dataDir = mkdtempSync(join(tmpdir(), 'formloom-embedded-pg-'));
            try {
              return {
                fresh: await startup(`PostgreSQL, empty database #${n + 1}`, { DATA_DIR: dataDir, DATABASE_URL: url }, 4323),
                existing: await startup(`PostgreSQL, existing database #${n + 1}`, { DATA_DIR: dataDir, DATABASE_URL: url }, 4324),
              };
            } finally {
              rmSync(dataDir, { recursive: true, force: true });
            }
          }),
        )),
      );
    }
    await withPostgresDatabase(async (url) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'formloom-embedded-pg-load-'));
      try {
        const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: url }, 4325);
        try {
          rows.push(...loadRows('PostgreSQL', await sessionLoad(server)));
        } finally {
          await stopServer(server);
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
  return rows;
}

export function printRows(rows: BenchRow[]): void {
  const width = Math.max(...rows.map((row) => row.target.length));
  const valueWidth = Math.max(...rows.map((row) => row.value.length));
  for (const row of rows) console.log(`${row.met ? 'met   ' : 'MISSED'}  ${row.target.padEnd(width)}  ${row.value.padEnd(valueWidth)}  goal ${row.goal}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = env.BENCH_EMBEDDED_ONLY as 'pglite' | 'postgres' | undefined;
  console.log(`uptime at start: load ${uptime()}`);
  printRows(await embeddedBench({ ...(only ? { only } : {}), skipStartup: env.BENCH_EMBEDDED_SKIP_STARTUP === '1' }));
}
