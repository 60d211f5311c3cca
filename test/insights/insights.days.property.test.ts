/**
 * Property: the day rollups (`form_insight_days`, kept by a trigger) always equal the sums of the hour
 * counters, through inserts, upserts, moves and deletes; and a read through day rows, edge hours and
 * the hours moved across a time zone's period boundaries gives what a count over the hour rows alone
 * gives, for any range, time zone (DST changes, a half-hour offset) and period.
 */
import { fc, test } from '@fast-check/vitest';
import { sql } from 'drizzle-orm';
import { beforeAll, expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { parseInsightsArguments, readInsights } from '../../src/insights/insights.service.ts';
import { localDate, periodStart, type Period } from '../../src/insights/time-zones.ts';
import { createTenant, setupTestApp } from '../support/helpers.ts';
import { makeForm } from '../support/public-helpers.ts';

let db: Database;

beforeAll(async () => {
  ({ db } = await setupTestApp());
});

const HOUR = 3_600_000;
/** Ten days around Europe's and North America's spring DST changes of 2026. */
const START = Date.parse('2026-03-05T00:00:00Z');
const HOURS = 24 * 30;
const METRICS = ['views', 'starts', 'finishes', 'reached:step_1', 'ttc:42'];
const DEVICES = ['desktop', 'mobile', 'tablet'];

const counter = fc.record({
  hour: fc.integer({ min: 0, max: HOURS - 1 }),
  device: fc.integer({ min: 0, max: 2 }),
  metric: fc.constantFrom(...METRICS),
  count: fc.integer({ min: 1, max: 5 }),
});

interface HourRow {
  hour: number;
  device: number;
  metric: string;
  count: number;
}

test.prop(
  [
    fc.array(counter, { minLength: 1, maxLength: 40 }),
    fc.integer({ min: 0, max: 4 }),
    fc.option(fc.integer({ min: 0, max: HOURS * 60 }), { nil: undefined }),
    fc.integer({ min: 1, max: HOURS * 60 }),
    fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'),
    fc.constantFrom<Period>('day', 'week', 'month'),
    fc.constantFrom(undefined, 'mobile'),
  ],
  { numRuns: 12 },
)('day rollups equal the hours, and reads through them equal a count over hours', async (counters, removals, sinceMinute, span, timeZone, groupBy, device) => {
  const tenant = await createTenant(db);
  const form = await makeForm(
    db,
    tenant,
    ['One', 'Two'].map((name) => ({ name, components: [{ type: 'ShortInput', content: { question: `${name}?` } }] })),
    'Days',
  );
  const write = (row: HourRow, change: number) =>
    db.execute(sql`insert into form_insight_counts (form_id, environment_id, hour, segment, device, language, referrer, hidden, metric, count)
      values (${form.id}, ${tenant.environmentId}, ${new Date(START + row.hour * HOUR).toISOString()}::timestamptz, ${`s${row.device}`},
        ${DEVICES[row.device]!}, 'en', '', '{}'::jsonb, ${row.metric}, ${change})
      on conflict (form_id, hour, segment, metric) do update set count = form_insight_counts.count + excluded.count`);
  for (const row of counters) await write(row, row.count);
  // Take some off again (as a deletion does), move one row to another hour (another day, maybe), delete one.
  for (const row of counters.slice(0, removals)) await write(row, -1);
  await db.execute(sql`delete from form_insight_counts where form_id = ${form.id} and count <= 0`);
  await db.execute(sql`update form_insight_counts set hour = hour + interval '37 hours'
    where form_id = ${form.id} and (hour, segment, metric) = (select hour, segment, metric from form_insight_counts where form_id = ${form.id} order by hour desc, segment, metric limit 1)`);
  await db.execute(sql`delete from form_insight_counts
    where form_id = ${form.id} and (hour, segment, metric) = (select hour, segment, metric from form_insight_counts where form_id = ${form.id} order by hour, segment, metric limit 1)`);

  const hours = rowsOf<{ hour: string | Date; device: string; metric: string; count: number }>(
    await db.execute(sql`select hour, device, metric, count from form_insight_counts where form_id = ${form.id}`),
  ).map((row) => ({ ...row, at: new Date(row.hour).getTime() }));
  const days = rowsOf<{ day: string | Date; device: string; metric: string; count: number }>(
    await db.execute(sql`select day, device, metric, count from form_insight_days where form_id = ${form.id}`),
  );
  const key = (at: number, d: string, metric: string) => `${new Date(at).toISOString().slice(0, 10)}|${d}|${metric}`;
  const summed = new Map<string, number>();
  for (const row of hours) summed.set(key(row.at, row.device, row.metric), (summed.get(key(row.at, row.device, row.metric)) ?? 0) + row.count);
  expect(new Map(days.map((row) => [key(new Date(row.day).getTime(), row.device, row.metric), row.count]))).toEqual(new Map([...summed].filter(([, n]) => n !== 0)));

  const since = sinceMinute === undefined ? undefined : new Date(START + sinceMinute * 60_000);
  const until = new Date((since?.getTime() ?? START) + span * 60_000);
  const parsed = parseInsightsArguments({ since: since?.toISOString(), until: until.toISOString(), timeZone, groupBy, device }, (name) => [name]);
  if ('errors' in parsed) throw new Error(JSON.stringify(parsed.errors));
  const insights = await readInsights(db, { formId: form.id, steps: form.steps }, parsed.query);

  // The same over hour rows alone: an hour counts when it overlaps [since, until), in the period it starts in.
  const inRange = hours.filter((row) => (!device || row.device === device) && (!since || row.at > since.getTime() - HOUR) && row.at < until.getTime());
  const total = (metric: string) => inRange.filter((row) => row.metric === metric).reduce((sum, row) => sum + row.count, 0);
  expect([insights.views, insights.starts, insights.finishes, insights.steps[0]!.reached]).toEqual([total('views'), total('starts'), total('finishes'), total('reached:step_1')]);
  expect(insights.timeToComplete === null).toBe(total('ttc:42') === 0);
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
});
