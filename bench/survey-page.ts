/**
 * The respondent's page of a survey: GET /s/<id> of bench/survey-form.ts's form (one question of each
 * survey type) with form limits set (a most of responses, an opening and a closing instant, read by every
 * request) and every edge limit on (bench/server.ts). Autocannon on bench/server.ts in a child process:
 * requests/s, the median, p90 and p99 latency and the server's CPU per request; and the statements one
 * request runs, counted in-process on the app's own client (after a warm-up, so the form's definition is
 * cached as it is on a running server).
 *
 * Part of `npm run bench` (on its smallest dataset). Alone: `npx tsx bench/survey-page.ts` (DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/formloom_logic_bench, created and migrated when missing; BENCH_DURATION,
 * BENCH_ROUNDS, BENCH_CONNECTIONS). Its environment and everything in it are removed afterwards.
 */
import autocannon from 'autocannon';
import { drizzle } from 'drizzle-orm/postgres-js';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import postgres from 'postgres';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/client.ts';
import { instrumentClient } from '../src/db/instrument.ts';
import { environments } from '../src/db/schema.ts';
import * as schema from '../src/db/schema.ts';
import { DatabaseMetrics } from '../src/metrics.ts';
import { preparedBenchDatabase, startBenchServer } from './server-child.ts';
import { createSurveyForm } from './survey-form.ts';

const DAY_MS = 86_400_000;
/** The form's limits: open since yesterday, closing in a year, at most a million finished responses. */
const surveyLimits = () => ({
  maxResponses: 1_000_000,
  opensAt: new Date(Date.now() - DAY_MS).toISOString(),
  closesAt: new Date(Date.now() + 365 * DAY_MS).toISOString(),
});

export interface SurveyPageFigures {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  cpuMicros: number;
  errors: number;
  statements: number;
  bytes: number;
}

/** Statements per GET /s/<id>, in-process on a counting client (the first requests warm the caches). */
async function statementsPerPage(url: string, formId: string, requests = 20): Promise<{ statements: number; bytes: number }> {
  let statements = 0;
  const client = postgres(url, { max: 2, onnotice: () => {}, debug: () => void statements++ });
  const db = drizzle(instrumentClient('postgres', client, new DatabaseMetrics('postgres', 2)), { schema }) as unknown as Db;
  const config = { ...loadConfig({ API_RATE_LIMIT: String(1e9), PUBLIC_RATE_LIMIT: String(1e9), PAGE_RATE_LIMIT: String(1e9) }), databaseUrl: url, logLevel: 'silent' as const };
  const app = createApp({ config, db, logger: pino({ level: 'silent' }), adminToken: 'bench-admin-token-0123456789' });
  try {
    let bytes = 0;
    const get = async () => {
      const response = await app.request(`/s/${formId}`);
      const text = await response.text();
      if (response.status !== 200) throw new Error(`GET /s/${formId} answered ${response.status}: ${text.slice(0, 300)}`);
      bytes = text.length;
    };
    for (let i = 0; i < 3; i++) await get();
    const before = statements;
    for (let i = 0; i < requests; i++) await get();
    return { statements: (statements - before) / requests, bytes };
  } finally {
    await client.end();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function measureSurveyPage(url: string, options: { duration?: number; rounds?: number; connections?: number } = {}): Promise<SurveyPageFigures> {
  const { duration = 10, rounds = 3, connections = 10 } = options;
  const handle = await openDatabase({ databaseUrl: url, maxConnections: 2 });
  const { environmentId, form } = await createSurveyForm(handle.db, { limits: surveyLimits() });
  try {
    const counted = await statementsPerPage(url, form.id);
    const server = await startBenchServer(url);
    try {
      const run = async (seconds: number) => {
        const before = server.cpuMicros();
        const result = await autocannon({ url: `http://127.0.0.1:${server.port}/s/${form.id}`, connections, duration: seconds });
        const total = Math.max(result.requests.total, 1);
        return {
          rps: result.requests.average,
          p50: result.latency.p50,
          p90: result.latency.p90,
          p99: result.latency.p99,
          cpuMicros: (server.cpuMicros() - before) / total,
          errors: result.errors + result.timeouts + result.non2xx,
        };
      };
      await run(Math.min(3, duration));
      const measured: Awaited<ReturnType<typeof run>>[] = [];
      for (let round = 0; round < rounds; round++) measured.push(await run(duration));
      const of = (key: 'rps' | 'p50' | 'p90' | 'p99' | 'cpuMicros') => median(measured.map((m) => m[key]));
      return {
        rps: of('rps'),
        p50: of('p50'),
        p90: of('p90'),
        p99: of('p99'),
        cpuMicros: of('cpuMicros'),
        errors: measured.reduce((sum, m) => sum + m.errors, 0),
        ...counted,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await handle.db.delete(environments).where(eq(environments.id, environmentId));
    await handle.close();
  }
}

/** The figures as the bench prints them. */
export function describeSurveyPage(f: SurveyPageFigures): string {
  return (
    `${f.rps.toFixed(0)} req/s, p50 ${f.p50.toFixed(1)} ms, p90 ${f.p90.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, server CPU ${f.cpuMicros.toFixed(0)} µs/req; ` +
    `${f.statements.toFixed(1)} statements/request; ${(f.bytes / 1024).toFixed(1)} kB of HTML` +
    (f.errors > 0 ? `, ${f.errors} errors` : '')
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = process.env;
  const url = env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/formloom_logic_bench';
  await preparedBenchDatabase(url);
  console.log('GET /s/<id> of a survey form (Rating, NPS, OpinionScale, Number, Date, Matrix, Ranking), form limits set, every edge limit on');
  const figures = await measureSurveyPage(url, {
    duration: Number(env.BENCH_DURATION ?? 10),
    rounds: Number(env.BENCH_ROUNDS ?? 3),
    connections: Number(env.BENCH_CONNECTIONS ?? 10),
  });
  console.log(`  ${describeSurveyPage(figures)}`);
  process.exit(0);
}
