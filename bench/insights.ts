/**
 * `npx tsx bench/insights.ts`: what insights cost.
 *
 * 1. A view next to a submission, in process (`app.request`, every edge limit on but the rate limits):
 *    BENCH_INSIGHTS_OPS (default 500) views (`POST /s/<id>/views`) and as many one-post submissions
 *    (`POST /s/<id>/responses` answering the form's three steps, finished), one at a time: statements
 *    and time per request (median, p90).
 * 2. Insights over a form with BENCH_INSIGHTS_RESPONSES (default 1,000,000) responses and 2.5 times as
 *    many views: the counter rows those responses and views leave, built with generate_series (started
 *    evenly over a year, 45 segments: 3 devices × 5 referrers × 3 `utm_source` values; 70 % reach step
 *    2, 45 % finish, times to complete from 30 s to 15 min). Seeded as the migrations backfill: the hour
 *    rows inserted with the rollup triggers off, their day rows summed after, then the month rows summed
 *    from the day rows (the month migration's statement, timed and reported), then the slices from the
 *    day rows and their months (the slice migration's statements, timed). Then `readInsights` timed
 *    (median and slowest of BENCH_INSIGHTS_ROUNDS, default 20) for all time, the last 30 days, a device
 *    filter, a hidden-field filter and a monthly series in Europe/Berlin: statements, the counter rows
 *    each source gives (`countersRead`: the slice's month and day rows, the breakdowns', the series',
 *    the exact times', the moved hours') and time.
 *
 * DATABASE_URL set: a scratch database `formloom_bench_insights` on that server (created, dropped;
 * BENCH_KEEP=1 keeps it); ANALYZEd after the seed. Unset: an in-memory PGlite.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import { pino } from 'pino';
import postgres from 'postgres';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { createEnvironment } from '../src/environments/environments.service.ts';
import { generateFormInputSchema } from '../src/forms/components.ts';
import { generateForm, importForm, type Form } from '../src/forms/forms.service.ts';
import { stepKey } from '../src/forms/logic.ts';
import { themeSchema } from '../src/forms/theme.ts';
import { countersRead, parseInsightsArguments, readInsights, type InsightsArguments } from '../src/insights/insights.service.ts';

const env = process.env;
const OPS = Number(env.BENCH_INSIGHTS_OPS ?? 500);
const RESPONSES = Number(env.BENCH_INSIGHTS_RESPONSES ?? 1_000_000);
const ROUNDS = Number(env.BENCH_INSIGHTS_ROUNDS ?? 20);

const statements = { count: 0 };
const counting: Logger = { logQuery: () => void statements.count++ };

async function openScratch(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (!env.DATABASE_URL) {
    const handle = await openDatabase({ logger: counting });
    await handle.migrate();
    return { handle, drop: () => handle.close() };
  }
  const admin = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
  const name = 'formloom_bench_insights';
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), maxConnections: 4, logger: counting });
  await handle.migrate();
  const drop = async () => {
    await handle.close();
    if (env.BENCH_KEEP !== '1') await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
  return { handle, drop };
}

async function benchForm(handle: DatabaseHandle, name: string): Promise<Form> {
  const environment = await createEnvironment(handle.db, { name: `Bench ${name}` });
  const template = await importForm(handle.db, {
    environmentId: environment.id,
    name: 'Template',
    theme: themeSchema.parse({}),
    steps: [{ name: 'A', components: [{ id: 't1', type: 'ShortInput', content: { question: 'Q?' } }] }] as never,
  });
  const steps = ['Company', 'Role', 'Team'].map((step) => ({
    name: step,
    components: [{ type: 'ShortInput', content: { question: `${step}?` } }],
  }));
  return generateForm(handle.db, environment.id, generateFormInputSchema.parse({ sourceFormId: template.id, name, hiddenFields: ['utm_source'], steps }));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p90 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)]!;
const ms = (value: number) => `${value.toFixed(2)} ms`;

/** Times `send` OPS times, one at a time: statements per request and its time. */
async function perRequest(label: string, send: (i: number) => Response | Promise<Response>, expected: number) {
  const times: number[] = [];
  const before = statements.count;
  for (let i = 0; i < OPS; i++) {
    const started = performance.now();
    const response = await send(i);
    times.push(performance.now() - started);
    if (response.status !== expected) throw new Error(`${label}: ${response.status} ${await response.text()}`);
  }
  console.log(`${label}: ${((statements.count - before) / OPS).toFixed(1)} statements; median ${ms(median(times))}, p90 ${ms(p90(times))} (${OPS} one at a time)`);
}

async function viewAndSubmission(handle: DatabaseHandle) {
  const config = {
    ...loadConfig({}),
    apiRateLimitPerMinute: 0,
    publicRateLimitPerMinute: 0,
    pageRateLimitPerMinute: 0,
  };
  const app = createApp({
    config,
    db: handle.db,
    logger: pino({ level: 'silent' }),
    adminToken: 'bench-admin-token-0123456789',
  });
  const form = await benchForm(handle, 'Views and submissions');
  const ids = form.steps.map((step) => step.components[0]!.id);
  const post = (path: string, body: unknown) =>
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' },
      body: JSON.stringify(body),
    });
  for (let i = 0; i < 20; i++) await post(`/s/${form.id}/views`, {});
  await perRequest('a view (POST /s/<id>/views)', () => post(`/s/${form.id}/views`, { hiddenFields: { utm_source: 'ad' } }), 202);
  const answers = Object.fromEntries(ids.map((id, i) => [id, `answer ${i}`]));
  await perRequest(
    'a one-post submission (POST /s/<id>/responses, finished)',
    () => post(`/s/${form.id}/responses`, { answers, hiddenFields: { utm_source: 'ad' }, finished: true }),
    201,
  );
}

/** The counter rows RESPONSES responses and 2.5 × as many views leave (see the module comment). */
async function seedCounters(handle: DatabaseHandle, form: Form) {
  const [k1, k2, k3] = form.steps.map((step, index) => stepKey(step, index));
  const segment = sql`'s' || seg, (array['desktop','mobile','tablet'])[seg % 3 + 1], 'en',
    (array['','www.google.com','news.example','partner.example','mail.example'])[seg / 3 % 5 + 1],
    jsonb_build_object('utm_source', (array['ad','mail','social'])[seg / 15 % 3 + 1])`;
  const spread = (count: number) => sql`date_trunc('hour', now() - interval '365 days' + i * (interval '365 days' / ${count}))`;
  // Seeded as the migrations backfill: hour rows without the rollup triggers, their day sums, then the
  // month sums of those day rows (the month migration's statement, timed).
  await handle.db.execute(sql`alter table form_insight_counts disable trigger user`);
  await handle.db.execute(sql`
    insert into form_insight_counts (form_id, environment_id, hour, segment, device, language, referrer, hidden, metric, count)
    select ${form.id}, ${form.environmentId}, hour, ${segment}, metric, count(*)
    from (
      select ${spread(RESPONSES)} as hour, (hashint4(i) & 2147483647) % 45 as seg, (hashint4(i * 7 + 1) & 2147483647) % 100 as r, (hashint4(i * 13 + 5) & 2147483647) % 871 as t
      from generate_series(1, ${RESPONSES}) i
    ) x cross join lateral unnest(array_remove(array[
      'starts', ${`reached:${k1}`}::text,
      case when r < 30 then ${`left:${k1}`}::text end,
      case when r >= 30 then ${`reached:${k2}`}::text end,
      case when r >= 30 and r < 55 then ${`left:${k2}`}::text end,
      case when r >= 55 then ${`reached:${k3}`}::text end,
      case when r >= 55 then 'finishes' end,
      case when r >= 55 then 'ttc:' || (30 + t) end
    ], null)) m(metric)
    group by hour, seg, metric`);
  const views = Math.round(RESPONSES * 2.5);
  await handle.db.execute(sql`
    insert into form_insight_counts (form_id, environment_id, hour, segment, device, language, referrer, hidden, metric, count)
    select ${form.id}, ${form.environmentId}, hour, ${segment}, 'views', count(*)
    from (select ${spread(views)} as hour, (hashint4(i + 3) & 2147483647) % 45 as seg from generate_series(1, ${views}) i) x
    group by hour, seg`);
  await handle.db.execute(sql`
    insert into form_insight_days (form_id, environment_id, day, segment, device, language, referrer, hidden, metric, count)
    select form_id, min(environment_id), date_trunc('day', hour, 'UTC'), segment, min(device), min(language), min(referrer),
      (array_agg(hidden))[1], metric, sum(count)::integer
    from form_insight_counts where form_id = ${form.id} group by form_id, date_trunc('day', hour, 'UTC'), segment, metric`);
  const started = performance.now();
  await handle.db.execute(sql`
    insert into form_insight_months (form_id, environment_id, month, segment, device, language, referrer, hidden, metric, count)
    select form_id, min(environment_id), date_trunc('month', day, 'UTC'), segment, min(device), min(language), min(referrer),
      (array_agg(hidden))[1], metric, sum(count)::integer
    from form_insight_days where form_id = ${form.id} group by form_id, date_trunc('month', day, 'UTC'), segment, metric having sum(count) <> 0`);
  const backfill = (performance.now() - started) / 1000;
  // The slices, as their migration backfills them: from the day rows, then their months.
  const slicing = performance.now();
  await handle.db.execute(sql`
    with sliced as (
      select d.form_id, min(d.environment_id) as environment_id, d.day, s.kind, s.value, m.metric, sum(d.count) as n
      from form_insight_days d
      cross join lateral (
        select 'all', '' union all select 'device', d.device union all select 'language', d.language
        union all select 'hidden:' || h.key, h.value from jsonb_each_text(d.hidden) as h(key, value)
      ) as s(kind, value)
      cross join lateral (
        select d.metric union all select 'ttcb:' || form_insight_time_bucket(substr(d.metric, 5)::bigint) where d.metric like 'ttc:%'
      ) as m(metric)
      where d.form_id = ${form.id}
      group by d.form_id, d.day, s.kind, s.value, m.metric
    )
    insert into form_insight_slice_days (form_id, environment_id, kind, value, metric, count, day)
    select form_id, environment_id, kind, value, metric, n::integer, day from sliced where n <> 0
    order by form_id, kind, value, metric, day`);
  await handle.db.execute(sql`
    insert into form_insight_slice_months (form_id, environment_id, kind, value, metric, count, month)
    select form_id, min(environment_id), kind, value, metric, sum(count)::integer, date_trunc('month', day, 'UTC')
    from form_insight_slice_days where form_id = ${form.id}
    group by form_id, kind, value, metric, date_trunc('month', day, 'UTC') having sum(count) <> 0
    order by form_id, kind, value, metric, 7`);
  const slices = (performance.now() - slicing) / 1000;
  await handle.db.execute(sql`alter table form_insight_counts enable trigger user`);
  if (handle.kind === 'postgres') {
    await handle.db.execute(sql`analyze form_insight_counts, form_insight_days, form_insight_months, form_insight_slice_days, form_insight_slice_months`);
  }
  return { backfill, slices };
}

async function insightsAtScale(handle: DatabaseHandle) {
  const form = await benchForm(handle, 'A million responses');
  console.log(`seeding the counters of ${RESPONSES.toLocaleString('en')} responses and ${(RESPONSES * 2.5).toLocaleString('en')} views …`);
  const seeded = performance.now();
  const { backfill, slices } = await seedCounters(handle, form);
  const rowsIn = async (table: string) =>
    rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where form_id = ${form.id}`))[0]!.n.toLocaleString('en');
  console.log(
    `seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s: ${await rowsIn('form_insight_counts')} hour rows, ${await rowsIn('form_insight_days')} day rows, ` +
      `${await rowsIn('form_insight_months')} month rows (summed from the day rows in ${backfill.toFixed(2)} s), ` +
      `${await rowsIn('form_insight_slice_days')} slice day rows and ${await rowsIn('form_insight_slice_months')} slice month rows (backfilled in ${slices.toFixed(2)} s)`,
  );
  const month = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const cases: [string, InsightsArguments][] = [
    ['all time, by day', {}],
    ['the last 30 days, by day', { since: month }],
    ['all time, device = mobile', { device: 'mobile' }],
    ['all time, hidden.utm_source = ad', { hidden: [{ name: 'utm_source', value: 'ad' }] }],
    ['all time, by month in Europe/Berlin', { groupBy: 'month', timeZone: 'Europe/Berlin' }],
  ];
  for (const [label, args] of cases) {
    const parsed = parseInsightsArguments(args, (name) => [name]);
    if ('errors' in parsed) throw new Error(JSON.stringify(parsed.errors));
    const times: number[] = [];
    let perRead = 0;
    let figures = '';
    for (let round = 0; round < ROUNDS; round++) {
      const before = statements.count;
      const started = performance.now();
      const insights = await readInsights(handle.db, { formId: form.id, steps: form.steps }, parsed.query);
      times.push(performance.now() - started);
      perRead = statements.count - before;
      figures = `views ${insights.views}, starts ${insights.starts}, finishes ${insights.finishes}, median ${insights.timeToComplete?.median} s, ${insights.series.length} periods`;
    }
    const read = Object.entries(await countersRead(handle.db, { formId: form.id, steps: form.steps }, parsed.query))
      .map(([level, n]) => `${n.toLocaleString('en')} ${level}`)
      .join(', ');
    console.log(`insights, ${label}: ${perRead} statement(s), rows read: ${read}; median ${ms(median(times))}, slowest ${ms(Math.max(...times))} (${figures})`);
  }
}

const { handle, drop } = await openScratch();
try {
  console.log(`database: ${handle.kind}`);
  await viewAndSubmission(handle);
  await insightsAtScale(handle);
} finally {
  await drop();
}
