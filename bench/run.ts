/**
 * `npm run bench`: every performance target (docs/performance.md) in one run, side by side with minimal
 * baselines, and one table at the end with each target met or missed.
 *
 * 1. Seeds PostgreSQL databases with generate_series: 10,000 responses over 100 forms, 1,000,000 over
 *    10,000 forms and (opt-in) 10,000,000 over 100,000 forms, 2 environments each (~100 responses per
 *    form), unless BENCH_SKIP_SEED=1 and the data is already there.
 * 2. On each, GET /api/v1/responses?formId=<random form of environment A> with autocannon (loopback,
 *    bounded duration) through REST, through GraphQL (the same operation, its document text POSTed to
 *    /graphql as a client would: "GraphQL ad hoc"; and by the hash of the trusted document instead of its
 *    text: "GraphQL persisted") and through a minimal baseline (bench/baseline.ts: node:http +
 *    postgres.js, the same SQL, the same JSON). Servers run in child processes. BENCH_LISTING_ROWS picks
 *    rows (comma-separated names; default all).
 * 3. On the smallest dataset of the run, the writes: public submissions (bench/submissions.ts: JSON API
 *    sessions of start, update and finish beside bench/baseline-submissions.ts running the same SQL
 *    transactions; the page's form posts; statements and round trips per submission) and generate
 *    (bench/generate.ts: a 5-step body, with the split of its time); conditional logic (bench/logic.ts:
 *    rule evaluation per submission on a form with 20 rules on each of 10 steps, and the server's CPU per
 *    submission with and without them); e-mail notifications (bench/notifications.ts: submissions per second
 *    and server CPU with a team alert and a confirmation beside none); variables and recall
 *    (bench/variables.ts: the server's CPU per submission on a form with 20 calculations and 10 recalled
 *    texts, and on the same form without them); the respondent's page of a survey (bench/survey-page.ts:
 *    GET /s/<id> of a form with one question of each survey type and its limits set: requests/s, median,
 *    p90 and p99 latency, statements per request). Their rows are removed after.
 * 4. At 1M and 10M: the whole-environment stream (returnPartials=true, half the responses) and the CSV
 *    and NDJSON exports from a fresh server, with time and the server's peak RSS growth; EXPLAIN
 *    (ANALYZE, BUFFERS) of both listings. At 1M also two tenants (B's one-row request while A sends
 *    its heaviest allowed GraphQL request) and Form.summary.
 * 5. With BENCH_CLUSTER=1 (or BENCH_ONLY=cluster for it alone): the 10k dataset on a private primary
 *    with a streaming standby and PgBouncer in front (test/support/pg-cluster.ts): the listing on the primary,
 *    through PgBouncer and through the replica, and submissions directly and through PgBouncer, side by
 *    side (ratios), with the CPU per request of the node, each database server and PgBouncer.
 * 6. The table of targets; bench/embedded.ts, when present, adds the embedded default's rows.
 * Targets take turns (BENCH_ROUNDS rounds, medians), so drifting load on the machine hits them alike;
 * the load average is printed with each part. Every edge limit is on in the app's servers
 * (bench/server.ts).
 *
 * Environment: DATABASE_URL (the 1M database; the others are `<name>_10k` and `<name>_10m` on the same
 * server; default postgres://postgres@127.0.0.1:5432/formloom_bench), BENCH_SKIP_SEED=1,
 * BENCH_DURATION (seconds per measurement, default 10), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS
 * (default 10), BENCH_ONLY=10k,1m,10m (datasets, comma-separated; default 10k and 1m), BENCH_10M=1
 * (add the 10M dataset: its first seed takes ~20 minutes and ~16 GB), BENCH_CLUSTER=1 (part 5; needs
 * initdb and /usr/sbin/pgbouncer; run as root, the servers run as the `postgres` user), BENCH_SKIP_WRITES=1,
 * BENCH_SKIP_LISTING=1, BENCH_SKIP_TENANTS=1 (the 1M two-tenant and summary figures), BENCH_SKIP_STREAM=1, BENCH_SKIP_EXPORT=1, BENCH_EXPORT_FORMATS=csv or ndjson (only that export),
 * BENCH_SKIP_EMBEDDED=1, BENCH_CPU_PROF=1 (profile the REST, GraphQL and JSON API submission servers under load, and the stream
 * and export servers; .cpuprofile files go to BENCH_PROFILE_DIR, default
 * <tmp>/formloom-bench-profiles, and a summary is printed), BENCH_NODE_FLAGS (the servers' Node
 * flags, default --max-semi-space-size=4 as npm start).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon, { type Request as AutocannonRequest, type Result } from 'autocannon';
import { createHash } from 'node:crypto';
import { print } from 'graphql';
import postgres, { type Sql } from 'postgres';
import { createApiKey } from '../src/auth/auth.service.ts';
import { openDatabase } from '../src/db/client.ts';
import { FormResponsesPageDocument } from '../src/graphql/generated/graphql.ts';
import { summarizeCpuProfile } from './profile.ts';
import { BENCH_ENVIRONMENTS, clearSubmissions, countSeed, seed, type SeedSize } from './seed.ts';
import { generateBody, generatePath, generatePhases } from './generate.ts';
import { describeHostSpeed, measureHostSpeed, type HostSpeed } from './host-speed.ts';
import { apiSessionRequests, countStatements, pageSessionRequests } from './submissions.ts';
import { describeLogic, LOGIC_STEPS, measureLogic, RULES_PER_STEP, type LogicFigures } from './logic.ts';
import { describeNotifications, measureNotifications, type NotificationFigures } from './notifications.ts';
import { describeVariables, measureVariables, type VariablesFigures } from './variables.ts';
import { describeSurveyPage, measureSurveyPage, type SurveyPageFigures } from './survey-page.ts';
import { lsnValue } from '../src/db/replicas.ts';
import { processStat } from '../test/support/pg-cluster.ts';

const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 10);
const WARMUP = Math.min(3, DURATION);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const SKIP_SEED = env.BENCH_SKIP_SEED === '1';
const PROFILE = env.BENCH_CPU_PROF === '1';
const PROFILE_DIR = `${env.BENCH_PROFILE_DIR ?? join(tmpdir(), 'formloom-bench-profiles')}/`;
const ADMIN_TOKEN = 'bench-admin-token-0123456789';

const largeUrl = env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/formloom_bench';
const siblingUrl = (suffix: string) => {
  const url = new URL(largeUrl);
  url.pathname = `${url.pathname.replace(/^\//, '') || 'postgres'}_${suffix}`;
  return url.toString();
};
const smallUrl = siblingUrl('10k');
const hugeUrl = siblingUrl('10m');

interface Dataset {
  label: '1m' | '10k' | '10m';
  url: string;
  size: SeedSize;
}
/** BENCH_ONLY picks datasets (comma-separated); the 10M one is opt-in (BENCH_10M=1 or BENCH_ONLY=10m): its seed takes ~20 minutes here. */
const ONLY = env.BENCH_ONLY?.split(',').map((label) => label.trim());
const DATASETS_BY_LABEL: Record<Dataset['label'], SeedSize> = {
  '10k': { forms: 100, responses: 10_000, leads: 2_000 },
  '1m': { forms: 10_000, responses: 1_000_000, leads: 100_000 },
  '10m': { forms: 100_000, responses: 10_000_000, leads: 1_000_000 },
};
const DATASETS: Dataset[] = (
  [
    { label: '10k', url: smallUrl, size: DATASETS_BY_LABEL['10k'] },
    { label: '1m', url: largeUrl, size: DATASETS_BY_LABEL['1m'] },
    { label: '10m', url: hugeUrl, size: DATASETS_BY_LABEL['10m'] },
  ] as Dataset[]
).filter((d) => (ONLY ? ONLY.includes(d.label) : d.label !== '10m' || env.BENCH_10M === '1'));

const log = (line = '') => process.stdout.write(`${line}\n`);
const fmt = (n: number, digits = 1) => n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

// ---------------------------------------------------------------- databases

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const admin = postgres(maintenance.toString(), { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!exists) {
      await admin.unsafe(`create database "${name.replace(/"/g, '""')}"`);
      log(`created database ${name}`);
    }
  } finally {
    await admin.end();
  }
}

async function prepare(dataset: Dataset): Promise<{ apiKey: string; formIds: string[] }> {
  await ensureDatabase(dataset.url);
  const handle = await openDatabase({ databaseUrl: dataset.url, maxConnections: 2 });
  await handle.migrate();
  const sql = postgres(dataset.url, { max: 1, onnotice: () => {} });
  try {
    const counts = await countSeed(sql);
    const seeded = counts.forms === dataset.size.forms && counts.environmentA > 0 && counts.storedAsService;
    if (SKIP_SEED && seeded) {
      log(`[${dataset.label}] BENCH_SKIP_SEED=1: reusing ${counts.responses.toLocaleString('en')} responses`);
    } else {
      log(`[${dataset.label}] seeding ${dataset.size.responses.toLocaleString('en')} responses over ${dataset.size.forms.toLocaleString('en')} forms and 2 environments`);
      await seed(sql, dataset.size, log);
    }
    const { key } = await createApiKey(handle.db, { environmentId: BENCH_ENVIRONMENTS[0], name: 'bench' });
    const formIds = Array.from({ length: dataset.size.forms / 2 }, (_, i) => `bench-form-${i * 2}`);
    return { apiKey: key, formIds };
  } finally {
    await sql.end();
    await handle.close();
  }
}

// ---------------------------------------------------------------- child servers

interface Child {
  process: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/**
 * Node flags of `npm start` (package.json), given to every child, the baseline included, so all run
 * on the same runtime settings: a 4 MB young-generation semi-space suits this short-lived garbage.
 */
const RUNTIME_FLAGS = (env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=4').split(' ').filter(Boolean);

async function startChild(file: string, childEnv: Record<string, string>, execArgv: string[] = []): Promise<Child> {
  const child = fork(new URL(file, import.meta.url).pathname, [], {
    // Servers run as in production (graphql-js skips its development-only checks).
    env: { ...env, NODE_ENV: 'production', ...childEnv },
    execArgv: [...RUNTIME_FLAGS, '--import', 'tsx', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return {
    process: child,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const startApp = (url: string, execArgv: string[] = []) => startChild('./server.ts', { BENCH_DATABASE_URL: url, BENCH_ADMIN_TOKEN: ADMIN_TOKEN }, execArgv);
const startBaseline = (url: string) => startChild('./baseline.ts', { BENCH_DATABASE_URL: url, BENCH_ENVIRONMENT_ID: BENCH_ENVIRONMENTS[0] });

function fetchText(port: number, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return fetch(`http://127.0.0.1:${port}${path}`, init).then(async (r) => ({ status: r.status, text: await r.text() }));
}

// ---------------------------------------------------------------- load

interface Measurement {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time of the server process per request (user + system). */
  cpuMicrosPerRequest: number;
  /** Other quantities watched, per request: the database servers' and PgBouncer's CPU, WAL written. */
  perRequest?: Record<string, number>;
}

/** Quantities a measurement also watches (a running total read before and after: CPU µs, WAL bytes), by name with its unit. */
type Watch = Record<string, () => number | Promise<number>>;

function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/** utime + stime of a process, in microseconds. */
const cpuMicros = (pid: number): number => processStat(pid)?.cpuMicros ?? 0;

interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A request made afresh each time, or a cycle of requests each connection walks (a respondent's session). */
type Workload = (() => LoadRequest) | AutocannonRequest[];

async function load(name: string, server: Child, workload: Workload, watch: Watch = {}): Promise<Measurement> {
  const requests = Array.isArray(workload) ? workload : [{ setupRequest: (request: AutocannonRequest) => ({ ...request, ...workload() }) }];
  const options = (duration: number) => ({
    url: `http://127.0.0.1:${server.port}`,
    connections: CONNECTIONS,
    duration,
    requests,
  });
  await autocannon(options(WARMUP));
  const cpuBefore = cpuMicros(server.process.pid!);
  const watchedBefore = await Promise.all(Object.entries(watch).map(async ([what, read]) => [what, await read()] as const));
  const result: Result = await autocannon(options(DURATION));
  const cpu = cpuMicros(server.process.pid!) - cpuBefore;
  const total = Math.max(result.requests.total, 1);
  const perRequest = Object.fromEntries(await Promise.all(watchedBefore.map(async ([what, before]) => [what, ((await watch[what]!()) - before) / total] as const)));
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // Redirects are answers too (the page's form posts answer 303).
    errors: result.errors + result.timeouts + result['4xx'] + result['5xx'],
    cpuMicrosPerRequest: cpu / total,
    ...(watchedBefore.length > 0 ? { perRequest } : {}),
  };
}

const graphqlQuery = print(FormResponsesPageDocument);
/** The listing's document as a persisted document: its hash (a trusted one, from schema/operations/). */
const graphqlPersisted = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(graphqlQuery).digest('hex') } };
/** The listing's rows measured: BENCH_LISTING_ROWS (comma-separated), default all. */
const LISTING_ROWS = env.BENCH_LISTING_ROWS?.split(',').map((name) => name.trim());

async function measureListing(dataset: Dataset, apiKey: string, formIds: string[]): Promise<Measurement[]> {
  await checkAgreement(dataset, apiKey, formIds[0]!);
  // One server process per target, all started up front; they are idle while another is measured.
  // The targets take turns, ROUNDS times, so drifting load on the machine hits them alike.
  const profile = (suffix: string) => (PROFILE ? ['--cpu-prof', '--cpu-prof-dir', `${PROFILE_DIR}${dataset.label}${suffix}`] : []);
  const graphqlRequest = (body: object) => () => ({
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ ...body, variables: { formId: pick(formIds) } }),
  });
  const rows: [string, () => Promise<Child>, Workload][] = [
    ['baseline', () => startBaseline(dataset.url), () => ({ method: 'GET', path: `/api/v1/responses?formId=${pick(formIds)}`, headers: {} })],
    ['REST', () => startApp(dataset.url, profile('')), () => ({ method: 'GET', path: `/api/v1/responses?formId=${pick(formIds)}`, headers: { 'x-api-key': apiKey } })],
    ['GraphQL', () => startApp(dataset.url, profile('-graphql')), graphqlRequest({ query: graphqlQuery })],
    ['GraphQL persisted', () => startApp(dataset.url, profile('-graphql-persisted')), graphqlRequest({ extensions: graphqlPersisted })],
  ];
  const chosen = rows.filter(([name]) => !LISTING_ROWS || LISTING_ROWS.includes(name));
  const servers = await Promise.all(chosen.map(([, start]) => start()));
  try {
    return await takeTurns(chosen.map(([name, , workload], i) => [name, servers[i]!, workload]));
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** Each target measured in turn, ROUNDS times, so drifting load on the machine hits them alike; medians. */
async function takeTurns(targets: [string, Child, Workload, Watch?][]): Promise<Measurement[]> {
  const rounds: Measurement[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const measured: Measurement[] = [];
    for (const [name, server, workload, watch] of targets) measured.push(await load(name, server, workload, watch));
    rounds.push(measured);
  }
  return targets.map(([name]) => combine(rounds.map((round) => round.find((m) => m.name === name)!)));
}

// ---------------------------------------------------------------- submissions

/**
 * Public submissions (bench/submissions.ts): the JSON API's start, update and finish, side by side
 * with the baseline running the same SQL transactions over node:http + postgres.js, and the page's
 * two form posts. Requests/s are submissions/s. The rows they add are removed afterwards.
 */
async function measureSubmissions(dataset: Dataset, formIds: string[]) {
  const pickForm = () => pick(formIds);
  const counts = await countStatements(dataset.url, formIds[0]!);
  const baseline = await startChild('./baseline-submissions.ts', { BENCH_DATABASE_URL: dataset.url });
  const api = await startApp(dataset.url, PROFILE ? ['--cpu-prof', '--cpu-prof-dir', `${PROFILE_DIR}${dataset.label}-submissions`] : []);
  const page = await startApp(dataset.url, PROFILE ? ['--cpu-prof', '--cpu-prof-dir', `${PROFILE_DIR}${dataset.label}-page`] : []);
  try {
    const measured = await takeTurns([
      ['baseline', baseline, apiSessionRequests(pickForm)],
      ['JSON API', api, apiSessionRequests(pickForm)],
      ['page POST', page, pageSessionRequests(pickForm)],
    ]);
    return { measured, counts };
  } finally {
    await Promise.all([baseline.stop(), api.stop(), page.stop()]);
    const sql = postgres(dataset.url, { max: 1, onnotice: () => {} });
    await clearSubmissions(sql).finally(() => sql.end());
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Rounds of one target: median throughput, latencies and CPU; errors summed. */
function combine(rounds: Measurement[]): Measurement {
  const watched = Object.keys(rounds[0]!.perRequest ?? {});
  return {
    name: rounds[0]!.name,
    rps: median(rounds.map((r) => r.rps)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    cpuMicrosPerRequest: median(rounds.map((r) => r.cpuMicrosPerRequest)),
    ...(watched.length > 0 ? { perRequest: Object.fromEntries(watched.map((what) => [what, median(rounds.map((r) => r.perRequest![what]!))])) } : {}),
  };
}

/** REST, GraphQL and the baseline return the same responses for a form (the same JSON, REST and baseline). */
async function checkAgreement(dataset: Dataset, apiKey: string, formId: string) {
  const app = await startApp(dataset.url);
  const baseline = await startBaseline(dataset.url);
  try {
    const rest = await fetchText(app.port, `/api/v1/responses?formId=${formId}`, { headers: { 'x-api-key': apiKey } });
    const base = await fetchText(baseline.port, `/api/v1/responses?formId=${formId}`);
    const gql = await fetchText(app.port, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ query: graphqlQuery, variables: { formId } }),
    });
    const restBody = JSON.parse(rest.text) as { data: { id: string }[] };
    if (rest.status !== 200 || restBody.data.length !== 10 || !isDeepStrictEqual(restBody, JSON.parse(base.text))) {
      throw new Error(`REST and baseline disagree for ${formId}:\n${rest.text.slice(0, 300)}\n${base.text.slice(0, 300)}`);
    }
    const gqlIds = (JSON.parse(gql.text) as { data: { formResponses: { edges: { node: { id: string } }[] } } }).data.formResponses.edges.map((e) => e.node.id);
    if (
      !isDeepStrictEqual(
        gqlIds,
        restBody.data.map((n) => n.id),
      )
    )
      throw new Error('GraphQL and REST disagree');
    const byHash = await fetchText(app.port, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ extensions: graphqlPersisted, variables: { formId } }),
    });
    if (byHash.text !== gql.text) throw new Error(`GraphQL by hash and by text disagree:\n${byHash.text.slice(0, 300)}`);
    log(`[${dataset.label}] REST, GraphQL (by text and by hash) and baseline agree (${rest.text.length.toLocaleString('en')} bytes for 10 responses)`);
  } finally {
    await app.stop();
    await baseline.stop();
  }
}

// ---------------------------------------------------------------- streaming

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** What a streamed download is: its path, how its rows start, and how a complete body ends. */
interface StreamTarget {
  path: string;
  marker: string;
  completeWith: string;
}

const LISTING_STREAM: StreamTarget = { path: '/api/v1/responses?returnPartials=true', marker: '{"id":"bench-resp-', completeWith: ']}' };
const EXPORT_STREAMS: Record<'csv' | 'ndjson', StreamTarget> = {
  // Every CSV record after the header starts a line with its id.
  csv: { path: '/api/v1/responses/export?format=csv&returnPartials=true', marker: '\nbench-resp-', completeWith: '\r\n' },
  ndjson: { path: '/api/v1/responses/export?format=ndjson&returnPartials=true', marker: '{"id":"bench-resp-', completeWith: '\n' },
};

async function measureStream(dataset: Dataset, apiKey: string, target: StreamTarget = LISTING_STREAM, profileDir?: string) {
  const app = await startApp(dataset.url, profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
  try {
    const pid = app.process.pid!;
    // Warm the path (first requests compile code, fill pools), then take the resting RSS.
    for (let i = 0; i < 3; i++) await fetchText(app.port, '/api/v1/responses?limit=100', { headers: { 'x-api-key': apiKey } });
    await new Promise((r) => setTimeout(r, 500));
    const before = rssKb(pid);
    const cpuBefore = cpuMicros(pid);
    let peak = before;
    const samples: number[] = [];
    const sampler = setInterval(() => {
      const rss = rssKb(pid);
      samples.push(rss);
      peak = Math.max(peak, rss);
    }, 50);
    const started = performance.now();
    const { bytes, rows, tail } = await new Promise<{ bytes: number; rows: number; tail: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: app.port, path: target.path, headers: { 'x-api-key': apiKey } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`stream answered ${res.statusCode}`));
        // Counted in the bytes as they come, never decoded: the client shares the host's two cores with
        // the server and PostgreSQL, and decoding each chunk to a string cost it more than the search.
        let bytes = 0;
        let rows = 0;
        const marker = Buffer.from(target.marker);
        let carry = Buffer.alloc(0); // the last marker.length - 1 bytes so far
        const count = (haystack: Buffer) => {
          for (let at = haystack.indexOf(marker); at !== -1; at = haystack.indexOf(marker, at + 1)) rows++;
        };
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          // A marker across the seam: neither part holds a whole one, so none is counted twice.
          count(Buffer.concat([carry, chunk.subarray(0, marker.length - 1)]));
          count(chunk);
          carry = Buffer.concat([carry, chunk.subarray(-(marker.length - 1))]).subarray(-(marker.length - 1));
        });
        res.on('end', () => resolve({ bytes, rows, tail: carry.toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    const seconds = (performance.now() - started) / 1000;
    const cpuMicrosPerResponse = (cpuMicros(pid) - cpuBefore) / Math.max(rows, 1);
    clearInterval(sampler);
    peak = Math.max(peak, rssKb(pid));
    // RSS at each tenth of the stream: flat memory plateaus early instead of climbing with the rows.
    const tenths = Array.from({ length: 10 }, (_, i) => (samples[Math.min(samples.length - 1, Math.floor(((i + 1) * samples.length) / 10) - 1)] ?? before) / 1024);
    return {
      seconds,
      bytes,
      rows,
      cpuMicrosPerResponse,
      complete: tail.endsWith(target.completeWith),
      beforeMb: before / 1024,
      peakMb: peak / 1024,
      growthMb: (peak - before) / 1024,
      tenths,
    };
  } finally {
    await app.stop();
  }
}

// ---------------------------------------------------------------- two tenants

/** Near the heaviest GraphQL request the default limits allow: five aliased 95-response listings with their data (cost just under 5,000). */
const HEAVY_QUERY = `query Heavy($formId: ID!) {${Array.from({ length: 5 }, (_, i) => ` l${i}: formResponses(formId: $formId, first: 95, filter: {returnPartials: true}) { edges { node { id createdAt rawData } } }`).join('')} }`;

/**
 * Tenant A loads the server with its heaviest allowed GraphQL request (CONNECTIONS at once) while
 * tenant B asks for one row of its own, one request after another: B's latency with and without A.
 */
async function measureTwoTenants(dataset: Dataset, apiKeyA: string, formIdsA: string[]) {
  const handle = await openDatabase({ databaseUrl: dataset.url, maxConnections: 1 });
  const { key: apiKeyB } = await createApiKey(handle.db, { environmentId: BENCH_ENVIRONMENTS[1], name: 'bench-b' });
  await handle.close();
  const formB = 'bench-form-1'; // odd forms belong to environment B
  const app = await startApp(dataset.url);
  const probe = async (seconds: number) => {
    const latencies: number[] = [];
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until) {
      const started = performance.now();
      const { status } = await fetchText(app.port, `/api/v1/responses?formId=${formB}&limit=1`, { headers: { 'x-api-key': apiKeyB } });
      if (status !== 200) throw new Error(`tenant B's one-row request answered ${status}`);
      latencies.push(performance.now() - started);
    }
    latencies.sort((x, y) => x - y);
    return { count: latencies.length, p50: median(latencies), p99: latencies[Math.floor(latencies.length * 0.99)]!, max: latencies.at(-1)! };
  };
  try {
    const check = await fetchText(app.port, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKeyA },
      body: JSON.stringify({ query: HEAVY_QUERY, variables: { formId: formIdsA[0] } }),
    });
    if (check.status !== 200 || check.text.includes('"errors"')) throw new Error(`the heavy request is refused: ${check.text.slice(0, 300)}`);
    await probe(1); // warm
    const idle = await probe(DURATION / 2);
    const heavy = autocannon({
      url: `http://127.0.0.1:${app.port}`,
      connections: CONNECTIONS,
      duration: DURATION,
      requests: [
        {
          method: 'POST',
          path: '/graphql',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKeyA },
          setupRequest: (request: AutocannonRequest) => ({ ...request, body: JSON.stringify({ query: HEAVY_QUERY, variables: { formId: pick(formIdsA) } }) }),
        },
      ],
    });
    await new Promise((r) => setTimeout(r, 1000));
    const loaded = await probe(DURATION - 2);
    const result: Result = await heavy;
    return { idle, loaded, heavyRps: result.requests.average, heavyErrors: result.errors + result.non2xx };
  } finally {
    await app.stop();
  }
}

// ---------------------------------------------------------------- response summaries

const SUMMARY_QUERY = `query Summary($id: ID!) { form(id: $id) { summary { total finished partial droppedOff completionRate
  steps { stepId reached } questions { questionId answers options { option count } } } } }`;

/** Form.summary (SQL aggregates) for forms of ~100 responses each at 1M, one request after another. */
async function measureSummaries(dataset: Dataset, apiKey: string, formIds: string[]) {
  const app = await startApp(dataset.url);
  try {
    const ask = async (id: string) => {
      const started = performance.now();
      const { status, text } = await fetchText(app.port, '/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ query: SUMMARY_QUERY, variables: { id } }),
      });
      if (status !== 200 || text.includes('"errors"')) throw new Error(`summary failed: ${text.slice(0, 300)}`);
      return performance.now() - started;
    };
    for (let i = 0; i < 5; i++) await ask(pick(formIds)); // warm
    const times = [];
    for (let i = 0; i < 200; i++) times.push(await ask(pick(formIds)));
    times.sort((x, y) => x - y);
    return { count: times.length, p50: median(times), p99: times[Math.floor(times.length * 0.99)]!, max: times.at(-1)! };
  } finally {
    await app.stop();
  }
}

// ---------------------------------------------------------------- plans

async function explainPlans(sql: Sql, formId: string) {
  const env = BENCH_ENVIRONMENTS[0];
  const columns = `"id", "form_id", "lead_id", "finished", "data", "meta", "ip", "country", "visited_form", "completed_form", "version", "created_at", "updated_at", "data_updated_at", to_char("created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  const queries: [string, string][] = [
    [
      `formId=${formId} (completed only, first page)`,
      `select ${columns} from "responses" where ("responses"."form_id" = '${formId}' and "responses"."environment_id" = '${env}' and "responses"."finished" and exists (select 1 from forms f where f.id = '${formId}' and f.environment_id = '${env}' and f.deleted_at is null)) order by "responses"."created_at" desc, "responses"."id" desc limit 11`,
    ],
    [
      'environment listing (returnPartials=true, a page deep in the walk)',
      `select ${columns} from "responses" where ("responses"."environment_id" = '${env}' and ("responses"."created_at", "responses"."id") < ('2025-07-01T00:00:00.000000Z'::timestamptz, 'bench-resp-500000')) order by "responses"."created_at" desc, "responses"."id" desc limit 101`,
    ],
  ];
  for (const [title, query] of queries) {
    const rows = await sql.unsafe(`explain (analyze, buffers, costs off) ${query}`);
    log(`  -- ${title}`);
    for (const row of rows) log(`  ${row['QUERY PLAN']}`);
  }
}

// ---------------------------------------------------------------- past one database (BENCH_CLUSTER=1)

const CLUSTER = env.BENCH_CLUSTER === '1' || (ONLY?.includes('cluster') ?? false);

/**
 * The 10k dataset on a private primary with a streaming standby, and Debian's PgBouncer (transaction
 * mode) in front of the primary (test/support/pg-cluster.ts): the listing on the primary directly, through
 * PgBouncer and through the replica (DATABASE_REPLICA_URLS); the JSON API's submissions directly and
 * through PgBouncer (DATABASE_DIRECT_URL). Each with the CPU per request of the node, of each database
 * server (the postmaster and all its processes) and of PgBouncer, for the capacity model.
 */
async function measureCluster() {
  const { startPgBouncer, startPrimary, startStandby, stopAll } = await import('../test/support/pg-cluster.ts');
  const database = 'formloom_bench_cluster';
  const children: Child[] = [];
  try {
    const primary = await startPrimary();
    const dataset: Dataset = { label: '10k', url: primary.url(database), size: DATASETS_BY_LABEL['10k'] };
    const { apiKey, formIds } = await prepare(dataset);
    // After the seed: the base backup carries the data.
    const standby = await startStandby(primary);
    const bouncer = await startPgBouncer(primary);
    const walPosition = async () => Number(lsnValue((await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn'))[0]!.lsn));
    const watch: Watch = {
      'primary µs': () => primary.cpuMicros(),
      'standby µs': () => standby.cpuMicros(),
      'PgBouncer µs': () => processStat(bouncer.pid)?.cpuMicros ?? 0,
      'WAL bytes': walPosition,
    };
    const app = (childEnv: Record<string, string>) => startChild('./server.ts', { BENCH_ADMIN_TOKEN: ADMIN_TOKEN, ...childEnv }).then((child) => (children.push(child), child));
    const direct = await app({ BENCH_DATABASE_URL: primary.url(database) });
    const pooled = await app({ BENCH_DATABASE_URL: bouncer.url(database), BENCH_DIRECT_URL: primary.url(database) });
    const replicated = await app({ BENCH_DATABASE_URL: primary.url(database), BENCH_REPLICA_URLS: standby.url(database) });
    const listing = () => ({ method: 'GET', path: `/api/v1/responses?formId=${pick(formIds)}`, headers: { 'x-api-key': apiKey } });
    const listings = await takeTurns([
      ['primary', direct, listing, watch],
      ['PgBouncer', pooled, listing, watch],
      ['replica', replicated, listing, watch],
    ]);
    const pickForm = () => pick(formIds);
    const writes = await takeTurns([
      ['direct', direct, apiSessionRequests(pickForm), watch],
      ['PgBouncer', pooled, apiSessionRequests(pickForm), watch],
    ]);
    return { listings, writes };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await stopAll();
  }
}

/** A cluster measurement's rows: throughput, its ratio to the first row, and CPU (and WAL) per request. */
function clusterTable(results: Measurement[]) {
  const [first] = results;
  const watched = Object.keys(first!.perRequest ?? {});
  log(
    `  ${'target'.padEnd(9)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'÷ first'.padStart(8)}  per request: ${['node µs', ...watched].join(', ')}  errors`,
  );
  for (const r of results) {
    const cpu = [r.cpuMicrosPerRequest, ...watched.map((what) => r.perRequest![what]!)].map((value) => fmt(value, 0)).join(', ');
    log(
      `  ${r.name.padEnd(9)} ${fmt(r.rps, 0).padStart(7)} ${fmt(r.p50).padStart(7)} ${fmt(r.p99).padStart(7)} ${`${fmt(r.rps / first!.rps, 2)} ×`.padStart(8)}  ${cpu}  ${r.errors}`,
    );
  }
}

// ---------------------------------------------------------------- main

function table(results: Measurement[]) {
  const base = results.find((r) => r.name === 'baseline')!;
  log(
    `  ${'target'.padEnd(17)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'req/s ÷ base'.padStart(13)} ${'p99 ÷ base'.padStart(11)} ${'server CPU/req'.padStart(15)} errors`,
  );
  for (const r of results) {
    log(
      `  ${r.name.padEnd(17)} ${fmt(r.rps, 0).padStart(9)} ${fmt(r.p50).padStart(7)} ${fmt(r.p99).padStart(7)} ${fmt(r.rps / base.rps, 2).padStart(13)} ${fmt(r.p99 / Math.max(base.p99, 1), 2).padStart(11)} ${`${fmt(r.cpuMicrosPerRequest, 0)} µs`.padStart(15)} ${r.errors}`,
    );
  }
}

/** One row of the final table: a performance target (or a reported figure), its value and its verdict. */
export interface TargetRow {
  target: string;
  value: string;
  /** undefined: reported, no threshold. */
  met?: boolean | undefined;
}
const targetRows: TargetRow[] = [];
const verdict = (met: boolean | undefined) => (met === undefined ? 'reported' : met ? 'met' : 'MISSED');

/** Generate: autocannon on the endpoint, and the in-process split of its time. */
async function measureGenerate(dataset: Dataset, apiKey: string) {
  const phases = await generatePhases(dataset.url, BENCH_ENVIRONMENTS[0], 'bench-form-0');
  const app = await startApp(dataset.url);
  try {
    const body = JSON.stringify(generateBody('bench-form-0'));
    const [measured] = await takeTurns([
      ['generate', app, () => ({ method: 'POST', path: generatePath(BENCH_ENVIRONMENTS[0]), headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body })],
    ]);
    return { measured: measured!, phases };
  } finally {
    await app.stop();
    const sql = postgres(dataset.url, { max: 1, onnotice: () => {} });
    await clearSubmissions(sql).finally(() => sql.end());
  }
}

function logStream(label: string, what: string, m: Awaited<ReturnType<typeof measureStream>>) {
  log(
    `  ${m.rows.toLocaleString('en')} responses, ${fmt(m.bytes / 1024 / 1024)} MB in ${fmt(m.seconds)} s (${fmt(m.rows / m.seconds, 0)} responses/s); ` +
      `server RSS ${fmt(m.beforeMb)} MB → peak ${fmt(m.peakMb)} MB (growth ${fmt(m.growthMb)} MB); server CPU ${fmt(m.cpuMicrosPerResponse, 1)} µs/response; body complete: ${m.complete}`,
  );
  log(`  [${label}] server RSS at each tenth of the ${what} (MB): ${m.tenths.map((mb) => fmt(mb, 0)).join(' ')}`);
}

/** A database URL as printed: without its user and password. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

log(`formloom bench — ${CONNECTIONS} connections, ${DURATION} s per measurement (after ${WARMUP} s warm-up), ${ROUNDS} rounds (medians), loopback`);
log(`datasets: ${DATASETS.map((d) => `${d.label} ${withoutCredentials(d.url)}`).join('   ')}`);
log(
  `load average at start: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')} (${cpus().length} cores)`,
);
if (PROFILE) {
  log('BENCH_CPU_PROF=1: the REST, GraphQL, stream and export servers run under the V8 profiler, which slows them; use these figures for attribution only');
  rmSync(PROFILE_DIR, { recursive: true, force: true });
  mkdirSync(PROFILE_DIR, { recursive: true });
}

/** The export formats measured: BENCH_EXPORT_FORMATS=csv or ndjson measures only that one. */
const EXPORT_FORMATS = (['csv', 'ndjson'] as const).filter((format) => (env.BENCH_EXPORT_FORMATS ?? 'csv,ndjson').split(',').includes(format));
/** With BENCH_CPU_PROF=1, where a stream's server writes its profile. */
const streamProfileDir = (dataset: Dataset, what: string) => (PROFILE ? `${PROFILE_DIR}${dataset.label}-${what}` : undefined);

const results = new Map<string, Measurement[]>();
const streams = new Map<string, Awaited<ReturnType<typeof measureStream>>>();
let twoTenants: Awaited<ReturnType<typeof measureTwoTenants>> | undefined;
let submissions: Awaited<ReturnType<typeof measureSubmissions>> | undefined;
let generated: Awaited<ReturnType<typeof measureGenerate>> | undefined;
let logic: LogicFigures | undefined;
let notifications: NotificationFigures | undefined;
let variables: VariablesFigures | undefined;
let surveyPage: SurveyPageFigures | undefined;
// The writes run once, on the smallest dataset of the run (their rows are removed afterwards).
const writesOn = env.BENCH_SKIP_WRITES === '1' ? undefined : DATASETS[0]?.label;
let hostSpeedAtStart: HostSpeed | undefined;
for (const dataset of DATASETS) {
  const { apiKey, formIds } = await prepare(dataset);
  if (!hostSpeedAtStart) {
    hostSpeedAtStart = await measureHostSpeed(dataset.url);
    log(`host speed at start (bench/host-speed.ts; lower is faster): ${describeHostSpeed(hostSpeedAtStart)}`);
  }
  if (env.BENCH_SKIP_LISTING !== '1') {
    const measured = await measureListing(dataset, apiKey, formIds);
    results.set(dataset.label, measured);
    log(`\n[${dataset.label}] GET /api/v1/responses?formId=<random form> (load average ${loadavg()[0]!.toFixed(2)})`);
    table(measured);
  }
  if (dataset.label === writesOn) {
    submissions = await measureSubmissions(dataset, formIds);
    log(
      `\n[${dataset.label}] public submissions: a session is start + update + finish (JSON API) or two form posts (page); req/s = submissions/s (load average ${loadavg()[0]!.toFixed(2)})`,
    );
    table(submissions.measured);
    const c = submissions.counts;
    log(
      `  statements = round trips per submission (PostgreSQL): start ${fmt(c.start.statements, 0)}/${fmt(c.start.roundTrips, 0)}, update ${fmt(c.update.statements, 0)}/${fmt(c.update.roundTrips, 0)}, finish ${fmt(c.finish.statements, 0)}/${fmt(c.finish.roundTrips, 0)} (statements/round trips; the form lookup and BEGIN/COMMIT included)`,
    );
    generated = await measureGenerate(dataset, apiKey);
    const g = generated;
    log(
      `\n[${dataset.label}] POST /api/v1/environments/{id}/forms/generate (5 steps, 11 components): ${fmt(g.measured.rps, 0)} req/s, p50 ${fmt(g.measured.p50)} ms, p99 ${fmt(g.measured.p99)} ms, server CPU ${fmt(g.measured.cpuMicrosPerRequest, 0)} µs/req, ${g.measured.errors} errors`,
    );
    const share = (ms: number) => `${fmt(ms, 3)} ms (${fmt((100 * ms) / g.phases.request, 0)} %)`;
    log(
      `  one request in-process, sequential: ${fmt(g.phases.request, 2)} ms; validation ${share(g.phases.validation)}, theme inheritance ${share(g.phases.theme)}, insert (source lookup + form + event, one transaction) ${share(g.phases.insert)}`,
    );
    log(
      `\n[${dataset.label}] conditional logic: ${LOGIC_STEPS} steps × ${RULES_PER_STEP} rules, JSON API sessions of ${LOGIC_STEPS + 1} submissions (load average ${loadavg()[0]!.toFixed(2)})`,
    );
    logic = await measureLogic(dataset.url, { duration: DURATION, rounds: ROUNDS, connections: CONNECTIONS, log });
    log(`  ${describeLogic(logic).value}`);
    log(
      `\n[${dataset.label}] e-mail notifications: JSON API sessions (start + finish) on a form with a team alert to 3 addresses and a confirmation, beside one without (load average ${loadavg()[0]!.toFixed(2)})`,
    );
    notifications = await measureNotifications(dataset.url, { duration: DURATION, rounds: ROUNDS, connections: CONNECTIONS });
    for (const line of describeNotifications(notifications)) log(line);
    log(
      `\n[${dataset.label}] variables and recall: ${LOGIC_STEPS} steps, 20 calculations and 10 recalled texts, beside the same form without them (load average ${loadavg()[0]!.toFixed(2)})`,
    );
    variables = await measureVariables(dataset.url, { duration: DURATION, rounds: ROUNDS, connections: CONNECTIONS, log });
    log(`  ${describeVariables(variables)}`);
    log(`\n[${dataset.label}] GET /s/<id> of a survey form (Rating, NPS, OpinionScale, Number, Date, Matrix, Ranking), form limits set (load average ${loadavg()[0]!.toFixed(2)})`);
    surveyPage = await measureSurveyPage(dataset.url, { duration: DURATION, rounds: ROUNDS, connections: CONNECTIONS });
    log(`  ${describeSurveyPage(surveyPage)}`);
  }
  if (dataset.label === '1m' && env.BENCH_SKIP_TENANTS !== '1') {
    log(`\n[1m] two tenants: B's one-row GET /api/v1/responses while A sends its heaviest allowed GraphQL request (5 × 95 responses with data), ${CONNECTIONS} at once`);
    const tenants = await measureTwoTenants(dataset, apiKey, formIds);
    const row = (label: string, m: typeof tenants.idle) => `  ${label.padEnd(16)} ${m.count} requests, p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms, max ${fmt(m.max)} ms`;
    log(row('B, A idle:', tenants.idle));
    log(row('B, A loading:', tenants.loaded));
    log(`  A: ${fmt(tenants.heavyRps, 0)} heavy requests/s, ${tenants.heavyErrors} errors`);
    twoTenants = tenants;
    const summaries = await measureSummaries(dataset, apiKey, formIds);
    log(
      `\n[1m] Form.summary over GraphQL (counts, step reach, per-option counts), one at a time: ${summaries.count} forms, p50 ${fmt(summaries.p50)} ms, p99 ${fmt(summaries.p99)} ms, max ${fmt(summaries.max)} ms`,
    );
  }
  if (dataset.label !== '10k') {
    if (env.BENCH_SKIP_STREAM !== '1') {
      log(`\n[${dataset.label}] streaming GET /api/v1/responses?returnPartials=true (all of environment A)`);
      const measuredStream = await measureStream(dataset, apiKey, LISTING_STREAM, streamProfileDir(dataset, 'stream'));
      streams.set(`${dataset.label} stream`, measuredStream);
      logStream(dataset.label, 'stream', measuredStream);
    }
    if (env.BENCH_SKIP_EXPORT !== '1') {
      for (const format of EXPORT_FORMATS) {
        log(`\n[${dataset.label}] GET ${EXPORT_STREAMS[format].path} (all of environment A)`);
        const measuredExport = await measureStream(dataset, apiKey, EXPORT_STREAMS[format], streamProfileDir(dataset, `${format}-export`));
        streams.set(`${dataset.label} ${format} export`, measuredExport);
        logStream(dataset.label, 'export', measuredExport);
      }
    }
    const sql = postgres(dataset.url, { max: 1, onnotice: () => {} });
    log(`\n[${dataset.label}] EXPLAIN (ANALYZE, BUFFERS)`);
    await explainPlans(sql, formIds[1]!);
    await sql.end();
  }
}

if (CLUSTER) {
  log(`\n[cluster] the 10k dataset on a private primary with a streaming standby and PgBouncer 1.18 (transaction mode) (load average ${loadavg()[0]!.toFixed(2)})`);
  const cluster = await measureCluster();
  log('  GET /api/v1/responses?formId=<random form>: the primary directly, through PgBouncer, through the replica');
  clusterTable(cluster.listings);
  log('  public submissions (JSON API start + update + finish; req/s = submissions/s): directly, through PgBouncer');
  clusterTable(cluster.writes);
  const [primaryListing, pooledListing, replicaListing] = cluster.listings as [Measurement, Measurement, Measurement];
  const [directWrites, pooledWrites] = cluster.writes as [Measurement, Measurement];
  const ratio = (r: Measurement, base: Measurement) => `${fmt(r.rps, 0)}/s, ${fmt(r.rps / base.rps, 2)} × ${base.name} (${fmt(base.rps, 0)}/s)`;
  targetRows.push({ target: '[cluster] listing through the replica', value: ratio(replicaListing, primaryListing) });
  targetRows.push({ target: '[cluster] listing through PgBouncer', value: ratio(pooledListing, primaryListing) });
  targetRows.push({ target: '[cluster] submissions through PgBouncer', value: ratio(pooledWrites, directWrites) });
  const dbCpu = (m: Measurement, server: 'primary' | 'standby' | 'PgBouncer') => m.perRequest![`${server} µs`]!;
  targetRows.push({
    target: '[cluster] database CPU per request (primary / replica)',
    value: `listing ${fmt(dbCpu(primaryListing, 'primary'), 0)} µs on the primary, through the replica ${fmt(dbCpu(replicaListing, 'primary'), 0)} / ${fmt(dbCpu(replicaListing, 'standby'), 0)} µs; submission ${fmt(dbCpu(directWrites, 'primary'), 0)} µs, through PgBouncer ${fmt(dbCpu(pooledWrites, 'primary'), 0)} µs + PgBouncer ${fmt(dbCpu(pooledWrites, 'PgBouncer'), 0)} µs`,
  });
}

// ---------------------------------------------------------------- the one table

const by = (label: string, name: string) => results.get(label)?.find((r) => r.name === name);
// The listing ratios on the largest dataset measured.
const largest = [...DATASETS].reverse().find((d) => results.has(d.label))?.label;
const [base, rest, gql, persisted] = largest ? ['baseline', 'REST', 'GraphQL', 'GraphQL persisted'].map((name) => by(largest, name)) : [];
if (largest && base && rest && gql) {
  targetRows.push({
    target: `[${largest}] REST listing req/s ≥ 0.9 × baseline`,
    value: `${fmt(rest.rps / base.rps, 2)} × (${fmt(rest.rps, 0)} vs ${fmt(base.rps, 0)})`,
    met: rest.rps >= 0.9 * base.rps,
  });
  targetRows.push({
    target: `[${largest}] REST listing p99 ≤ 1.2 × baseline`,
    value: `${fmt(rest.p99 / base.p99, 2)} × (${fmt(rest.p99)} vs ${fmt(base.p99)} ms)`,
    met: rest.p99 <= 1.2 * base.p99,
  });
  targetRows.push({
    target: `[${largest}] GraphQL listing req/s ≥ 0.6 × baseline`,
    value: `${fmt(gql.rps / base.rps, 2)} × (${fmt(gql.rps, 0)} vs ${fmt(base.rps, 0)})`,
    met: gql.rps >= 0.6 * base.rps,
  });
  targetRows.push({
    target: `[${largest}] server CPU per listing request`,
    value: `baseline ${fmt(base.cpuMicrosPerRequest, 0)} µs, REST ${fmt(rest.cpuMicrosPerRequest, 0)} µs, GraphQL ${fmt(gql.cpuMicrosPerRequest, 0)} µs`,
  });
}
if (largest && base && gql) {
  targetRows.push({
    target: `[${largest}] GraphQL listing ad hoc req/s ≥ 0.65 × baseline`,
    value: `${fmt(gql.rps / base.rps, 2)} × (${fmt(gql.rps, 0)} vs ${fmt(base.rps, 0)}; CPU ${fmt(gql.cpuMicrosPerRequest, 0)} vs ${fmt(base.cpuMicrosPerRequest, 0)} µs)`,
    met: gql.rps >= 0.65 * base.rps,
  });
}
if (largest && base && persisted) {
  targetRows.push({
    target: `[${largest}] GraphQL listing persisted req/s ≥ 0.85 × baseline`,
    value: `${fmt(persisted.rps / base.rps, 2)} × (${fmt(persisted.rps, 0)} vs ${fmt(base.rps, 0)}; CPU ${fmt(persisted.cpuMicrosPerRequest, 0)} vs ${fmt(base.cpuMicrosPerRequest, 0)} µs)`,
    met: persisted.rps >= 0.85 * base.rps,
  });
}
for (const label of ['1m', '10m'] as const) {
  const [l, s] = [by(label, 'REST'), by('10k', 'REST')];
  if (l && s)
    targetRows.push({
      target: `REST listing p50 at ${label} within 1.2 × of 10k`,
      value: `${fmt(l.p50 / s.p50, 2)} × (${fmt(l.p50)} vs ${fmt(s.p50)} ms; p99 ${fmt(l.p99 / s.p99, 2)} ×)`,
      met: l.p50 <= 1.2 * s.p50,
    });
}
if (submissions) {
  const [base, api, page] = ['baseline', 'JSON API', 'page POST'].map((name) => submissions.measured.find((m) => m.name === name)!);
  targetRows.push({
    target: 'submissions (JSON API) ≥ 0.6 × baseline',
    value: `${fmt(api!.rps / base!.rps, 2)} × (${fmt(api!.rps, 0)} vs ${fmt(base!.rps, 0)}/s)`,
    met: api!.rps >= 0.6 * base!.rps,
  });
  targetRows.push({ target: 'submissions (JSON API) ≥ 1,000/s, 10 connections', value: `${fmt(api!.rps, 0)}/s, p99 ${fmt(api!.p99)} ms`, met: api!.rps >= 1000 });
  targetRows.push({ target: 'submissions (page POST)', value: `${fmt(page!.rps, 0)}/s, p99 ${fmt(page!.p99)} ms (${fmt(page!.rps / base!.rps, 2)} × baseline)` });
  const c = submissions.counts;
  targetRows.push({
    target: 'statements / round trips per submission',
    value: `start ${fmt(c.start.statements, 0)}/${fmt(c.start.roundTrips, 0)}, update ${fmt(c.update.statements, 0)}/${fmt(c.update.roundTrips, 0)}, finish ${fmt(c.finish.statements, 0)}/${fmt(c.finish.roundTrips, 0)}`,
  });
}
if (generated) {
  const g = generated;
  const pct = (ms: number) => `${fmt((100 * ms) / g.phases.request, 0)} %`;
  targetRows.push({
    target: 'generate (5 steps)',
    value: `${fmt(g.measured.rps, 0)} req/s, p99 ${fmt(g.measured.p99)} ms; validation ${pct(g.phases.validation)}, theme ${pct(g.phases.theme)}, insert ${pct(g.phases.insert)}`,
  });
}
if (logic) {
  const { value, met } = describeLogic(logic);
  targetRows.push({ target: `rule evaluation ≤ 10 % of a submission's server CPU (${RULES_PER_STEP} rules × ${LOGIC_STEPS} steps)`, value, met });
}
if (notifications) {
  targetRows.push({
    target: 'submissions with e-mail notifications on, beside off',
    value: `${fmt(notifications.on.rps, 0)} beside ${fmt(notifications.off.rps, 0)} submissions/s (${fmt(notifications.on.rps / notifications.off.rps, 2)}×), ${fmt(notifications.on.cpuMicros, 0)} beside ${fmt(notifications.off.cpuMicros, 0)} µs server CPU`,
  });
}
if (variables)
  targetRows.push({ target: `a submission with 20 calculations and 10 recalled texts (${LOGIC_STEPS} steps), beside one without`, value: describeVariables(variables) });
if (surveyPage) targetRows.push({ target: 'survey page GET /s/<id> (7 survey questions, form limits set)', value: describeSurveyPage(surveyPage) });
for (const [label, m] of streams) {
  const perSecond = m.rows / m.seconds;
  const isListing = label.endsWith('stream');
  targetRows.push({
    target: `[${label.split(' ')[0]}] ${isListing ? 'whole-environment stream' : label.split(' ').slice(1).join(' ')} ≥ 50,000 responses/s, < 100 MB growth`,
    value: `${fmt(perSecond, 0)}/s, ${fmt(m.growthMb)} MB${m.complete ? '' : ', INCOMPLETE'}`,
    met: perSecond >= 50_000 && m.growthMb < 100 && m.complete,
  });
}
if (twoTenants)
  targetRows.push({ target: "[1m] another tenant's one-row request never waits > 1 s", value: `max ${fmt(twoTenants.loaded.max)} ms`, met: twoTenants.loaded.max <= 1000 });

// The embedded default's figures (PGlite under respondent load, start-up, idle RSS): bench/embedded.ts.
if (env.BENCH_SKIP_EMBEDDED !== '1') {
  const { embeddedBench } = await import('./embedded.ts');
  for (const row of await embeddedBench()) targetRows.push({ target: `embedded: ${row.target} (goal ${row.goal})`, value: row.value, met: row.met });
}

if (hostSpeedAtStart && DATASETS[0]) {
  const atEnd = await measureHostSpeed(DATASETS[0].url);
  const speed = (s: HostSpeed) => `${fmt(s.jsMicros, 2)} / ${fmt(s.pgMicros, 2)} µs`;
  targetRows.push({ target: 'host speed: answer compaction / PostgreSQL data::text a row', value: `start ${speed(hostSpeedAtStart)}, end ${speed(atEnd)} (lower is faster)` });
}

log(
  `\nTargets — load average at the end: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
const width = Math.max(...targetRows.map((r) => r.target.length));
for (const row of targetRows) log(`  ${row.target.padEnd(width)}  ${verdict(row.met).padEnd(8)}  ${row.value}`);

if (PROFILE) {
  for (const dataset of DATASETS) {
    const servers = [
      ['REST', ''],
      ['GraphQL', '-graphql'],
      ['GraphQL persisted', '-graphql-persisted'],
      ['JSON API submissions', '-submissions'],
      ['stream', '-stream'],
      ['CSV export', '-csv-export'],
      ['NDJSON export', '-ndjson-export'],
    ] as const;
    for (const [server, suffix] of servers) {
      const dir = `${PROFILE_DIR}${dataset.label}${suffix}/`;
      if (!existsSync(dir)) continue; // not measured in this run
      // The first profile is the main thread; the others are tsx's loader worker (idle).
      for (const file of readdirSync(dir)
        .filter((f) => f.endsWith('.cpuprofile'))
        .sort()
        .slice(0, 1)) {
        log(`\n[${dataset.label}] CPU profile of the ${server} server under load (${dir}${file}):`);
        log(summarizeCpuProfile(`${dir}${file}`));
      }
    }
  }
}
