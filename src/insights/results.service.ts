/**
 * What a form's read-only results page (src/results/) shows: its insights (insights.service.ts, from
 * the counters), every question's summary (responses/summary.service.ts) and, when the link includes
 * them, the latest free-text answers. Free text comes only from ShortInput and LongInput: identity
 * fields, e-mail, files and passwords never reach the page.
 */
import { sql, type SQL } from 'drizzle-orm';
import { COMPONENT_MODULES } from '../components/catalogue.ts';
import type { Db } from '../db/client.ts';
import type { LagTolerantReads } from '../db/replicas.ts';
import { rowsOf } from '../db/rows.ts';
import { responses } from '../db/schema.ts';
import type { Form } from '../forms/forms.service.ts';
import { summaryQuestions, type QuestionSummary } from '../responses/summary.service.ts';
import { readInsights, type Insights, type InsightsQuery } from './insights.service.ts';
import type { Period } from './time-zones.ts';

/** The free text an answer holds (`a`: the answer), from the modules that have any (`summary.freeText`). */
const FREE_TEXT_MODULES = COMPONENT_MODULES.filter((module) => module.summary?.freeText);
const freeTextOf = (answer: SQL): SQL =>
  sql`coalesce(${sql.join(
    FREE_TEXT_MODULES.map((module) => module.summary!.freeText!(sql`${answer}->'response'`)),
    sql`, `,
  )})`;
const hasFreeText = (type: string) => FREE_TEXT_MODULES.some((module) => type in module.types);
/** Free-text answers shown per question: the latest of the form's most recent responses. */
export const TEXT_ANSWERS_PER_QUESTION = 20;
/** How many of the most recent responses free-text answers are read from (bounded, whatever the form's size). */
export const TEXT_ANSWERS_SCANNED = 1000;
/** The longest series the page draws before it groups by a longer period. */
const MAX_POINTS: Record<Period, number> = { day: 62, week: 104, month: Number.POSITIVE_INFINITY };

export interface Results {
  form: Form;
  insights: Insights;
  questions: QuestionSummary[];
  /** Per question id, its latest free-text answers (empty unless the link includes them). */
  textAnswers: Map<string, string[]>;
}

const everything = (groupBy: Period): InsightsQuery => ({
  since: undefined,
  until: undefined,
  timeZone: 'UTC',
  groupBy,
  device: undefined,
  language: undefined,
  hidden: {},
});

/** The insights with the shortest period whose series stays readable (days, else weeks, else months). */
async function insightsOf(db: Db, form: Form): Promise<Insights> {
  const scope = { formId: form.id, steps: form.steps };
  let insights = await readInsights(db, scope, everything('day'));
  for (const period of ['week', 'month'] as const) {
    if (insights.series.length <= MAX_POINTS[insights.groupBy]) break;
    insights = await readInsights(db, scope, everything(period));
  }
  return insights;
}

/** The latest free-text answers per free-text question of `form`. */
async function textAnswersOf(db: Db, form: Form): Promise<Map<string, string[]>> {
  const ids = form.steps.flatMap((step) => step.components.filter((c) => hasFreeText(c.type)).map((c) => c.id));
  const answers = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return answers;
  const questionIds = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const result = await db.execute(sql`
    with recent as (
      select r.data, r.created_at, r.id from ${responses} r where r.form_id = ${form.id}
      order by r.created_at desc, r.id desc limit ${TEXT_ANSWERS_SCANNED}
    ), texts as (
      select a->>'questionId' as question_id, t.text,
        row_number() over (partition by a->>'questionId' order by recent.created_at desc, recent.id desc) as n
      from recent cross join lateral jsonb_array_elements(recent.data::jsonb) a
      cross join lateral (select ${freeTextOf(sql`a`)} as text) t
      where a->>'questionId' in (${questionIds}) and t.text <> ''
    )
    select question_id, text from texts where n <= ${TEXT_ANSWERS_PER_QUESTION} order by question_id, n`);
  for (const row of rowsOf<{ question_id: string; text: string }>(result)) answers.get(row.question_id)?.push(row.text);
  return answers;
}

/** Everything the results page of `form` shows; free text only when `includeTextAnswers`. */
export async function readResults(reads: LagTolerantReads, form: Form, includeTextAnswers: boolean): Promise<Results> {
  return reads.run(async (db) => {
    const [insights, [questions], textAnswers] = await Promise.all([
      insightsOf(db, form),
      summaryQuestions(db, [form], {}),
      includeTextAnswers ? textAnswersOf(db, form) : Promise.resolve(new Map<string, string[]>()),
    ]);
    return { form, insights, questions: questions ?? [], textAnswers };
  });
}
