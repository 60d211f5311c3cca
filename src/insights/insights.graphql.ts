/**
 * `Form.insights` and the `Insights` type (`Environment.insights` is in src/environments/): views,
 * conversion, drop-off and time to complete, read from the insight counters (insights.service.ts).
 */
import { FormRef, formWithSteps } from '../forms/forms.graphql.ts';
import { builder } from '../graphql/builder.ts';
import { lagTolerantReads } from '../graphql/context.ts';
import { invalidArguments, ROW_COST } from '../graphql/pagination.ts';
import { DEVICE_CLASSES } from './dimensions.ts';
import { parseInsightsArguments, readInsights, type BreakdownRow, type Insights, type InsightsScope, type StepFigures } from './insights.service.ts';
import type { GraphQLContext } from '../graphql/context.ts';

/** Insights read a few counter rows per hour and segment: priced like two response rows, as a summary is. */
export const INSIGHTS_COST = 2 * ROW_COST;

const InsightsGroupByEnum = builder.enumType('InsightsGroupBy', {
  description: 'The period of a series: a day, an ISO week (from Monday) or a month, in the time zone.',
  values: { DAY: { value: 'day' }, WEEK: { value: 'week' }, MONTH: { value: 'month' } } as const,
});

const DeviceClassEnum = builder.enumType('DeviceClass', {
  description: "A respondent's device class, from the User-Agent (no User-Agent, or an unknown one, is desktop).",
  values: Object.fromEntries(DEVICE_CLASSES.map((device) => [device.toUpperCase(), { value: device }])) as Record<
    'DESKTOP' | 'MOBILE' | 'TABLET',
    { value: (typeof DEVICE_CLASSES)[number] }
  >,
});

const HiddenFieldValueInput = builder.inputType('HiddenFieldValueInput', {
  description: 'A hidden field and the value it must have.',
  fields: (t) => ({ name: t.string({ required: true }), value: t.string({ required: true }) }),
});

export const InsightsFilterInput = builder.inputType('InsightsFilter', {
  description: 'What insights count: a time range, the time zone and period of the series, and filters on the dimensions.',
  fields: (t) => ({
    since: t.string({
      description: 'From this date (2026-12-01: its midnight in `timeZone`) or date-time with its offset (2026-12-01T09:30:00Z).',
    }),
    until: t.string({ description: 'Before this date or date-time (as `since`).' }),
    timeZone: t.string({
      defaultValue: 'UTC',
      description: 'The IANA time zone of dates and periods (Europe/Berlin); defaults to UTC.',
    }),
    groupBy: t.field({
      type: InsightsGroupByEnum,
      defaultValue: 'day',
      description: 'The period of the series; defaults to DAY.',
    }),
    device: t.field({ type: DeviceClassEnum, description: 'Only this device class.' }),
    language: t.string({ description: 'Only respondents who saw the form in this language (its locale).' }),
    hidden: t.field({
      type: [HiddenFieldValueInput],
      description: 'Only views and responses with these hidden-field values (all of them).',
    }),
  }),
});

const BreakdownRowRef = builder.objectRef<BreakdownRow>('InsightsBreakdownRow').implement({
  description: "One value of a dimension (a device class, a referrer host, a hidden field's value, a language) and what it counted.",
  fields: (t) => ({
    value: t.exposeString('value', {
      description: "The value; '' is none (no referrer: typed in, a bookmark, an app).",
    }),
    views: t.exposeInt('views'),
    starts: t.exposeInt('starts'),
    finishes: t.exposeInt('finishes'),
  }),
});

const HiddenBreakdownRef = builder.objectRef<Insights['hiddenFields'][number]>('InsightsHiddenField').implement({
  description: "A hidden field's values (the 20 most viewed).",
  fields: (t) => ({
    name: t.exposeString('name'),
    values: t.field({ type: [BreakdownRowRef], resolve: (h) => h.values }),
  }),
});

const StepFiguresRef = builder.objectRef<StepFigures>('InsightsStep').implement({
  description: 'One step of the form (its current version) in the funnel.',
  fields: (t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    reached: t.exposeInt('reached', { description: 'Responses that went through the step or are at it.' }),
    leftHere: t.exposeInt('leftHere', {
      description: 'Unfinished, not invalid responses whose next step it is: the step they were looking at when they stopped.',
    }),
    dropOffRate: t.exposeFloat('dropOffRate', {
      nullable: true,
      description: 'leftHere / reached; null when no response reached it.',
    }),
  }),
});

const PeriodRef = builder.objectRef<Insights['series'][number]>('InsightsPeriod').implement({
  description: 'Views, starts and finishes of one period (responses count in the period they started in).',
  fields: (t) => ({
    period: t.exposeString('period', { description: "The period's first day in the time zone (YYYY-MM-DD)." }),
    views: t.exposeInt('views'),
    starts: t.exposeInt('starts'),
    finishes: t.exposeInt('finishes'),
  }),
});

const TimeToCompleteRef = builder.objectRef<NonNullable<Insights['timeToComplete']>>('TimeToComplete').implement({
  description: 'Seconds from start to finish of the completed responses (whole seconds; three significant digits from 1,000 s).',
  fields: (t) => ({
    median: t.exposeInt('median'),
    p90: t.exposeInt('p90', { description: 'The 90th percentile: 9 in 10 finished within it.' }),
  }),
});

export const InsightsRef = builder.objectRef<Insights>('Insights').implement({
  description:
    'How a form (or every form of an environment) is doing, from counters kept as views and responses happen. A response counts in the period it started in; deleting responses takes them off.',
  fields: (t) => ({
    since: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The range as read: its first instant.',
      resolve: (i) => i.since ?? null,
    }),
    until: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The instant the range ends (excluded).',
      resolve: (i) => i.until ?? null,
    }),
    timeZone: t.exposeString('timeZone'),
    groupBy: t.field({ type: InsightsGroupByEnum, resolve: (i) => i.groupBy }),
    views: t.exposeInt('views', {
      description: 'Views of the first step (page, embed, or reported with POST /s/<id>/views); bots that say so are not counted.',
    }),
    starts: t.exposeInt('starts', { description: 'Responses started.' }),
    finishes: t.exposeInt('finishes', { description: 'Responses completed.' }),
    invalid: t.exposeInt('invalid', { description: 'Responses that ended at an invalid step or action.' }),
    startRate: t.exposeFloat('startRate', {
      nullable: true,
      description: 'starts / views; null without views (above 1 when clients start responses without reporting views).',
    }),
    completionRate: t.exposeFloat('completionRate', {
      nullable: true,
      description: 'finishes / starts; null without starts.',
    }),
    timeToComplete: t.field({
      type: TimeToCompleteRef,
      nullable: true,
      description: 'null without finishes.',
      resolve: (i) => i.timeToComplete,
    }),
    steps: t.field({
      type: [StepFiguresRef],
      description: "Per step of the form's current version, in order (empty for an environment).",
      resolve: (i) => i.steps,
    }),
    series: t.field({
      type: [PeriodRef],
      description: 'Every period from since (or the first counted) to until (or the last counted).',
      resolve: (i) => i.series,
    }),
    devices: t.field({ type: [BreakdownRowRef], description: 'desktop, mobile, tablet.', resolve: (i) => i.devices }),
    referrers: t.field({
      type: [BreakdownRowRef],
      description: 'Referrer hosts, the 20 most viewed.',
      resolve: (i) => i.referrers,
    }),
    languages: t.field({
      type: [BreakdownRowRef],
      description: "The languages respondents saw (the form's locale).",
      resolve: (i) => i.languages,
    }),
    hiddenFields: t.field({
      type: [HiddenBreakdownRef],
      description: 'Per hidden field, by name, its 20 most viewed values.',
      resolve: (i) => i.hiddenFields,
    }),
  }),
});

type FilterArgs = typeof InsightsFilterInput.$inferInput | null | undefined;

/** Checks the filter (problems at `["filter", name]`) and reads the insights of `scope`. */
export async function resolveInsights(ctx: GraphQLContext, scope: InsightsScope, filter: FilterArgs): Promise<Insights> {
  const parsed = parseInsightsArguments(filter ?? {}, (name, hiddenName) => ['filter', name, ...(hiddenName === undefined ? [] : [hiddenName])]);
  if ('errors' in parsed) throw invalidArguments(parsed.errors);
  return lagTolerantReads(ctx).run((db) => readInsights(db, scope, parsed.query));
}

builder.objectFields(FormRef, (t) => ({
  insights: t.field({
    authScopes: { scope: 'forms:read' },
    type: InsightsRef,
    description: 'Views, conversion, drop-off per step and time to complete of the form, with a time series and breakdowns.',
    args: { filter: t.arg({ type: InsightsFilterInput }) },
    complexity: INSIGHTS_COST,
    resolve: async (form, args, ctx) => resolveInsights(ctx, { formId: form.id, steps: (await formWithSteps(ctx, form)).steps }, args.filter),
  }),
}));
