/**
 * The insight counters (`form_insight_counts`): what each view and each response counts, written as
 * it happens so that reading insights never scans responses.
 *
 * - A view of a form's first step is one counter update (`countView`), its own statement.
 * - A response counts in the row of the hour it started and its segment; what it counts there
 *   (`responseMetrics`: started, finished or invalid, the steps it reached, the step it left at, its
 *   time to complete) is kept on the response (`responses.insight`). A submission changes the counters
 *   by the difference, in the submission's own statement or transaction (`counterChangeSql`), so a
 *   change that rolls back leaves them as they were; a deletion takes the deleted responses' metrics off
 *   in its batch's transaction (`subtractResponses`).
 * - Rows are changed in one order (form, hour, segment, metric), so concurrent writers queue on a
 *   row rather than deadlock.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { ResponseInsight, StoredStep } from '../db/json-columns.ts';
import { formInsightCounts } from '../db/schema.ts';
import { stepKey } from '../forms/logic.ts';
import { segmentId, type Segment } from './dimensions.ts';

const HOUR_MS = 3_600_000;

/** The start of the UTC hour `at` falls in, as ISO text. */
export const hourOf = (at: Date): string => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS).toISOString();

/**
 * Seconds to complete as counted: whole seconds, exact under 1,000 and kept to three significant
 * digits above (1,234 s counts as 1,230 s), so a form's times take few counter rows.
 */
export function completionSecondsBucket(seconds: number): number {
  const whole = Math.max(0, Math.floor(seconds));
  if (whole < 1000) return whole;
  const scale = 10 ** (String(whole).length - 3);
  return Math.floor(whole / scale) * scale;
}

/**
 * The bucket (its first second) a time to complete counts in, in the slice rows (`ttcb:<start>`, the
 * migration's `form_insight_time_bucket`): exact under 16 s, then 8 buckets per doubling (16-17 s, …,
 * 512-575 s, …), so a bucket spans at most an eighth of its start.
 */
export function timeBucketOf(seconds: number): number {
  if (seconds < 16) return seconds;
  const width = 2 ** (Math.floor(seconds).toString(2).length - 4);
  return Math.floor(seconds / width) * width;
}

/** The times to complete a bucket can hold as counted (`completionSecondsBucket`'s values), in order. */
export function secondsOfBucket(bucket: number): number[] {
  const end = bucket < 16 ? bucket + 1 : bucket + 2 ** (bucket.toString(2).length - 4);
  const seconds: number[] = [];
  for (let at = bucket; at < end;) {
    const scale = at < 1000 ? 1 : 10 ** (String(Math.floor(at)).length - 3);
    const next = Math.ceil(at / scale) * scale;
    if (next < end && completionSecondsBucket(next) === next) seconds.push(next);
    at = next + scale;
  }
  return seconds;
}

export interface ResponseProgress {
  /** The steps of the version the response is answered on. */
  steps: readonly StoredStep[];
  /** Indexes of the steps gone through, and the step it is at (null once it has ended). */
  path: readonly number[];
  next: number | null;
  finished: boolean;
  invalid: boolean;
  startedAt: Date;
  /** When it finished (for its time to complete). */
  at: Date;
}

/** What a response counts now: `starts`, `finishes`, `invalid`, `reached:<key>`, `left:<key>`, `ttc:<seconds>`. */
export function responseMetrics(progress: ResponseProgress): string[] {
  const key = (index: number) => stepKey(progress.steps[index]!, index);
  const metrics = new Set(['starts']);
  if (progress.finished) metrics.add('finishes');
  if (progress.invalid) metrics.add('invalid');
  for (const index of progress.path) metrics.add(`reached:${key(index)}`);
  const open = !progress.finished && !progress.invalid && progress.next !== null;
  if (open) {
    metrics.add(`reached:${key(progress.next!)}`);
    metrics.add(`left:${key(progress.next!)}`);
  }
  if (progress.finished) metrics.add(`ttc:${completionSecondsBucket((progress.at.getTime() - progress.startedAt.getTime()) / 1000)}`);
  return [...metrics].sort();
}

/** A new response's insight: its hour and segment, and what it counts. */
export function newInsight(startedAt: Date, segment: Segment, metrics: string[]): ResponseInsight {
  return { hour: hourOf(startedAt), segment: segmentId(segment), ...segment, metrics };
}

/** One counter's change. */
export interface CounterChange {
  metric: string;
  change: number;
}

/** What the counters must change by when a response's insight goes from `before` (none: new) to `after`. */
export function insightChanges(before: ResponseInsight | null | undefined, after: ResponseInsight): CounterChange[] {
  const changes = new Map<string, number>();
  // A response keeps its hour and segment; one stored before counting began counts from now on.
  const counted = before && before.hour === after.hour && before.segment === after.segment ? before.metrics : [];
  for (const metric of counted) changes.set(metric, -1);
  for (const metric of after.metrics) changes.set(metric, (changes.get(metric) ?? 0) + 1);
  return [...changes]
    .filter(([, change]) => change !== 0)
    .map(([metric, change]) => ({ metric, change }))
    .sort((a, b) => (a.metric < b.metric ? -1 : a.metric > b.metric ? 1 : 0));
}

const upsert = sql`on conflict (form_id, hour, segment, metric) do update set count = ${formInsightCounts}.count + excluded.count`;

/**
 * The statement that adds `changes` to the counters of a response's row (`insight`): an insert of
 * `form_insight_counts` to run as it is or as a CTE of a submission's statement. `onlyIf` names a
 * CTE that must return a row for anything to change (the submission's write, when it may write nothing).
 */
export function counterChangeSql(ids: { formId: string; environmentId: string }, insight: ResponseInsight, changes: readonly CounterChange[], onlyIf?: SQL): SQL {
  return sql`insert into ${formInsightCounts} (form_id, environment_id, hour, segment, device, language, referrer, hidden, metric, count)
    select ${ids.formId}::text, ${ids.environmentId}::text, ${insight.hour}::timestamptz, ${insight.segment}::text, ${insight.device}::text,
      ${insight.language}::text, ${insight.referrer}::text, ${JSON.stringify(insight.hidden)}::jsonb, d.metric, d.change
    from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as d(metric text, change integer)${onlyIf ? sql` cross join (select 1 from ${onlyIf} limit 1) as gate` : sql``}
    order by d.metric
    ${upsert}`;
}

/** Adds `changes` to a response's counters in `db` (a transaction: with the change they count). */
export async function applyCounterChanges(db: Db, ids: { formId: string; environmentId: string }, insight: ResponseInsight, changes: readonly CounterChange[]): Promise<void> {
  if (changes.length > 0) await db.execute(counterChangeSql(ids, insight, changes));
}

/** A view of a form's first step: one counter update. */
export async function countView(db: Db, form: { id: string; environmentId: string }, segment: Segment, at = new Date()): Promise<void> {
  const insight = newInsight(at, segment, []);
  await db.execute(counterChangeSql({ formId: form.id, environmentId: form.environmentId }, insight, [{ metric: 'views', change: 1 }]));
}

export interface CountedResponse {
  formId: string;
  environmentId: string;
  insight: ResponseInsight | null;
}

/**
 * Takes deleted responses' metrics off their counters, in the deletion's transaction `tx`, and removes
 * the rows that reach zero (a segment's hidden values go with the last response that had them).
 */
export async function subtractResponses(tx: Db, deleted: readonly CountedResponse[]): Promise<void> {
  const rows = new Map<string, Record<string, unknown>>();
  for (const { formId, environmentId, insight } of deleted) {
    if (!insight) continue;
    for (const metric of insight.metrics) {
      const key = JSON.stringify([formId, insight.hour, insight.segment, metric]);
      const row = rows.get(key);
      if (row) row.change = (row.change as number) - 1;
      else {
        const { hour, segment, device, language, referrer, hidden } = insight;
        rows.set(key, {
          form_id: formId,
          environment_id: environmentId,
          hour,
          segment,
          device,
          language,
          referrer,
          hidden,
          metric,
          change: -1,
        });
      }
    }
  }
  if (rows.size === 0) return;
  const records = sql`jsonb_to_recordset(${JSON.stringify([...rows.values()])}::jsonb) as d(form_id text, environment_id text, hour timestamptz,
    segment text, device text, language text, referrer text, hidden jsonb, metric text, change integer)`;
  await tx.execute(sql`insert into ${formInsightCounts} (form_id, environment_id, hour, segment, device, language, referrer, hidden, metric, count)
    select d.form_id, d.environment_id, d.hour, d.segment, d.device, d.language, d.referrer, d.hidden, d.metric, d.change
    from ${records}
    order by d.form_id, d.hour, d.segment, d.metric
    ${upsert}`);
  await tx.execute(sql`delete from ${formInsightCounts} c using ${records}
    where c.form_id = d.form_id and c.hour = d.hour and c.segment = d.segment and c.metric = d.metric and c.count <= 0`);
}
