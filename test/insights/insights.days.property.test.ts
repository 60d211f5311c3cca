/**
 * Property: the rollups (`form_insight_days`, `form_insight_months`, and the slices of every segment
 * together and of each filter value, `form_insight_slice_days`, `form_insight_slice_months`, with the
 * times also by bucket; all kept by triggers) always equal the sums of the hour counters, through inserts, upserts of several rows at once, subtractions to zero,
 * moves and deletes; and a read through month rows, day rows, edge hours and the hours moved across a
 * time zone's period boundaries gives what a count over the hour rows alone gives, for any range (open
 * or not), time zone (DST changes, half- and three-quarter-hour offsets), period and filters (none and one:
a slice's rows; two: the segments'), the median and 90th percentile exactly. Counters and range
 * ends are drawn mostly near month boundaries (UTC's and the zones'), where the levels meet, and every
 * run also counts in each hour around each month start.
 */
import { fc, test } from '@fast-check/vitest';
import { sql } from 'drizzle-orm';
import { beforeAll, expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { timeBucketOf } from '../../src/insights/counters.service.ts';
import { parseInsightsArguments, readInsights } from '../../src/insights/insights.service.ts';
import { localDate, periodStart, type Period } from '../../src/insights/time-zones.ts';
import { createTenant, setupTestApp } from '../support/helpers.ts';
import { makeForm } from '../support/public-helpers.ts';

let db: Database;

beforeAll(async () => {
  ({ db } = await setupTestApp());
});

const HOUR = 3_600_000;
/** A hundred days over Europe's and North America's spring DST changes of 2026: three whole UTC months. */
const START = Date.parse('2026-01-25T00:00:00Z');
const HOURS = 24 * 100;
/** The UTC month starts inside the window, as hours from START. */
const MONTHS = ['2026-02-01', '2026-03-01', '2026-04-01', '2026-05-01'].map((day) => (Date.parse(`${day}T00:00:00Z`) - START) / HOUR);
/** Times to complete: 7 s alone in its bucket, 40-43 s in one (40 s), 600 s and 620 s in another (576 s), 1,230 s and 1,250 s in one (1,152 s). */
const TIMES = [7, 40, 41, 43, 600, 620, 1230, 1250];
const METRICS = ['views', 'starts', 'finishes', 'reached:step_1', ...TIMES.map((seconds) => `ttc:${seconds}`)];
const DEVICES = ['desktop', 'mobile', 'tablet'];
const SOURCES = ['ad', 'mail'];

/** An hour of the window: anywhere, or within 16 hours of a UTC month start (every zone's month starts there). */
const hourIndex = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: HOURS - 1 }), weight: 1 },
  { arbitrary: fc.tuple(fc.constantFrom(...MONTHS), fc.integer({ min: -16, max: 15 })).map(([month, offset]) => month + offset), weight: 3 },
);
/** A range end in minutes from START: anywhere, or near a month start on a quarter hour (zones' midnights). */
const instant = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: HOURS * 60 }), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...MONTHS), fc.integer({ min: -26, max: 26 }), fc.constantFrom(0, 0, 15, 30, 45))
      .map(([month, hours, minutes]) => (month + hours) * 60 + minutes),
    weight: 2,
  },
);

const counter = fc.record({
  hour: hourIndex,
  segment: fc.integer({ min: 0, max: DEVICES.length * SOURCES.length - 1 }),
  metric: fc.constantFrom(...METRICS),
  count: fc.integer({ min: 1, max: 5 }),
});
type HourRow = { hour: number; segment: number; metric: string; count: number };

/** Counters in every hour from 14 before to 13 after each month start: where every zone's month edges are. */
const MONTH_EDGES: HourRow[] = MONTHS.flatMap((month) =>
  Array.from({ length: 28 }, (_, i) => ({ hour: month + i - 14, segment: i % 6, metric: i % 2 === 0 ? 'views' : 'finishes', count: 1 })),
);
/** Times in each month and around its start, so the percentiles mostly fall inside a bucket of several times. */
const TIME_ROWS: HourRow[] = MONTHS.flatMap((month, m) =>
  TIMES.slice(1).map((seconds, i) => ({ hour: month + (i % 2 === 0 ? 200 : -3 - i), segment: (i + m) % 6, metric: `ttc:${seconds}`, count: 1 + ((i + m) % 3) })),
);

let formCount = 0;

async function seededForm() {
  const tenant = await createTenant(db);
  const steps = ['One', 'Two'].map((name) => ({ name, components: [{ type: 'ShortInput', content: { question: `${name}?` } }] }));
  return { tenant, form: await makeForm(db, tenant, steps, `Rollups ${++formCount}`) };
}

/** Adds `rows` (one statement: a key at most once) as the counters do. */
function write(ids: { formId: string; environmentId: string }, rows: readonly HourRow[]) {
  const records = rows.map((row) => ({
    hour: new Date(START + row.hour * HOUR).toISOString(),
    segment: `s${row.segment}`,
    device: DEVICES[row.segment % DEVICES.length],
    hidden: { utm_source: SOURCES[Math.floor(row.segment / DEVICES.length)] },
    metric: row.metric,
    count: row.count,
  }));
  return db.execute(sql`insert into form_insight_counts (form_id, environment_id, hour, segment, device, language, referrer, hidden, metric, count)
    select ${ids.formId}, ${ids.environmentId}, d.hour, d.segment, d.device, 'en', '', d.hidden, d.metric, d.count
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as d(hour timestamptz, segment text, device text, hidden jsonb, metric text, count integer)
    order by d.hour, d.segment, d.metric
    on conflict (form_id, hour, segment, metric) do update set count = form_insight_counts.count + excluded.count`);
}

/** Rows summed by key (one statement may not change a row twice). */
function merged(rows: readonly HourRow[]): HourRow[] {
  const byKey = new Map<string, HourRow>();
  for (const row of rows) {
    const key = `${row.hour}|${row.segment}|${row.metric}`;
    const seen = byKey.get(key);
    byKey.set(key, seen ? { ...seen, count: seen.count + row.count } : { ...row });
  }
  return [...byKey.values()];
}

/** The rollup table's rows (`level`: day or month) as `<start>|<segment>|<metric>` → count. */
async function rollupOf(formId: string, level: 'day' | 'month') {
  const table = level === 'day' ? sql`form_insight_days` : sql`form_insight_months`;
  const rows = rowsOf<{ at: string | Date; segment: string; metric: string; count: number }>(
    await db.execute(sql`select ${sql.raw(level)} as at, segment, metric, count from ${table} where form_id = ${formId}`),
  );
  return new Map(rows.map((row) => [`${new Date(row.at).toISOString()}|${row.segment}|${row.metric}`, row.count]));
}

/** The slice rows (`level`: day or month) as `<start>|<kind>|<value>|<metric>` → count. */
async function slicesOf(formId: string, level: 'day' | 'month') {
  const table = level === 'day' ? sql`form_insight_slice_days` : sql`form_insight_slice_months`;
  const rows = rowsOf<{ at: string | Date; kind: string; value: string; metric: string; count: number }>(
    await db.execute(sql`select ${sql.raw(level)} as at, kind, value, metric, count from ${table} where form_id = ${formId}`),
  );
  return new Map(rows.map((row) => [`${new Date(row.at).toISOString()}|${row.kind}|${row.value}|${row.metric}`, row.count]));
}

/** The hour rows summed by UTC day or month into every slice (all, the device, the language, the referrer, the hidden value), times also by bucket. */
function expectedSlices(hours: readonly { at: number; device: string; hidden: { utm_source: string }; metric: string; count: number }[], level: 'day' | 'month') {
  const rows = hours.flatMap((row) =>
    [
      ['all', ''],
      ['device', row.device],
      ['language', 'en'],
      ['referrer', ''],
      ['hidden:utm_source', row.hidden.utm_source],
    ].flatMap(([kind, value]) =>
      [row.metric, ...(row.metric.startsWith('ttc:') ? [`ttcb:${timeBucketOf(Number(row.metric.slice(4)))}`] : [])].map((metric) => ({
        at: row.at,
        segment: `${kind}|${value}`,
        metric,
        count: row.count,
      })),
    ),
  );
  return expectedRollup(rows, level);
}

/** The hour rows summed by UTC day or month, zero sums left out. */
function expectedRollup(hours: readonly { at: number; segment: string; metric: string; count: number }[], level: 'day' | 'month') {
  const sums = new Map<string, number>();
  for (const row of hours) {
    const start = new Date(row.at);
    const at = level === 'day' ? Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()) : Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1);
    const key = `${new Date(at).toISOString()}|${row.segment}|${row.metric}`;
    sums.set(key, (sums.get(key) ?? 0) + row.count);
  }
  return new Map([...sums].filter(([, n]) => n !== 0));
}

test.prop(
  [
    fc.array(counter, { minLength: 1, maxLength: 40 }),
    fc.integer({ min: 0, max: 6 }),
    fc.option(instant, { nil: undefined, freq: 4 }),
    fc.option(instant, { nil: undefined, freq: 4 }),
    fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'),
    fc.constantFrom<Period>('day', 'week', 'month', 'month'),
    fc.constantFrom(undefined, 'mobile'),
    fc.constantFrom(undefined, 'ad'),
  ],
  { numRuns: 30 },
)('rollups equal the hours, and reads through months, days and hours equal a count over hours', async (counters, removals, a, b, timeZone, groupBy, device, source) => {
  const { tenant, form } = await seededForm();
  const ids = { formId: form.id, environmentId: tenant.environmentId };
  // Half one row a statement, the rest in one statement; then some taken off again in one statement (as a
  // deletion does, zeros removed after), one row moved 37 hours (maybe to another month), one deleted.
  const half = Math.ceil(counters.length / 2);
  for (const row of counters.slice(0, half)) await write(ids, [row]);
  await write(ids, merged([...counters.slice(half), ...MONTH_EDGES, ...TIME_ROWS]));
  await write(ids, merged(counters.slice(0, removals).map((row) => ({ ...row, count: -1 }))));
  await db.execute(sql`delete from form_insight_counts where form_id = ${form.id} and count <= 0`);
  await db.execute(sql`update form_insight_counts set hour = hour + interval '37 hours'
    where form_id = ${form.id} and (hour, segment, metric) = (select hour, segment, metric from form_insight_counts where form_id = ${form.id} order by hour desc, segment, metric limit 1)`);
  await db.execute(sql`delete from form_insight_counts
    where form_id = ${form.id} and (hour, segment, metric) = (select hour, segment, metric from form_insight_counts where form_id = ${form.id} order by hour, segment, metric limit 1)`);

  const hours = rowsOf<{ hour: string | Date; segment: string; device: string; hidden: { utm_source: string }; metric: string; count: number }>(
    await db.execute(sql`select hour, segment, device, hidden, metric, count from form_insight_counts where form_id = ${form.id}`),
  ).map((row) => ({ ...row, at: new Date(row.hour).getTime() }));
  expect(await rollupOf(form.id, 'day')).toEqual(expectedRollup(hours, 'day'));
  expect(await rollupOf(form.id, 'month')).toEqual(expectedRollup(hours, 'month'));
  expect(await slicesOf(form.id, 'day')).toEqual(expectedSlices(hours, 'day'));
  expect(await slicesOf(form.id, 'month')).toEqual(expectedSlices(hours, 'month'));

  const [first, second] = a !== undefined && b !== undefined && b < a ? [b, a] : [a, b];
  const since = first === undefined ? undefined : new Date(START + first * 60_000);
  const until = second === undefined ? undefined : new Date(START + (second === first ? second + 60 : second) * 60_000);
  const parsed = parseInsightsArguments(
    { since: since?.toISOString(), until: until?.toISOString(), timeZone, groupBy, device, hidden: source ? [{ name: 'utm_source', value: source }] : [] },
    (name) => [name],
  );
  if ('errors' in parsed) throw new Error(JSON.stringify(parsed.errors));
  const insights = await readInsights(db, { formId: form.id, steps: form.steps }, parsed.query);

  // The same over hour rows alone: an hour counts when it overlaps [since, until), in the period it starts in.
  const inRange = hours.filter(
    (row) =>
      (!device || row.device === device) && (!source || row.hidden.utm_source === source) && (!since || row.at > since.getTime() - HOUR) && (!until || row.at < until.getTime()),
  );
  const total = (metric: string) => inRange.filter((row) => row.metric === metric).reduce((sum, row) => sum + row.count, 0);
  expect([insights.views, insights.starts, insights.finishes, insights.steps[0]!.reached]).toEqual([total('views'), total('starts'), total('finishes'), total('reached:step_1')]);
  const times = TIMES.flatMap((seconds) => Array<number>(total(`ttc:${seconds}`)).fill(seconds));
  expect(insights.timeToComplete).toEqual(times.length === 0 ? null : { median: times[Math.ceil(times.length / 2) - 1], p90: times[Math.ceil(times.length * 0.9) - 1] });
  const periods = new Map<string, { views: number; starts: number; finishes: number }>();
  for (const row of inRange) {
    if (!['views', 'starts', 'finishes'].includes(row.metric)) continue;
    const period = periodStart(localDate(timeZone, row.at), groupBy);
    const counts = periods.get(period) ?? { views: 0, starts: 0, finishes: 0 };
    counts[row.metric as 'views'] += row.count;
    periods.set(period, counts);
  }
  const nonEmpty = insights.series.filter((p) => p.views + p.starts + p.finishes > 0);
  expect(new Map(nonEmpty.map(({ period, ...counts }) => [period, counts]))).toEqual(new Map([...periods].filter(([, c]) => c.views + c.starts + c.finishes > 0)));
  for (const d of insights.devices) {
    const of = (metric: string) => inRange.filter((row) => row.device === d.value && row.metric === metric).reduce((sum, row) => sum + row.count, 0);
    expect([d.value, d.views, d.starts]).toEqual([d.value, of('views'), of('starts')]);
  }
  const sources = insights.hiddenFields.find((field) => field.name === 'utm_source')?.values ?? [];
  for (const value of SOURCES) {
    const of = (metric: string) => inRange.filter((row) => row.hidden.utm_source === value && row.metric === metric).reduce((sum, row) => sum + row.count, 0);
    const shown = sources.find((row) => row.value === value);
    expect([value, shown?.views ?? 0, shown?.finishes ?? 0]).toEqual([value, of('views'), of('finishes')]);
  }
});
