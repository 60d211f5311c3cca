/**
 * A form's `summary`: counts over its responses (status, steps reached, answers per question and option),
 * computed by the database (summary.service.ts). Request-scoped DataLoaders answer every form at one
 * place in a query with one statement per part.
 */
import DataLoader from 'dataloader';
import type { Db } from '../db/client.ts';
import { FormRef, formWithSteps } from '../forms/forms.graphql.ts';
import type { Form, FormHead } from '../forms/forms.service.ts';
import { builder } from '../graphql/builder.ts';
import { lagTolerantReads, type GraphQLContext } from '../graphql/context.ts';
import { invalidArguments, ROW_COST } from '../graphql/pagination.ts';
import { ResponseDateFieldEnum } from './responses.graphql.ts';
import { dateRangeProblems } from './responses.service.ts';
import {
  summaryCounts,
  summaryLanguages,
  summaryQuestions,
  summarySteps,
  summaryVariables,
  summaryVersions,
  type LanguageCount,
  type NumberStatistics,
  type QuestionSummary,
  type SummaryFilter,
  type VariableSummary,
  type VersionCount,
} from './summary.service.ts';
import type { PromoterScore, RowSummary } from '../components/module.ts';
import { formAtVersion } from '../forms/versions.service.ts';
import { filterLanguage, LANGUAGE_FILTER_MESSAGE } from './language-filter.ts';

/**
 * A summary aggregates every response of its form (through the form's index, one statement for all
 * forms at a path): priced like two response rows, so 100 forms with their summaries and last 3
 * responses fit the default cost limit, and a 100-form page asking for two summaries each does not.
 */
const SUMMARY_COST = 2 * ROW_COST;

const SummaryFilterInput = builder.inputType('SummaryFilter', {
  description: 'Which responses a summary counts (all of them by default, finished or not).',
  fields: (t) => ({
    since: t.field({ type: 'DateTime', description: 'Only responses whose `dateField` is at or after this instant.' }),
    until: t.field({ type: 'DateTime', description: 'Only responses whose `dateField` is before this instant.' }),
    dateField: t.field({ type: ResponseDateFieldEnum, defaultValue: 'createdAt', description: 'Defaults to CREATED_AT.' }),
    version: t.int({
      description: "Only the responses that answered this version of the form (`meta.formVersion`); steps and questions are then that version's.",
    }),
    language: t.string({
      description:
        "Only the responses answered in this language (`meta.language`; a response without one counts as the form's default language's): a built-in language, a region read as its language (`de-CH`).",
    }),
  }),
});

interface SummaryShape {
  form: FormHead;
  filter: SummaryFilter;
}

/**
 * Request-scoped DataLoaders: one per part and filter, so every form at one place in the query is
 * summarised by one statement per part. Kept per GraphQL context (one per request).
 */
const summaryLoaders = new WeakMap<object, Map<string, DataLoader<FormHead, unknown, string>>>();
function summaryLoader<V>(ctx: GraphQLContext, part: string, filter: SummaryFilter, batch: (db: Db, forms: readonly FormHead[]) => Promise<V[]>): DataLoader<FormHead, V, string> {
  let loaders = summaryLoaders.get(ctx);
  if (!loaders) summaryLoaders.set(ctx, (loaders = new Map<string, DataLoader<FormHead, unknown, string>>()));
  const key = `${part}:${filter.since?.toISOString() ?? ''}:${filter.until?.toISOString() ?? ''}:${filter.dateField ?? ''}:${filter.version ?? ''}:${filter.language ?? ''}`;
  let loader = loaders.get(key);
  // Summaries tolerate a little lag: a read replica's when there is a fresh one.
  const read = (forms: readonly FormHead[]) => lagTolerantReads(ctx).run((db) => batch(db, forms));
  if (!loader) loaders.set(key, (loader = new DataLoader<FormHead, unknown, string>(read, { cacheKeyFn: (form) => form.id })));
  return loader as DataLoader<FormHead, V, string>;
}

/** The forms of a summary batch with their steps (read for all of them in one statement when the listing left them out). */
const withSteps = (ctx: GraphQLContext, forms: readonly FormHead[]): Promise<Form[]> => Promise.all(forms.map((form) => formWithSteps(ctx, form)));

const countsOf = (s: SummaryShape, ctx: GraphQLContext) =>
  summaryLoader(ctx, 'counts', s.filter, (db, forms) =>
    summaryCounts(
      db,
      forms.map((f) => f.id),
      s.filter,
      ctx.dropOffMs,
    ),
  ).load(s.form);

const StepReachRef = builder.objectRef<{ stepId: string; index: number; name: string; reached: number }>('StepReach').implement({
  description:
    'How many responses reached a step: went through it on their path (`meta.path`). A response stored before paths were recorded: answered a question on it or on a later step, or finished the form.',
  fields: (t) => ({
    stepId: t.exposeID('stepId'),
    index: t.exposeInt('index', { description: 'Position of the step, from 0.' }),
    name: t.exposeString('name'),
    reached: t.exposeInt('reached'),
  }),
});

const OptionCountRef = builder.objectRef<{ option: string; count: number }>('OptionCount').implement({
  description: 'How often one option was chosen.',
  fields: (t) => ({
    option: t.exposeString('option', { description: 'The option (a Disclaimer has "checked" and "unchecked").' }),
    count: t.exposeInt('count'),
  }),
});

const NumberStatisticsRef = builder.objectRef<NumberStatistics>('NumberStatistics').implement({
  description: 'The numbers a question was answered with (Rating, NPS, OpinionScale, Number).',
  fields: (t) => ({
    count: t.exposeInt('count', { description: 'Answers holding a number.' }),
    mean: t.exposeFloat('mean', { nullable: true, description: 'Null without answers.' }),
    median: t.exposeFloat('median', { nullable: true, description: 'The middle answer (the mean of the two middle ones for an even count); null without answers.' }),
    min: t.exposeFloat('min', { nullable: true }),
    max: t.exposeFloat('max', { nullable: true }),
  }),
});

const DateRangeRef = builder.objectRef<{ earliest: string | null; latest: string | null }>('DateRange').implement({
  description: 'The earliest and latest dates a Date question was answered with (YYYY-MM-DD); null without answers.',
  fields: (t) => ({ earliest: t.exposeString('earliest', { nullable: true }), latest: t.exposeString('latest', { nullable: true }) }),
});

const PromoterScoreRef = builder.objectRef<PromoterScore>('PromoterScore').implement({
  description: 'An NPS question: promoters (9–10), passives (7–8), detractors (0–6) and the score.',
  fields: (t) => ({
    promoters: t.exposeInt('promoters'),
    passives: t.exposeInt('passives'),
    detractors: t.exposeInt('detractors'),
    score: t.exposeFloat('score', { nullable: true, description: '% promoters − % detractors, from −100 to 100; null without answers.' }),
  }),
});

const RowSummaryRef = builder.objectRef<RowSummary>('RowSummary').implement({
  description: 'One part of a question: a Matrix row and the count of each column, or a Ranking option and the count of each position.',
  fields: (t) => ({
    row: t.exposeString('row', { description: 'The Matrix row, or the Ranking option.' }),
    options: t.field({
      type: [OptionCountRef],
      description: 'Matrix: every column with its count; Ranking: every position ("1" first) with its count.',
      resolve: (r) => r.options,
    }),
    mean: t.exposeFloat('mean', { nullable: true, description: 'Ranking: the mean position (1 is first); null for a Matrix and without answers.' }),
  }),
});

const QuestionSummaryRef = builder.objectRef<QuestionSummary>('QuestionSummary').implement({
  description: 'Answers to one question of the form.',
  fields: (t) => ({
    questionId: t.exposeID('questionId'),
    stepId: t.exposeID('stepId'),
    type: t.exposeString('type', { description: 'The component type.' }),
    headline: t.exposeString('headline', { nullable: true, description: 'The question text, if it has one.' }),
    answers: t.exposeInt('answers', { description: 'Responses that answered it.' }),
    options: t.field({
      type: [OptionCountRef],
      nullable: true,
      description:
        "Choice types (Dropdown, MultipleOptionsQuestion, GraphicOptions, Disclaimer): every option with how often it was chosen, in the form's order (options since removed from the form last); scales (Rating, NPS, OpinionScale): every value of the scale with its count; Date: the count per month (YYYY-MM, in order); null for other types.",
      resolve: (q) => q.options,
    }),
    numbers: t.field({
      type: NumberStatisticsRef,
      nullable: true,
      description: 'Numeric types (Rating, NPS, OpinionScale, Number): count, mean, median, min, max; null for other types.',
      resolve: (q) => q.numbers,
    }),
    dates: t.field({ type: DateRangeRef, nullable: true, description: 'Date: the earliest and latest answers; null for other types.', resolve: (q) => q.dates }),
    rows: t.field({
      type: [RowSummaryRef],
      nullable: true,
      description: 'Matrix: per row, the count per column; Ranking: per option, the count per position and the mean position; null for other types (then `options` is null too).',
      resolve: (q) => q.rows,
    }),
    promoterScore: t.field({
      type: PromoterScoreRef,
      nullable: true,
      description: 'NPS: promoters, passives, detractors and the score; null for other types.',
      resolve: (q) => q.promoterScore,
    }),
  }),
});

const VersionCountRef = builder.objectRef<VersionCount>('VersionCount').implement({
  description: 'How many responses answered one version of the form.',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'The version the responses started on (`meta.formVersion`).' }),
    total: t.exposeInt('total', { description: 'Responses started on it.' }),
    finished: t.exposeInt('finished', { description: 'Of those, the completed ones.' }),
  }),
});

const VariableSummaryRef = builder.objectRef<VariableSummary>('VariableSummary').implement({
  description: 'A number variable over the finished responses that recorded it.',
  fields: (t) => ({
    name: t.exposeString('name'),
    count: t.exposeInt('count'),
    mean: t.exposeFloat('mean', { nullable: true }),
    min: t.exposeFloat('min', { nullable: true }),
    max: t.exposeFloat('max', { nullable: true }),
  }),
});

const LanguageCountRef = builder.objectRef<LanguageCount>('LanguageCount').implement({
  description: 'How many responses were answered in one language of the form (one set of answers: the other counts aggregate across languages).',
  fields: (t) => ({
    language: t.exposeString('language', { description: 'The language (`meta.language`; the default language for responses without one).' }),
    total: t.exposeInt('total', { description: 'Responses answered in it.' }),
    finished: t.exposeInt('finished', { description: 'Of those, the completed ones.' }),
  }),
});

const FormSummaryRef = builder.objectRef<SummaryShape>('FormSummary').implement({
  description: "Counts over a form's responses, computed by the database. Status follows the responses' `status`: finished (4), in progress (2), dropped off (3), invalid (5).",
  fields: (t) => ({
    total: t.int({ description: 'Responses started.', resolve: async (s, _, ctx) => (await countsOf(s, ctx)).total }),
    finished: t.int({ description: 'Completed responses (status 4).', resolve: async (s, _, ctx) => (await countsOf(s, ctx)).finished }),
    invalid: t.int({
      description: 'Responses that ended at an invalid step or action (status 5): neither completed nor dropped off.',
      resolve: async (s, _, ctx) => (await countsOf(s, ctx)).invalid,
    }),
    partial: t.int({
      description: 'Unfinished responses: in progress plus dropped off (not invalid).',
      resolve: async (s, _, ctx) => {
        const c = await countsOf(s, ctx);
        return c.inProgress + c.droppedOff;
      },
    }),
    inProgress: t.int({ description: 'Unfinished and touched within the drop-off time (status 2).', resolve: async (s, _, ctx) => (await countsOf(s, ctx)).inProgress }),
    droppedOff: t.int({ description: 'Unfinished and untouched for the drop-off time (status 3).', resolve: async (s, _, ctx) => (await countsOf(s, ctx)).droppedOff }),
    completionRate: t.float({
      description: 'finished / total, from 0 to 1; 0 when there are no responses.',
      resolve: async (s, _, ctx) => {
        const c = await countsOf(s, ctx);
        return c.total === 0 ? 0 : c.finished / c.total;
      },
    }),
    steps: t.field({
      type: [StepReachRef],
      description: "Per step, in order, how many responses reached it: where respondents drop off. The current version's steps (with a `version` filter, that version's).",
      resolve: (s, _, ctx) => summaryLoader(ctx, 'steps', s.filter, async (db, forms) => summarySteps(db, await withSteps(ctx, forms), s.filter)).load(s.form),
    }),
    questions: t.field({
      type: [QuestionSummaryRef],
      description:
        "Per answerable question, in form order: its answer count and, for choice types, the count per option. The current version's questions (with a `version` filter, that version's).",
      resolve: (s, _, ctx) => summaryLoader(ctx, 'questions', s.filter, async (db, forms) => summaryQuestions(db, await withSteps(ctx, forms), s.filter)).load(s.form),
    }),
    variables: t.field({
      type: [VariableSummaryRef],
      description: 'Each number variable of the form over its finished responses: count, mean, min, max.',
      resolve: (s, _, ctx) => summaryLoader(ctx, 'variables', s.filter, (db, forms) => summaryVariables(db, forms, s.filter)).load(s.form),
    }),
    versions: t.field({
      type: [VersionCountRef],
      description: 'How many responses answered each version of the form, newest version first (versions no response answered are left out).',
      resolve: (s, _, ctx) =>
        summaryLoader(ctx, 'versions', s.filter, (db, forms) =>
          summaryVersions(
            db,
            forms.map((f) => f.id),
            s.filter,
          ),
        ).load(s.form),
    }),
    languages: t.field({
      type: [LanguageCountRef],
      description: 'How many responses were answered in each language, the default language first (languages no response used are left out).',
      resolve: (s, _, ctx) => summaryLoader(ctx, 'languages', s.filter, (db, forms) => summaryLanguages(db, forms, s.filter)).load(s.form),
    }),
  }),
});

builder.objectFields(FormRef, (t) => ({
  summary: t.field({
    authScopes: { scope: 'responses:read' },
    type: FormSummaryRef,
    description: "A summary of the form's responses (finished and unfinished), computed by the database.",
    args: {
      filter: t.arg({ type: SummaryFilterInput }),
    },
    complexity: SUMMARY_COST,
    resolve: async (form, args, ctx) => {
      const filter = args.filter ?? {};
      const errors = dateRangeProblems(filter, (bound) => ['filter', bound]);
      const version = filter.version ?? undefined;
      if (version !== undefined && (version < 1 || version > form.version)) {
        errors.push({ message: `version must be one of the form's versions, 1 to ${form.version}`, path: ['filter', 'version'] });
      }
      const language = filter.language == null ? undefined : filterLanguage(filter.language);
      if (filter.language != null && language === undefined) errors.push({ message: `language ${LANGUAGE_FILTER_MESSAGE}`, path: ['filter', 'language'] });
      if (errors.length > 0) throw invalidArguments(errors);
      const summaryFilter = { since: filter.since ?? undefined, until: filter.until ?? undefined, dateField: filter.dateField ?? 'createdAt', version, language };
      // A version's summary counts its questions and steps, as it asked them.
      const summarised = version === undefined ? form : await formAtVersion(ctx.db, await formWithSteps(ctx, form), version);
      if (!summarised) throw invalidArguments([{ message: 'No such version of the form', path: ['filter', 'version'] }]);
      return { form: summarised, filter: summaryFilter };
    },
  }),
}));
