/**
 * `npx tsx bench/survey-summary.ts`: the questions' summary (`Form.summary.questions`) of a form with one
 * question of each survey type (Rating, NPS, OpinionScale, Number, Date, Matrix, Ranking) over
 * BENCH_SUMMARY_ROWS (default 100,000) responses, each answering all seven with random values. Prints the
 * statements the summary ran (on PostgreSQL the summary's and the SET LOCAL that turns JIT compilation off
 * for its transaction) and its time (median and slowest of BENCH_SUMMARY_ROUNDS, default 5).
 *
 * DATABASE_URL set: a scratch database `formloom_bench_survey` on that server (created, dropped); the
 * seeded table is ANALYZEd, as autovacuum would have done. Unset: an in-memory PGlite.
 * BENCH_SUMMARY_EXPLAIN=1: prints the statement's EXPLAIN (ANALYZE, BUFFERS) too.
 * BENCH_SUMMARY_SPREAD=1: the summary's worst case, answers that hardly ever repeat: each Matrix answer picks
 * a column in 11 rows (r0…r10, 177,147 combinations) and each Ranking answer lists 6 labels out of 10, so the
 * 200,000 multi-option answers are nearly all distinct (rows and options outside the form are counted, not
 * listed).
 */
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { createId } from '../src/ids.ts';
import { rowsOf } from '../src/db/rows.ts';
import { questionsStatement, summaryQuestions } from '../src/responses/summary.service.ts';
import { createSurveyForm } from './survey-form.ts';

const env = process.env;
const ROWS = Number(env.BENCH_SUMMARY_ROWS ?? 100_000);
const ROUNDS = Number(env.BENCH_SUMMARY_ROUNDS ?? 5);
const SPREAD = env.BENCH_SUMMARY_SPREAD === '1';

/** Counts the statements drizzle sends (every statement of the app goes through drizzle). */
const statements = { count: 0 };
const counting: Logger = { logQuery: () => void statements.count++ };

async function openScratch(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (!env.DATABASE_URL) {
    const handle = await openDatabase({ logger: counting });
    await handle.migrate();
    return { handle, drop: () => handle.close() };
  }
  const admin = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
  const name = 'formloom_bench_survey';
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), maxConnections: 4, logger: counting });
  await handle.migrate();
  return {
    handle,
    drop: async () => {
      await handle.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

const { handle, drop } = await openScratch();
try {
  const { environmentId, form } = await createSurveyForm(handle.db);
  const [rating, nps, opinion, seats, start, grid, order] = form.steps[0]!.components.map((c) => c.id);
  const leadId = createId();
  await handle.db.execute(sql`insert into leads (id, environment_id) values (${leadId}, ${environmentId})`);

  console.log(`database: ${handle.kind}; seeding ${ROWS.toLocaleString('en')} responses of 7 survey answers each …`);
  const seeded = performance.now();
  const answer = (id: string | undefined, type: string, fields: ReturnType<typeof sql>) =>
    sql`jsonb_build_object('questionId', ${id}::text, 'response', jsonb_build_object('type', ${type}::text, 'componentShapeVersion', '2.0', 'headline', 'Q') || ${fields})`;
  for (let from = 1; from <= ROWS; from += 25_000) {
    const to = Math.min(ROWS, from + 24_999);
    await handle.db.execute(sql`
      insert into responses (id, environment_id, form_id, lead_id, finished, data, ip, country, created_at, updated_at, data_updated_at)
      select 'bench-' || g, ${environmentId}, ${form.id}, ${leadId}, true, jsonb_build_array(
          ${answer(rating, 'Rating', sql`jsonb_build_object('value', 1 + (g * 7) % 5)`)},
          ${answer(nps, 'NPS', sql`jsonb_build_object('value', (g * 13) % 11)`)},
          ${answer(opinion, 'OpinionScale', sql`jsonb_build_object('value', 1 + (g * 3) % 7)`)},
          ${answer(seats, 'Number', sql`jsonb_build_object('value', ((g * 37) % 5000) / 10.0)`)},
          ${answer(start, 'Date', sql`jsonb_build_object('value', to_char(date '2026-01-01' + (g % 365), 'YYYY-MM-DD'))`)},
          ${answer(grid, 'Matrix', SPREAD ? sql`jsonb_build_object('rows', (select jsonb_object_agg('r' || k, (array['Low','Mid','High'])[1 + (g / (3 ^ k)::int) % 3]) from generate_series(0, 10) k))` : sql`jsonb_build_object('rows', jsonb_build_object('Speed', (array['Low','Mid','High'])[1 + g % 3], 'Price', (array['Low','Mid','High'])[1 + (g / 3) % 3]))`)},
          ${answer(order, 'Ranking', SPREAD ? sql`jsonb_build_object('ranking', (select jsonb_agg('o' || ((g / (10 ^ k)::int) % 10)) from generate_series(0, 5) k))` : sql`jsonb_build_object('ranking', (array['["A","B","C","D"]','["B","A","D","C"]','["D","C","B","A"]'])[1 + g % 3]::jsonb)`)}
        )::json, '203.0.113.7', 'DE', now(), now(), now()
      from generate_series(${from}::int, ${to}::int) g`);
  }
  if (handle.kind === 'postgres') await handle.db.execute(sql`analyze responses`);
  console.log(`seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

  const times: number[] = [];
  let perSummary = 0;
  let sample: Awaited<ReturnType<typeof summaryQuestions>>[number] | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const before = statements.count;
    const started = performance.now();
    [sample] = await summaryQuestions(handle.db, [form], {});
    times.push(performance.now() - started);
    perSummary = statements.count - before;
  }
  times.sort((a, b) => a - b);
  console.log(
    `summary of 7 survey questions over ${ROWS.toLocaleString('en')} responses: ${perSummary} statement(s)${handle.kind === 'postgres' ? " (the summary's and its transaction's SET LOCAL jit = off)" : ''}; median ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms, slowest ${times.at(-1)!.toFixed(0)} ms (${ROUNDS} rounds)`,
  );
  if (env.BENCH_SUMMARY_EXPLAIN === '1') {
    // The plan as the database ran it: where the time goes (sorts spilled to disk show as "Disk"). On
    // PostgreSQL as the summary runs it, with JIT compilation off for its transaction (summary.service.ts).
    const explain = sql`explain (analyze, buffers) ${questionsStatement([form], {})}`;
    const explained =
      handle.kind === 'postgres'
        ? await handle.db.transaction(async (tx) => {
            await tx.execute(sql`set local jit = off`);
            return tx.execute(explain);
          })
        : await handle.db.execute(explain);
    for (const line of rowsOf<Record<string, string>>(explained)) console.log(Object.values(line)[0]);
  }
  if (!sample) throw new Error('no summary');
  const nonsense = sample.find((q) => q.answers !== ROWS);
  if (nonsense) throw new Error(`${nonsense.type} counted ${nonsense.answers} answers, not ${ROWS}`);
  const npsSummary = sample.find((q) => q.type === 'NPS');
  console.log(`check: NPS ${JSON.stringify(npsSummary?.promoterScore)}, Number ${JSON.stringify(sample.find((q) => q.type === 'Number')?.numbers)}`);
} finally {
  if (env.BENCH_KEEP !== '1') await drop();
}
