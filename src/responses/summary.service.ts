/**
 * Response summaries of forms, computed in SQL: aggregates over each form's responses (found through
 * the `responses_form_*` indexes), never by loading the responses. Each function takes many forms at
 * once and answers all of them in one statement, so a page of forms costs one statement per part
 * asked for (counts, steps, questions, versions), whatever its size. Steps and questions are those of the
 * definition given (the current version's, or the version a `version` filter names: the responses that
 * answered it).
 */
import { rowsOf } from '../db/rows.ts';
import { and, inArray, sql, type SQL } from 'drizzle-orm';
import { onPostgres, type Db } from '../db/client.ts';
import { responses } from '../db/schema.ts';
import { COMPONENT_MODULES, isAnswerable, moduleOf } from '../components/catalogue.ts';
import type { FormVariable, StoredStep } from '../db/json-columns.ts';
import type { PromoterScore, RowSummary } from '../components/module.ts';
import { responseFormVersionSql } from '../forms/versions.service.ts';
import { stepKey } from '../forms/logic.ts';
import { defaultLanguageOf } from '../forms/translations.ts';
import { responseLanguageSql } from './language-filter.ts';
import type { FormLanguages } from '../db/json-columns.ts';

/** What a form's default language is read from. */
type FormLanguageFields = { languages: FormLanguages | null; locale: string };

export interface SummaryFilter {
  /** Inclusive lower bound on `dateField`. */
  since?: Date | undefined;
  /** Exclusive upper bound on `dateField`. */
  until?: Date | undefined;
  dateField?: 'createdAt' | 'updatedAt' | undefined;
  /** Only the responses that answered this version of the form (`meta.formVersion`). */
  version?: number | undefined;
  /** Only the responses answered in this language (language-filter.ts). */
  language?: string | undefined;
}

export interface SummaryCounts {
  total: number;
  finished: number;
  /** Unfinished and touched within the drop-off time (status 2). */
  inProgress: number;
  /** Unfinished and untouched for the drop-off time (status 3). */
  droppedOff: number;
  /** Ended at an invalid step or action (status 5): counted apart from completed and dropped off. */
  invalid: number;
}

/**
 * How many responses reached each step: the steps of a response's path (`meta.path`). A response stored
 * before paths were recorded reaches a step when it answers a question on it or a later one, or finishes.
 */
export interface StepReach {
  stepId: string;
  index: number;
  name: string;
  reached: number;
}

export interface QuestionSummary {
  questionId: string;
  stepId: string;
  type: string;
  headline: string | null;
  answers: number;
  /** Choice and scale types: every option (or value) of the question with how often it was chosen (options no longer in the form last). */
  options: { option: string; count: number }[] | null;
  /** Numeric types: over the answers that hold a number. */
  numbers: NumberStatistics | null;
  /** Date questions: the earliest and latest date answered. */
  dates: { earliest: string | null; latest: string | null } | null;
  /** 0–10 questions (NPS): promoters, passives, detractors and the score. */
  promoterScore: PromoterScore | null;
  /** Questions of several parts (Matrix rows, Ranking options): each part's counts. */
  rows: RowSummary[] | null;
}

export interface NumberStatistics {
  count: number;
  mean: number | null;
  median: number | null;
  min: number | null;
  max: number | null;
}

type SummaryModule = (typeof COMPONENT_MODULES)[number];

/** The `in (…)` list of some modules' types. */
const typesOf = (modules: readonly SummaryModule[]) =>
  sql.join(
    modules.flatMap((module) => Object.keys(module.types).map((type) => sql`${type}::text`)),
    sql`, `,
  );

/** The modules whose answers choose several options: their `chosen` SELECT runs once per distinct answer. */
const SEVERAL = COMPONENT_MODULES.filter((module) => module.summary?.chosen);

/**
 * What an answer holds by the hook `part` of its module (its number, date or one option), as a simple
 * CASE on the answer's type (`a.type`, read once): only the answer's own module's expression runs.
 */
const byType = (part: 'number' | 'date' | 'option', cast: SQL): SQL => {
  const branches = COMPONENT_MODULES.flatMap((module) => {
    const expression = module.summary?.[part];
    return expression ? Object.keys(module.types).map((type) => sql`when ${type}::text then ${expression(sql`a.response`)}${cast}`) : [];
  });
  return branches.length === 0 ? sql`null${cast}` : sql`(case a.type ${sql.join(branches, sql` `)} end)${cast}`;
};
const answerNumber = byType('number', sql`::float8`);
const answerDate = byType('date', sql`::text`);
const answerOption = byType('option', sql`::text`);

function filterConditions(filter: SummaryFilter): (SQL | undefined)[] {
  const dateColumn = filter.dateField === 'updatedAt' ? responses.updatedAt : responses.createdAt;
  return [
    filter.since ? sql`${dateColumn} >= ${filter.since.toISOString()}::timestamptz` : undefined,
    filter.until ? sql`${dateColumn} < ${filter.until.toISOString()}::timestamptz` : undefined,
    filter.version === undefined ? undefined : sql`${responseFormVersionSql(sql`${responses.meta}`)} = ${filter.version}::int`,
    filter.language === undefined ? undefined : sql`${responseLanguageSql(sql`${responses.meta}`, sql`${responses.formId}`)} = ${filter.language}`,
  ];
}

/** How many responses (and finished ones) answered each version of a form. */
export interface VersionCount {
  version: number;
  total: number;
  finished: number;
}

/** Per form (in the order of `formIds`), its responses counted per version they answered, newest version first. */
export async function summaryVersions(db: Db, formIds: readonly string[], filter: SummaryFilter): Promise<VersionCount[][]> {
  if (formIds.length === 0) return [];
  const version = responseFormVersionSql(sql`${responses.meta}`);
  const rows = await db
    .select({
      formId: responses.formId,
      version: sql<number>`${version}`,
      total: sql<string>`count(*)`,
      finished: sql<string>`count(*) filter (where ${responses.finished})`,
    })
    .from(responses)
    .where(and(inArray(responses.formId, [...formIds]), ...filterConditions(filter)))
    .groupBy(responses.formId, version);
  return formIds.map((id) =>
    rows
      .filter((row) => row.formId === id)
      .map((row) => ({ version: Number(row.version), total: num(row.total), finished: num(row.finished) }))
      .sort((a, b) => b.version - a.version),
  );
}

const num = (value: unknown) => Number(value ?? 0);

/** How many responses (and finished ones) were answered in one language. */
export interface LanguageCount {
  language: string;
  total: number;
  finished: number;
}

/**
 * Per form (in the order of `forms`), its responses counted per language they were answered in
 * (`meta.language`; a response without one, of a one-language form or from before it had languages, in
 * the form's default language), the default language first, then by count.
 */
export async function summaryLanguages(db: Db, forms: readonly (FormLanguageFields & { id: string })[], filter: SummaryFilter): Promise<LanguageCount[][]> {
  if (forms.length === 0) return [];
  const language = sql`${responses.meta}->>'language'`;
  const rows = await db
    .select({
      formId: responses.formId,
      language: sql<string | null>`${language}`,
      total: sql<string>`count(*)`,
      finished: sql<string>`count(*) filter (where ${responses.finished})`,
    })
    .from(responses)
    .where(
      and(
        inArray(
          responses.formId,
          forms.map((form) => form.id),
        ),
        ...filterConditions(filter),
      ),
    )
    .groupBy(responses.formId, language);
  return forms.map((form) => {
    const fallback = defaultLanguageOf(form);
    const counts = new Map<string, LanguageCount>();
    for (const row of rows.filter((r) => r.formId === form.id)) {
      const key = row.language ?? fallback;
      const count = counts.get(key) ?? { language: key, total: 0, finished: 0 };
      counts.set(key, { language: key, total: count.total + num(row.total), finished: count.finished + num(row.finished) });
    }
    return [...counts.values()].sort((a, b) => Number(b.language === fallback) - Number(a.language === fallback) || b.total - a.total || a.language.localeCompare(b.language));
  });
}

/** A response that ended invalid (`meta.invalid`, status 5). */
const INVALID = sql`(${responses.meta}->>'invalid') = 'true'`;

/** Status counts per form, in the order of `formIds`. */
export async function summaryCounts(db: Db, formIds: readonly string[], filter: SummaryFilter, dropOffMs: number, now = new Date()): Promise<SummaryCounts[]> {
  if (formIds.length === 0) return [];
  const droppedBefore = new Date(now.getTime() - dropOffMs).toISOString();
  const rows = await db
    .select({
      formId: responses.formId,
      total: sql<string>`count(*)`,
      finished: sql<string>`count(*) filter (where ${responses.finished})`,
      droppedOff: sql<string>`count(*) filter (where not ${responses.finished} and ${INVALID} is not true and ${responses.updatedAt} <= ${droppedBefore}::timestamptz)`,
      invalid: sql<string>`count(*) filter (where not ${responses.finished} and ${INVALID})`,
    })
    .from(responses)
    .where(and(inArray(responses.formId, [...formIds]), ...filterConditions(filter)))
    .groupBy(responses.formId);
  const byForm = new Map(rows.map((row) => [row.formId, row]));
  return formIds.map((id) => {
    const row = byForm.get(id);
    const total = num(row?.total);
    const finished = num(row?.finished);
    const droppedOff = num(row?.droppedOff);
    const invalid = num(row?.invalid);
    return { total, finished, droppedOff, invalid, inProgress: total - finished - droppedOff - invalid };
  });
}

/** The (form, question, step index) triples of `forms`, as a VALUES list. */
function questionSteps(forms: readonly { id: string; steps: StoredStep[] }[]): SQL | undefined {
  const triples = forms.flatMap((form) => form.steps.flatMap((step, index) => step.components.map((component) => sql`(${form.id}::text, ${component.id}::text, ${index}::int)`)));
  return triples.length === 0 ? undefined : sql.join(triples, sql`, `);
}

/** Per form (in order), how many responses reached each of its steps. */
export async function summarySteps(db: Db, forms: readonly { id: string; steps: StoredStep[] }[], filter: SummaryFilter): Promise<StepReach[][]> {
  if (forms.length === 0) return [];
  const values = questionSteps(forms) ?? sql`(null::text, null::text, null::int)`;
  // A recorded path counts once per step key on it; a response without one (stored before paths were
  // recorded) by the furthest step it answered on (its answers are read only then), finished apart.
  type StepRow = { form_id: string; step_key: string | null; finished: boolean | null; furthest: number | null; count: string };
  const rows = await db.execute(sql`
    with per_response as (
      select r.form_id, r.finished, r.meta->'path' as path,
        case when jsonb_typeof(r.meta->'path') = 'array' then null else (
          select max(m.step)
          from jsonb_array_elements(r.data::jsonb) a
          join (values ${values}) m(form_id, question_id, step) on m.form_id = r.form_id and m.question_id = a->>'questionId'
        ) end as furthest
      from ${responses} r
      where r.form_id in (${sql.join(
        forms.map((form) => sql`${form.id}`),
        sql`, `,
      )}) ${filterSql(filter)}
    )
    select form_id, p.step_key, null::boolean as finished, null::int as furthest, count(*)::text as count
      from per_response cross join lateral jsonb_array_elements_text(path) p(step_key)
      where jsonb_typeof(path) = 'array'
      group by form_id, p.step_key
    union all
    select form_id, null, finished, furthest, count(*)::text
      from per_response
      where jsonb_typeof(path) is distinct from 'array'
      group by form_id, finished, furthest`);
  return forms.map((form) => {
    const reached = form.steps.map(() => 0);
    const byKey = new Map(form.steps.map((step, index) => [stepKey(step, index), index]));
    for (const row of rowsOf<StepRow>(rows)) {
      if (row.form_id !== form.id) continue;
      const count = num(row.count);
      if (row.step_key !== null) {
        const index = byKey.get(row.step_key);
        if (index !== undefined) reached[index]! += count;
        continue;
      }
      const furthest = row.finished ? form.steps.length - 1 : Math.max(0, num(row.furthest));
      for (let i = 0; i <= furthest && i < reached.length; i++) reached[i]! += count;
    }
    return form.steps.map((step, index) => ({ stepId: step.id, index, name: step.name, reached: reached[index]! }));
  });
}

/** The modules whose hooks the questions' summary runs (a module with only `freeText` has none of them). */
const SUMMARISED = COMPONENT_MODULES.filter((module) => module.summary?.option || module.summary?.chosen || module.summary?.number || module.summary?.date);

/**
 * What the summary reads of an answer, `e` (an element of a response's `data`), as text: by its type,
 * its module's `field` of its stored response as jsonb text (`null` where it has none: NULL), or the whole
 * stored response for a module without one; NULL for a type with no hooks. jsonb text reads back as the
 * same jsonb (numbers keep their digits), and equal text is equal jsonb, so grouping answers by it and
 * running the hooks once per group gives what running them on every answer gives.
 */
const answerPart = (() => {
  const branches = SUMMARISED.flatMap((module) => {
    const field = module.summary!.field;
    const part = field === undefined ? sql`e->'response'` : sql`e->'response'->${field}::text`;
    return Object.keys(module.types).map((type) => sql`when ${type}::text then ${part}`);
  });
  return branches.length === 0 ? sql`null::text` : sql`(case e->'response'->>'type' ${sql.join(branches, sql` `)} end)::text`;
})();

/**
 * The stored response the hooks see for a group of answers (`p`: its `type` and `part`): `type` and the
 * module's field when the answers have it (`part` not NULL), or the whole response for a module without one.
 */
const partResponse = (() => {
  const branches = SUMMARISED.flatMap((module) => {
    const field = module.summary!.field;
    const response =
      field === undefined
        ? sql`p.part::jsonb`
        : sql`case when p.part is null then jsonb_build_object('type', p.type) else jsonb_build_object('type', p.type, ${field}::text, p.part::jsonb) end`;
    return Object.keys(module.types).map((type) => sql`when ${type}::text then ${response}`);
  });
  return branches.length === 0 ? sql`null::jsonb` : sql`(case p.type ${sql.join(branches, sql` `)} end)`;
})();

/**
 * The questions' summary of `forms` as one statement (exported for bench/survey-summary.ts's EXPLAIN).
 * The answers are unpacked once, and only what the hooks read of each is kept (`answerPart`): grouped by
 * form, question, type and that part, the answers become one row per distinct answer with its count
 * (`part`; a scale question has at most one per value, a Ranking one per order given), and the modules'
 * hooks run once per such row (`answer`): its number, date and one option, and its response only when a
 * `chosen` SELECT must read it. One grouping per question gives the counts and the numbers' and dates'
 * statistics (the counts weigh each row), the counts per number the median, a hashed grouping the count
 * per option; the rows of types that choose several options go through their module's SELECT, and only
 * they. A response holds each question once (its answers are merged by question id), so the count per
 * question is the responses that answered it, and each answer's options are distinct, so the count per
 * option is the answers that chose it.
 */
export function questionsStatement(forms: readonly { id: string }[], filter: SummaryFilter): SQL {
  const several = SEVERAL.length === 0 ? sql`null::jsonb` : sql`case when a.type in (${typesOf(SEVERAL)}) then a.response end`;
  // One branch per module whose answers choose several options: its SELECT runs for its own types' rows only.
  const perChosen = sql.join(
    SEVERAL.map(
      (module) => sql`
    union all
    select a.form_id, a.question_id, c.option, 0, sum(a.n)::text, 0, null, null, null, null, null, null
    from answer a
    cross join lateral (${module.summary!.chosen!(sql`a.response`)}) c(option)
    where a.type in (${typesOf([module])}) and a.response is not null
    group by a.form_id, a.question_id, c.option`,
    ),
    sql``,
  );
  return sql`
    with part as (
      select r.form_id, e->>'questionId' as question_id, e->'response'->>'type' as type, ${answerPart} as part, count(*) as n
      from ${responses} r
      cross join lateral jsonb_array_elements(r.data::jsonb) e
      where r.form_id in (${sql.join(
        forms.map((form) => sql`${form.id}`),
        sql`, `,
      )}) ${filterSql(filter)}
      group by 1, 2, 3, 4
    ),
    answer as materialized (
      select a.form_id, a.question_id, a.n, a.type, ${answerNumber} as number, ${answerDate} as day, ${answerOption} as option, ${several} as response
      from part p
      cross join lateral (select p.form_id, p.question_id, p.n, p.type, ${partResponse} as response) a
    ),
    -- The median from the count of each value and the running counts: percentile_cont(0.5) without a sort
    -- of every answer. With n numbers it is the value at (n - 1) / 2 (counted from 0), or halfway between
    -- the two values around it, computed as percentile_cont does (low + (high - low) * 0.5).
    per_value as (
      select form_id, question_id, number, sum(n) as n from answer where number is not null group by form_id, question_id, number
    ),
    ranked as (
      select v.*, sum(n) over (partition by form_id, question_id order by number rows unbounded preceding) as upto,
        (sum(n) over (partition by form_id, question_id) - 1) * 0.5 as middle
      from per_value v
    ),
    medians as (
      select form_id, question_id, min(number) filter (where upto > floor(middle)) as low, min(number) filter (where upto > ceil(middle)) as high,
        (max(middle) - floor(max(middle)))::float8 as between
      from ranked
      group by form_id, question_id
    )
    select q.form_id, q.question_id, null::text as option, 1 as per_question, q.count::text as count, q.numbers, q.mean,
      m.low + (m.high - m.low) * m.between as median, q.min, q.max, q.earliest, q.latest
    from (
      select form_id, question_id, sum(n) as count, coalesce(sum(n) filter (where number is not null), 0) as numbers,
        (sum(number::numeric * n) / sum(n) filter (where number is not null))::float8 as mean, min(number) as min, max(number) as max,
        min(day) as earliest, max(day) as latest
      from answer
      group by form_id, question_id
    ) q
    left join medians m on m.form_id = q.form_id and m.question_id = q.question_id
    union all
    select form_id, question_id, option, 0, sum(n)::text, 0, null, null, null, null, null, null
    from answer
    where option is not null
    group by form_id, question_id, option${perChosen}`;
}

/**
 * Runs `statement`, on PostgreSQL in a transaction with JIT compilation off (`SET LOCAL`): the planner
 * estimates 100 elements for each JSON array it unpacks, so the summary of a large form looks costly
 * enough to compile and optimise, and that took seconds, longer than the statement ran without it. PGlite
 * has no JIT, and runs the statement alone.
 */
async function withoutJit(db: Db, statement: SQL) {
  if (!onPostgres(db)) return db.execute(statement);
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    return tx.execute(statement);
  });
}

/** Per form (in order), each answerable question's answer count and, for choice types, the count per option. */
export async function summaryQuestions(db: Db, forms: readonly { id: string; steps: StoredStep[] }[], filter: SummaryFilter): Promise<QuestionSummary[][]> {
  if (forms.length === 0) return [];
  // One pass: grouping by question gives the answer counts, by question and option the option counts.
  type QuestionRow = {
    form_id: string;
    question_id: string;
    option: string | null;
    per_question: number;
    count: string;
    numbers: string | number;
    mean: string | number | null;
    median: string | number | null;
    min: string | number | null;
    max: string | number | null;
    earliest: string | null;
    latest: string | null;
  };
  const rows = await withoutJit(db, questionsStatement(forms, filter));
  const all = rowsOf<QuestionRow>(rows);
  return forms.map((form) => {
    const perQuestion = new Map<string, QuestionRow>();
    const options = new Map<string, Map<string, number>>();
    for (const row of all) {
      if (row.form_id !== form.id) continue;
      if (num(row.per_question) === 1) perQuestion.set(row.question_id, row);
      else if (row.option !== null) {
        let counts = options.get(row.question_id);
        if (!counts) options.set(row.question_id, (counts = new Map<string, number>()));
        counts.set(row.option, (counts.get(row.option) ?? 0) + num(row.count));
      }
    }
    return form.steps.flatMap((step) =>
      step.components
        .filter((component) => isAnswerable(component.type))
        .map((component): QuestionSummary => {
          const rules = moduleOf(component.type)?.summary;
          const offered = (rules?.chosen || rules?.option) && !rules.rows ? (rules.options?.(component) ?? []) : undefined;
          const counted = options.get(component.id) ?? new Map<string, number>();
          const optionCounts = offered
            ? [
                ...offered.map((option) => ({ option, count: counted.get(option) ?? 0 })),
                ...[...counted]
                  .filter(([option]) => !offered.includes(option))
                  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
                  .map(([option, count]) => ({ option, count })),
              ]
            : null;
          const row = perQuestion.get(component.id);
          const headline = component.content.question ?? component.content.text ?? component.content.title;
          return {
            questionId: component.id,
            stepId: step.id,
            type: component.type,
            headline: typeof headline === 'string' ? headline : null,
            answers: row ? num(row.count) : 0,
            options: optionCounts,
            numbers: rules?.number ? numberStatistics(row) : null,
            dates: rules?.date ? { earliest: row?.earliest ?? null, latest: row?.latest ?? null } : null,
            promoterScore: rules?.promoterScore ? rules.promoterScore(counted) : null,
            rows: rules?.rows ? rules.rows(component, counted) : null,
          };
        }),
    );
  });
}

const orNull = (value: string | number | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

function numberStatistics(
  row: { numbers: string | number; mean: string | number | null; median: string | number | null; min: string | number | null; max: string | number | null } | undefined,
): NumberStatistics {
  return { count: num(row?.numbers), mean: orNull(row?.mean), median: orNull(row?.median), min: orNull(row?.min), max: orNull(row?.max) };
}

/** The filter as a raw `and …` suffix for the hand-written statements (on alias `r`). */
function filterSql(filter: SummaryFilter): SQL {
  const column = filter.dateField === 'updatedAt' ? sql`r.updated_at` : sql`r.created_at`;
  return sql`${filter.since ? sql`and ${column} >= ${filter.since.toISOString()}::timestamptz` : sql``} ${
    filter.until ? sql`and ${column} < ${filter.until.toISOString()}::timestamptz` : sql``
  } ${filter.version === undefined ? sql`` : sql`and ${responseFormVersionSql(sql`r.meta`)} = ${filter.version}::int`} ${
    filter.language === undefined ? sql`` : sql`and ${responseLanguageSql(sql`r.meta`, sql`r.form_id`)} = ${filter.language}`
  }`;
}

/** A number variable over the finished responses that recorded it: count, mean, min, max. */
export interface VariableSummary {
  name: string;
  count: number;
  mean: number | null;
  min: number | null;
  max: number | null;
}

/** Per form (in order), each of its number variables over its finished responses (`meta.variables`). */
export async function summaryVariables(db: Db, forms: readonly { id: string; variables: readonly FormVariable[] }[], filter: SummaryFilter): Promise<VariableSummary[][]> {
  const pairs = forms.flatMap((form) => form.variables.filter((v) => v.type === 'number').map((v) => sql`(${form.id}::text, ${v.name}::text)`));
  if (pairs.length === 0) return forms.map(() => []);
  type Row = { form_id: string; name: string; count: string; mean: number | null; min: number | null; max: number | null };
  const value = sql`case when jsonb_typeof(r.meta->'variables'->v.name) = 'number' then (r.meta->'variables'->>v.name)::float8 end`;
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select v.form_id, v.name, count(${value})::text as count, avg(${value}) as mean, min(${value}) as min, max(${value}) as max
      from (values ${sql.join(pairs, sql`, `)}) v(form_id, name)
      join ${responses} r on r.form_id = v.form_id and r.finished ${filterSql(filter)}
      group by v.form_id, v.name`),
  );
  const found = new Map(rows.map((row) => [`${row.form_id}:${row.name}`, row]));
  const numberOrNull = (n: unknown) => (n === null || n === undefined ? null : Number(n));
  return forms.map((form) =>
    form.variables
      .filter((v) => v.type === 'number')
      .map((v) => {
        const row = found.get(`${form.id}:${v.name}`);
        return { name: v.name, count: num(row?.count), mean: numberOrNull(row?.mean), min: numberOrNull(row?.min), max: numberOrNull(row?.max) };
      }),
  );
}
