/**
 * `npm run bench`: the responses listing at scale.
 *
 * 1. Seeds two PostgreSQL databases with generate_series: 1,000,000 responses over 10,000 forms and
 *    2 environments, and 10,000 responses over 100 forms (the same ~100 responses per form), unless
 *    BENCH_SKIP_SEED=1 and the data is already there.
 * 2. On each, measures GET /api/v1/responses?formId=<random form of environment A> with autocannon
 *    (loopback, bounded duration) through REST, through GraphQL (the same operation the REST adapter
 *    runs, POSTed to /graphql) and through a minimal baseline (bench/baseline.ts: node:http +
 *    postgres.js, the same SQL, the same JSON). Servers run in child processes.
 * 3. Streams the whole of environment A (returnPartials=true, ~500,000 responses at 1M) from a fresh
 *    server and reports time, size and the server's peak RSS growth.
 * 4. At 1M, two tenants: B's one-row request timed while A sends its heaviest allowed GraphQL request.
 * 5. Prints EXPLAIN (ANALYZE, BUFFERS) of both listings at 1M, and the targets met or missed.
 * Every edge limit is on in the app's servers (bench/server.ts).
 *
 * Environment: DATABASE_URL (the 1M database; the 10k one is `<name>_10k` on the same server;
 * default postgres://postgres@127.0.0.1:5432/formloom_bench), BENCH_SKIP_SEED=1, BENCH_DURATION
 * (seconds per measurement, default 10), BENCH_ROUNDS (turns each target takes, default 2; medians
 * are reported), BENCH_CONNECTIONS (default 10), BENCH_ONLY=1m|10k,
 * BENCH_SKIP_STREAM=1, BENCH_SKIP_EXPORT=1 (skip the CSV and NDJSON exports of environment A), BENCH_CPU_PROF=1 (profile the REST and GraphQL servers under load; .cpuprofile files go to
 * BENCH_PROFILE_DIR, default <tmp>/formloom-bench-profiles, and a summary is printed).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon, { type Request as AutocannonRequest, type Result } from 'autocannon';
import { print } from 'graphql';
import postgres, { type Sql } from 'postgres';
import { createApiKey } from '../src/auth/auth.service.ts';
import { openDatabase } from '../src/db/client.ts';
import { FormResponsesPageDocument } from '../src/graphql/generated/graphql.ts';
import { summarizeCpuProfile } from './profile.ts';
import { BENCH_ENVIRONMENTS, countSeed, seed, type SeedSize } from './seed.ts';

const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 10);
const WARMUP = Math.min(3, DURATION);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 2);
const SKIP_SEED = env.BENCH_SKIP_SEED === '1';
const PROFILE = env.BENCH_CPU_PROF === '1';
const PROFILE_DIR = `${env.BENCH_PROFILE_DIR ?? join(tmpdir(), 'formloom-bench-profiles')}/`;
const ADMIN_TOKEN = 'bench-admin-token-0123456789';

const largeUrl = env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/formloom_bench';
const smallUrl = (() => {
  const url = new URL(largeUrl);
  url.pathname = `${url.pathname.replace(/^\//, '') || 'postgres'}_10k`;
  return url.toString();
})();

interface Dataset {
  label: '1m' | '10k';
  url: string;
  size: SeedSize;
}
const DATASETS: Dataset[] = [
  { label: '10k', url: smallUrl, size: { forms: 100, responses: 10_000, leads: 2_000 } },
  { label: '1m', url: largeUrl, size: { forms: 10_000, responses: 1_000_000, leads: 100_000 } },
].filter((d) => !env.BENCH_ONLY || env.BENCH_ONLY === d.label) as Dataset[];

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
    const seeded = counts.forms === dataset.size.forms && counts.environmentA > 0;
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
const RUNTIME_FLAGS = ['--max-semi-space-size=4'];

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

const startApp = (url: string, execArgv: string[] = []) =>
  startChild('./server.ts', { BENCH_DATABASE_URL: url, BENCH_ADMIN_TOKEN: ADMIN_TOKEN }, execArgv);
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
}

function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/** utime + stime of a process, in microseconds. */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / 100; // USER_HZ is 100 on Linux
}

interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

async function load(name: string, server: Child, makeRequest: () => LoadRequest): Promise<Measurement> {
  const options = (duration: number) => ({
    url: `http://127.0.0.1:${server.port}`,
    connections: CONNECTIONS,
    duration,
    requests: [{ setupRequest: (request: AutocannonRequest) => ({ ...request, ...makeRequest() }) }],
  });
  await autocannon(options(WARMUP));
  const cpuBefore = cpuMicros(server.process.pid!);
  const result: Result = await autocannon(options(DURATION));
  const cpu = cpuMicros(server.process.pid!) - cpuBefore;
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    cpuMicrosPerRequest: cpu / Math.max(result.requests.total, 1),
  };
}

const graphqlQuery = print(FormResponsesPageDocument);

async function measureListing(dataset: Dataset, apiKey: string, formIds: string[]): Promise<Measurement[]> {
  await checkAgreement(dataset, apiKey, formIds[0]!);
  // One server process per target, all started up front; they are idle while another is measured.
  // The targets take turns, ROUNDS times, so drifting load on the machine hits them alike.
  const baseline = await startBaseline(dataset.url);
  const rest = await startApp(dataset.url, PROFILE ? ['--cpu-prof', '--cpu-prof-dir', `${PROFILE_DIR}${dataset.label}`] : []);
  const graphql = await startApp(dataset.url, PROFILE ? ['--cpu-prof', '--cpu-prof-dir', `${PROFILE_DIR}${dataset.label}-graphql`] : []);
  const targets: [string, Child, () => LoadRequest][] = [
    ['baseline', baseline, () => ({ method: 'GET', path: `/api/v1/responses?formId=${pick(formIds)}`, headers: {} })],
    ['REST', rest, () => ({ method: 'GET', path: `/api/v1/responses?formId=${pick(formIds)}`, headers: { 'x-api-key': apiKey } })],
    [
      'GraphQL',
      graphql,
      () => ({
        method: 'POST',
        path: '/graphql',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ query: graphqlQuery, variables: { formId: pick(formIds) } }),
      }),
    ],
  ];
  try {
    const rounds: Measurement[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const measured: Measurement[] = [];
      for (const [name, server, makeRequest] of targets) measured.push(await load(name, server, makeRequest));
      rounds.push(measured);
    }
    return targets.map(([name]) => combine(rounds.map((round) => round.find((m) => m.name === name)!)));
  } finally {
    await Promise.all([baseline.stop(), rest.stop(), graphql.stop()]);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Rounds of one target: median throughput, latencies and CPU; errors summed. */
function combine(rounds: Measurement[]): Measurement {
  return {
    name: rounds[0]!.name,
    rps: median(rounds.map((r) => r.rps)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    cpuMicrosPerRequest: median(rounds.map((r) => r.cpuMicrosPerRequest)),
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
    if (!isDeepStrictEqual(gqlIds, restBody.data.map((n) => n.id))) throw new Error('GraphQL and REST disagree');
    log(`[${dataset.label}] REST, GraphQL and baseline agree (${rest.text.length.toLocaleString('en')} bytes for 10 responses)`);
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

async function measureStream(dataset: Dataset, apiKey: string, target: StreamTarget = LISTING_STREAM) {
  const app = await startApp(dataset.url);
  try {
    const pid = app.process.pid!;
    // Warm the path (first requests compile code, fill pools), then take the resting RSS.
    for (let i = 0; i < 3; i++) await fetchText(app.port, '/api/v1/responses?limit=100', { headers: { 'x-api-key': apiKey } });
    await new Promise((r) => setTimeout(r, 500));
    const before = rssKb(pid);
    let peak = before;
    const samples: number[] = [];
    const sampler = setInterval(() => {
      const rss = rssKb(pid);
      samples.push(rss);
      peak = Math.max(peak, rss);
    }, 50);
    const started = performance.now();
    const { bytes, rows, tail } = await new Promise<{ bytes: number; rows: number; tail: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: app.port, path: target.path, headers: { 'x-api-key': apiKey } },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`stream answered ${res.statusCode}`));
          let bytes = 0;
          let rows = 0;
          let carry = '';
          const marker = target.marker;
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            bytes += Buffer.byteLength(chunk);
            const text = carry + chunk;
            for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) rows++;
            carry = text.slice(-(marker.length - 1));
          });
          res.on('end', () => resolve({ bytes, rows, tail: carry }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssKb(pid));
    // RSS at each tenth of the stream: flat memory plateaus early instead of climbing with the rows.
    const tenths = Array.from({ length: 10 }, (_, i) => (samples[Math.min(samples.length - 1, Math.floor(((i + 1) * samples.length) / 10) - 1)] ?? before) / 1024);
    return { seconds, bytes, rows, complete: tail.endsWith(target.completeWith), beforeMb: before / 1024, peakMb: peak / 1024, growthMb: (peak - before) / 1024, tenths };
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

// ---------------------------------------------------------------- main

function table(results: Measurement[]) {
  const base = results.find((r) => r.name === 'baseline')!;
  log(`  ${'target'.padEnd(9)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'req/s ÷ base'.padStart(13)} ${'p99 ÷ base'.padStart(11)} ${'server CPU/req'.padStart(15)} errors`);
  for (const r of results) {
    log(
      `  ${r.name.padEnd(9)} ${fmt(r.rps, 0).padStart(9)} ${fmt(r.p50).padStart(7)} ${fmt(r.p99).padStart(7)} ${fmt(r.rps / base.rps, 2).padStart(13)} ${fmt(r.p99 / Math.max(base.p99, 1), 2).padStart(11)} ${`${fmt(r.cpuMicrosPerRequest, 0)} µs`.padStart(15)} ${r.errors}`,
    );
  }
}

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

log(`formloom bench — ${CONNECTIONS} connections, ${DURATION} s per measurement (after ${WARMUP} s warm-up), ${ROUNDS} rounds (medians), loopback`);
log(`1M database: ${largeUrl.replace(/\/\/[^@]*@/, '//')}   10k database: ${smallUrl.replace(/\/\/[^@]*@/, '//')}`);
if (PROFILE) {
  log('BENCH_CPU_PROF=1: the REST server runs under the V8 profiler, which slows it; use these figures for attribution only');
  rmSync(PROFILE_DIR, { recursive: true, force: true });
  mkdirSync(PROFILE_DIR, { recursive: true });
}

const results = new Map<string, Measurement[]>();
let stream: Awaited<ReturnType<typeof measureStream>> | undefined;
const exports = new Map<string, Awaited<ReturnType<typeof measureStream>>>();
let twoTenants: Awaited<ReturnType<typeof measureTwoTenants>> | undefined;
for (const dataset of DATASETS) {
  const { apiKey, formIds } = await prepare(dataset);
  const measured = await measureListing(dataset, apiKey, formIds);
  results.set(dataset.label, measured);
  log(`\n[${dataset.label}] GET /api/v1/responses?formId=<random form>`);
  table(measured);
  if (dataset.label === '1m') {
    log(`\n[1m] two tenants: B's one-row GET /api/v1/responses while A sends its heaviest allowed GraphQL request (5 × 95 responses with data), ${CONNECTIONS} at once`);
    const tenants = await measureTwoTenants(dataset, apiKey, formIds);
    const row = (label: string, m: typeof tenants.idle) => `  ${label.padEnd(16)} ${m.count} requests, p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms, max ${fmt(m.max)} ms`;
    log(row('B, A idle:', tenants.idle));
    log(row('B, A loading:', tenants.loaded));
    log(`  A: ${fmt(tenants.heavyRps, 0)} heavy requests/s, ${tenants.heavyErrors} errors`);
    twoTenants = tenants;
    const summaries = await measureSummaries(dataset, apiKey, formIds);
    log(`\n[1m] Form.summary over GraphQL (counts, step reach, per-option counts), one at a time: ${summaries.count} forms, p50 ${fmt(summaries.p50)} ms, p99 ${fmt(summaries.p99)} ms, max ${fmt(summaries.max)} ms`);
    if (env.BENCH_SKIP_STREAM !== '1') {
      log(`\n[1m] streaming GET /api/v1/responses?returnPartials=true (all of environment A)`);
      stream = await measureStream(dataset, apiKey);
      log(
        `  ${stream.rows.toLocaleString('en')} responses, ${fmt(stream.bytes / 1024 / 1024)} MB in ${fmt(stream.seconds)} s (${fmt(stream.rows / stream.seconds, 0)} responses/s); ` +
          `server RSS ${fmt(stream.beforeMb)} MB → peak ${fmt(stream.peakMb)} MB (growth ${fmt(stream.growthMb)} MB); body complete: ${stream.complete}`,
      );
      log(`  server RSS at each tenth of the stream (MB): ${stream.tenths.map((mb) => fmt(mb, 0)).join(' ')}`);
    }
    if (env.BENCH_SKIP_EXPORT !== '1') {
      for (const format of ['csv', 'ndjson'] as const) {
        log(`\n[1m] GET ${EXPORT_STREAMS[format].path} (all of environment A)`);
        const measured = await measureStream(dataset, apiKey, EXPORT_STREAMS[format]);
        exports.set(format, measured);
        log(
          `  ${measured.rows.toLocaleString('en')} responses, ${fmt(measured.bytes / 1024 / 1024)} MB in ${fmt(measured.seconds)} s (${fmt(measured.rows / measured.seconds, 0)} responses/s); ` +
            `server RSS ${fmt(measured.beforeMb)} MB → peak ${fmt(measured.peakMb)} MB (growth ${fmt(measured.growthMb)} MB); body complete: ${measured.complete}`,
        );
        log(`  server RSS at each tenth of the export (MB): ${measured.tenths.map((mb) => fmt(mb, 0)).join(' ')}`);
      }
    }
    const sql = postgres(dataset.url, { max: 1, onnotice: () => {} });
    log(`\n[1m] EXPLAIN (ANALYZE, BUFFERS)`);
    await explainPlans(sql, formIds[1]!);
    await sql.end();
  }
}

log('\nTargets');
const large = results.get('1m');
const small = results.get('10k');
if (large) {
  const [base, rest] = [large.find((r) => r.name === 'baseline')!, large.find((r) => r.name === 'REST')!];
  log(`  REST throughput ≥ 0.7 × baseline: ${fmt(rest.rps / base.rps, 2)} × — ${verdict(rest.rps >= 0.7 * base.rps)}`);
  log(`  REST p99 ≤ 1.5 × baseline: ${fmt(rest.p99 / base.p99, 2)} × — ${verdict(rest.p99 <= 1.5 * base.p99)}`);
}
if (large && small) {
  const [l, s] = [large.find((r) => r.name === 'REST')!, small.find((r) => r.name === 'REST')!];
  log(`  REST latency at 1M within 1.2 × of 10k: p50 ${fmt(l.p50 / s.p50, 2)} ×, p99 ${fmt(l.p99 / s.p99, 2)} × — ${verdict(l.p50 <= 1.2 * s.p50 && l.p99 <= 1.2 * s.p99)}`);
  const [lb, sb] = [large.find((r) => r.name === 'baseline')!, small.find((r) => r.name === 'baseline')!];
  log(`  (baseline 1M ÷ 10k: p50 ${fmt(lb.p50 / sb.p50, 2)} ×, p99 ${fmt(lb.p99 / sb.p99, 2)} ×)`);
}
if (twoTenants) log(`  another tenant's one-row request never waits > 1 s: max ${fmt(twoTenants.loaded.max)} ms — ${verdict(twoTenants.loaded.max <= 1000)}`);
if (stream) log(`  streaming memory growth < 100 MB: ${fmt(stream.growthMb)} MB — ${verdict(stream.growthMb < 100 && stream.complete)}`);
for (const [format, measured] of exports) {
  log(`  ${format} export memory growth < 100 MB: ${fmt(measured.growthMb)} MB — ${verdict(measured.growthMb < 100 && measured.complete)}`);
}

if (PROFILE) {
  for (const dataset of DATASETS) {
    for (const [server, suffix] of [['REST', ''], ['GraphQL', '-graphql']] as const) {
      const dir = `${PROFILE_DIR}${dataset.label}${suffix}/`;
      // The first profile is the main thread; the others are tsx's loader worker (idle).
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort().slice(0, 1)) {
        log(`\n[${dataset.label}] CPU profile of the ${server} server under load (${dir}${file}):`);
        log(summarizeCpuProfile(`${dir}${file}`));
      }
    }
  }
}
