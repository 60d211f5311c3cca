/**
 * Whether a form takes a submission, enforced inside the submission's transaction on every path (page and
 * JSON API alike): its schedule (`limits.opensAt`, `limits.closesAt`), its most of finished responses
 * (`limits.maxResponses`) and its quotas (src/forms/limits.ts).
 *
 * Exact under concurrency, on one node or many: a submission that would finish a response first locks the
 * form's row (`FOR NO KEY UPDATE`, which the responses' foreign key checks do not wait for), then counts the
 * form's finished responses; the finishing submissions of one form thus take turns, each seeing the ones
 * before it committed. A form without limits or quotas takes neither the lock nor the count.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import type { FormQuota, ResponseMeta } from '../db/json-columns.ts';
import { forms, responses } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import type { Form } from '../forms/forms.service.ts';
import { holds, type AnswersById, type WalkedPath } from './path.ts';

export const NOT_ACCEPTING = 'This form is no longer accepting responses';
export const notAccepting = () => new AppError('CONFLICT', NOT_ACCEPTING);

export const NOT_YET_OPEN = 'This form is not open yet';
/** A submission before the form's `limits.opensAt`: CONFLICT, with when it opens (the JSON API's 409 body carries it). */
export class NotYetOpenError extends AppError {
  constructor(readonly opensAt: string) {
    super('CONFLICT', NOT_YET_OPEN);
  }
}

/** Refuses a submission at `now` unless the form's schedule is open: not open yet, or closed. */
export function checkSchedule(form: Pick<Form, 'limits'>, now: Date): void {
  const schedule = scheduleAt(form, now);
  if (schedule === 'notYetOpen') throw new NotYetOpenError(form.limits!.opensAt!);
  if (schedule === 'closed') throw notAccepting();
}

type GatedForm = Pick<Form, 'id' | 'limits' | 'quotas'>;

/** Whether submissions to the form must count its finished responses (a most, or quotas). */
export const isCounted = (form: GatedForm): boolean => typeof form.limits?.maxResponses === 'number' || form.quotas.length > 0;

/** Where the form's schedule stands at `now`. */
export function scheduleAt(form: Pick<Form, 'limits'>, now: Date): 'open' | 'notYetOpen' | 'closed' {
  const { opensAt, closesAt } = form.limits ?? {};
  if (opensAt && now.getTime() < Date.parse(opensAt)) return 'notYetOpen';
  if (closesAt && now.getTime() >= Date.parse(closesAt)) return 'closed';
  return 'open';
}

/** Whether the form takes responses now: its schedule open and (with a most) not full. */
export async function takesResponses(db: Db, form: Pick<Form, 'id' | 'limits' | 'quotas'>, now = new Date()): Promise<boolean> {
  if (scheduleAt(form, now) !== 'open') return false;
  const max = form.limits?.maxResponses;
  return max === undefined || (await finishedCounts(db, { id: form.id, quotas: [] })).total < max;
}

/** The form's finished responses: all of them, and per quota key the ones counted toward it. */
export interface FinishedCounts {
  total: number;
  quotas: Map<string, number>;
}

export async function finishedCounts(db: Db, form: Pick<Form, 'id' | 'quotas'>): Promise<FinishedCounts> {
  const perQuota = form.quotas.map(
    (quota, index) => sql`count(*) filter (where ${responses.meta}->'quotas' @> jsonb_build_array(${quota.key}::text)) as ${sql.identifier(`q${index}`)}`,
  );
  const [row] = (await db
    .select({
      total: sql<string>`count(*)`,
      ...Object.fromEntries(perQuota.map((expression, index) => [`q${index}`, sql<string>`${expression}`])),
    })
    .from(responses)
    .where(and(eq(responses.formId, form.id), eq(responses.finished, true)))) as Record<string, string>[];
  return {
    total: Number(row?.total ?? 0),
    quotas: new Map(form.quotas.map((quota, index) => [quota.key, Number(row?.[`q${index}`] ?? 0)])),
  };
}

/**
 * `finishedCounts` of many forms in one statement (GraphQL listings batch their forms' counts through it):
 * each form's finished responses, and per quota key of a form with quotas those that recorded it.
 */
export async function finishedCountsOf(db: Db, many: readonly Pick<Form, 'id' | 'quotas'>[]): Promise<FinishedCounts[]> {
  if (many.length === 0) return [];
  const ids = JSON.stringify([...new Set(many.map((form) => form.id))]);
  const withQuotas = JSON.stringify([...new Set(many.filter((form) => form.quotas.length > 0).map((form) => form.id))]);
  const result = await db.execute(sql`
    select ${responses.formId} as "formId", null::text as "key", count(*)::int as "count" from ${responses}
      where ${responses.formId} in (select jsonb_array_elements_text(${ids}::jsonb)) and ${responses.finished}
      group by ${responses.formId}
    union all
    select ${responses.formId}, q.key, count(*)::int from ${responses}
      cross join lateral jsonb_array_elements_text(case jsonb_typeof(${responses.meta}->'quotas') when 'array' then ${responses.meta}->'quotas' else '[]'::jsonb end) as q(key)
      where ${responses.formId} in (select jsonb_array_elements_text(${withQuotas}::jsonb)) and ${responses.finished}
      group by ${responses.formId}, q.key`);
  const byForm = new Map<string, { total: number; keys: Map<string, number> }>();
  for (const row of rowsOf<{ formId: string; key: string | null; count: number }>(result)) {
    const entry = byForm.get(row.formId) ?? { total: 0, keys: new Map<string, number>() };
    byForm.set(row.formId, entry);
    if (row.key === null) entry.total = Number(row.count);
    else entry.keys.set(row.key, Number(row.count));
  }
  return many.map((form) => {
    const entry = byForm.get(form.id);
    return { total: entry?.total ?? 0, quotas: new Map(form.quotas.map((quota) => [quota.key, entry?.keys.get(quota.key) ?? 0])) };
  });
}

/** Takes the form's finishing turn for the rest of the transaction `tx`. */
export async function lockForFinishing(tx: Db, formId: string): Promise<void> {
  await tx.select({ id: forms.id }).from(forms).where(eq(forms.id, formId)).for('no key update');
}

/** What the quotas make of a response about to finish: the quotas it counts toward, and the full one that routes it, if any. */
export interface QuotaVerdict {
  counted: string[];
  full: FormQuota | undefined;
}

/**
 * The quotas, in order, whose condition the finishing response meets: each counts it while under its limit;
 * the first at its limit routes it instead (and does not count it). A quota that routed the response before
 * (`meta.quotaFull`) neither counts nor routes it again.
 */
export function quotaVerdict(
  form: Pick<Form, 'steps' | 'quotas'>,
  response: { answers: AnswersById; meta: ResponseMeta; walked: WalkedPath },
  counts: FinishedCounts,
): QuotaVerdict {
  const verdict: QuotaVerdict = { counted: [], full: undefined };
  const { hiddenFields = {}, quotaFull } = response.meta;
  for (const quota of form.quotas) {
    if (quota.key === quotaFull) continue;
    if (!holds(quota.condition, form.steps, response.answers, hiddenFields, response.walked.variables, response.walked.path)) continue;
    if ((counts.quotas.get(quota.key) ?? 0) < quota.limit) verdict.counted.push(quota.key);
    else verdict.full ??= quota;
  }
  return verdict;
}
