/**
 * How a form (or every form of an environment) is doing, read from the insight counters
 * (counters.service.ts), never by scanning responses: views, starts, finishes, invalid, the rates, per
 * step reached / left here / drop-off, the time to complete, a time series in a time zone and the
 * breakdowns by device class, referrer host, hidden-field value and language. Two statements.
 *
 * The counters are per UTC hour: a period or a `since`/`until` that does not fall on a UTC hour (a
 * zone whose offset is not whole hours) takes the hours it starts in.
 */
import { and, eq, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { formInsightCounts } from '../db/schema.ts';
import type { StoredStep } from '../db/json-columns.ts';
import type { FieldError } from '../errors.ts';
import { LOGIC_LIMITS, stepKey } from '../forms/logic.ts';
import { unsafeStringProblem } from '../limits/json-safety.ts';
import { rowsOf } from '../db/rows.ts';
import { isListableInstant, UNLISTABLE_INSTANT } from '../responses/responses.service.ts';
import { DEVICE_CLASSES, type DeviceClass } from './dimensions.ts';
import {
  isTimeZone,
  localDate,
  nextPeriod,
  periodStart,
  PERIODS,
  startOfLocalDate,
  type Period,
} from './time-zones.ts';

/** Breakdowns list at most this many referrer hosts and values per hidden field (the most viewed first). */
export const TOP_VALUES = 20;
/** A series holds at most this many periods. */
export const MAX_PERIODS = 1000;
/** At most this many hidden-field filters. */
const MAX_HIDDEN_FILTERS = 10;
const HOUR_MS = 3_600_000;

/** The arguments as a client sends them (REST query parameters, GraphQL's filter). */
export interface InsightsArguments {
  since?: string | null | undefined;
  until?: string | null | undefined;
  timeZone?: string | null | undefined;
  groupBy?: string | null | undefined;
  device?: string | null | undefined;
  language?: string | null | undefined;
  hidden?: readonly { name: string; value: string }[] | null | undefined;
}

export interface InsightsQuery {
  since: Date | undefined;
  until: Date | undefined;
  timeZone: string;
  groupBy: Period;
  device: DeviceClass | undefined;
  language: string | undefined;
  hidden: Record<string, string>;
}

/** A date (2026-12-01, midnight in the time zone) or a date-time with its offset (2026-12-01T09:30:00Z, …+01:00). */
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

function instantOf(text: string, timeZone: string): Date | undefined {
  if (DATE.test(text)) {
    const day = new Date(`${text}T00:00:00Z`);
    // 2026-02-30 is not a date.
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text) return undefined;
    return startOfLocalDate(timeZone, text);
  }
  if (!DATE_TIME.test(text)) return undefined;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * Checks and reads the arguments; each problem at `at(name)` (REST: the query parameter, GraphQL: the
 * filter's field), a hidden filter at `at('hidden', name)`.
 */
export function parseInsightsArguments(
  args: InsightsArguments,
  at: (name: string, hiddenName?: string) => (string | number)[],
): { query: InsightsQuery } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const timeZone = args.timeZone ?? 'UTC';
  if (!isTimeZone(timeZone))
    errors.push({ message: 'timeZone must be an IANA time zone, such as Europe/Berlin or UTC', path: at('timeZone') });
  const groupBy = (args.groupBy ?? 'day') as Period;
  if (!PERIODS.includes(groupBy))
    errors.push({ message: `groupBy must be one of ${PERIODS.join(', ')}`, path: at('groupBy') });
  const bounds: Partial<Record<'since' | 'until', Date>> = {};
  for (const bound of ['since', 'until'] as const) {
    const text = args[bound];
    if (text === undefined || text === null) continue;
    const instant = text.length <= 40 ? instantOf(text, errors.length === 0 ? timeZone : 'UTC') : undefined;
    if (!instant)
      errors.push({
        message: `${bound} must be a date (2026-12-01) or a date-time with its offset (2026-12-01T09:30:00Z)`,
        path: at(bound),
      });
    else if (!isListableInstant(instant)) errors.push({ message: `${bound} ${UNLISTABLE_INSTANT}`, path: at(bound) });
    else bounds[bound] = instant;
  }
  if (bounds.since && bounds.until && bounds.since >= bounds.until)
    errors.push({ message: 'until must be later than since', path: at('until') });
  const device = args.device ?? undefined;
  if (device !== undefined && !(DEVICE_CLASSES as readonly string[]).includes(device)) {
    errors.push({ message: `device must be one of ${DEVICE_CLASSES.join(', ')}`, path: at('device') });
  }
  const language = args.language ?? undefined;
  if (language !== undefined && (language.length === 0 || language.length > 35 || !/^[A-Z0-9-]+$/i.test(language))) {
    errors.push({ message: 'language must be a language tag, such as en or pt-BR', path: at('language') });
  }
  const hidden: Record<string, string> = {};
  const filters = args.hidden ?? [];
  if (filters.length > MAX_HIDDEN_FILTERS)
    errors.push({ message: `At most ${MAX_HIDDEN_FILTERS} hidden-field filters`, path: at('hidden') });
  for (const { name, value } of filters.slice(0, MAX_HIDDEN_FILTERS)) {
    const problem =
      name.length === 0 || name.length > 64 || unsafeStringProblem(name)
        ? 'A hidden field name is 1 to 64 characters'
        : value.length > LOGIC_LIMITS.maxValueLength || unsafeStringProblem(value)
          ? `A hidden field value is at most ${LOGIC_LIMITS.maxValueLength} characters, without NUL or unpaired surrogates`
          : name in hidden && hidden[name] !== value
            ? 'A hidden field can be filtered on one value'
            : undefined;
    if (problem) errors.push({ message: problem, path: at('hidden', name) });
    else hidden[name] = value;
  }
  if (errors.length > 0) return { errors };
  const query: InsightsQuery = {
    since: bounds.since,
    until: bounds.until,
    timeZone,
    groupBy,
    device: device as DeviceClass | undefined,
    language,
    hidden,
  };
  const periods = query.since && query.until ? periodCount(query) : 0;
  if (periods > MAX_PERIODS) {
    return {
      errors: [
        {
          message: `A series of ${periods} periods is too long (at most ${MAX_PERIODS}): group by a longer period or ask for a shorter range`,
          path: at('groupBy'),
        },
      ],
    };
  }
  return { query };
}

function periodCount(query: InsightsQuery): number {
  const last = periodStart(localDate(query.timeZone, query.until!.getTime() - 1), query.groupBy);
  let count = 0;
  for (
    let at = periodStart(localDate(query.timeZone, query.since!.getTime()), query.groupBy);
    at <= last && count <= MAX_PERIODS;
    at = nextPeriod(at, query.groupBy)
  )
    count++;
  return count;
}

// ---------------------------------------------------------------- figures

export interface Counts {
  views: number;
  starts: number;
  finishes: number;
}
export interface BreakdownRow extends Counts {
  value: string;
}
export interface StepFigures {
  key: string;
  name: string;
  reached: number;
  leftHere: number;
  /** leftHere / reached; null when no response reached it. */
  dropOffRate: number | null;
}
export interface Insights extends Counts {
  since: Date | undefined;
  until: Date | undefined;
  timeZone: string;
  groupBy: Period;
  invalid: number;
  /** starts / views; null without views. */
  startRate: number | null;
  /** finishes / starts; null without starts. */
  completionRate: number | null;
  /** Seconds from start to finish; null without finishes. */
  timeToComplete: { median: number; p90: number } | null;
  steps: StepFigures[];
  series: (Counts & { period: string })[];
  devices: BreakdownRow[];
  referrers: BreakdownRow[];
  languages: BreakdownRow[];
  hiddenFields: { name: string; values: BreakdownRow[] }[];
}

/** Whose counters: one form (with its steps), or every live form of an environment. */
export type InsightsScope = { formId: string; steps: readonly StoredStep[] } | { environmentId: string; formIds?: readonly string[] | undefined };

const SERIES_METRICS = ['views', 'starts', 'finishes'];

function conditionsOf(scope: InsightsScope, query: InsightsQuery): SQL {
  const c = formInsightCounts;
  return and(
    'formId' in scope
      ? eq(c.formId, scope.formId)
      : and(
          eq(c.environmentId, scope.environmentId),
          scope.formIds === undefined ? undefined : inArray(c.formId, [...scope.formIds, '']),
          sql`exists (select 1 from forms f where f.id = ${c.formId} and f.deleted_at is null)`,
        ),
    // An hour counts when it overlaps [since, until).
    query.since ? gt(c.hour, new Date(query.since.getTime() - HOUR_MS)) : undefined,
    query.until ? lt(c.hour, query.until) : undefined,
    query.device ? eq(c.device, query.device) : undefined,
    query.language ? eq(c.language, query.language) : undefined,
    Object.keys(query.hidden).length > 0 ? sql`${c.hidden} @> ${JSON.stringify(query.hidden)}::jsonb` : undefined,
  )!;
}

interface FigureRow {
  kind: string;
  metric: string;
  value: string | null;
  hour: string | Date | null;
  n: string | number;
}

/** The insights of `scope` for `query`. */
export async function readInsights(db: Db, scope: InsightsScope, query: InsightsQuery): Promise<Insights> {
  const where = conditionsOf(scope, query);
  const c = formInsightCounts;
  const series = inArray(c.metric, SERIES_METRICS);
  const result = await db.execute(sql`
    select 'total' as kind, ${c.metric} as metric, null::text as value, null::timestamptz as hour, sum(${c.count}) as n
      from ${c} where ${where} group by ${c.metric}
    union all
    select case when grouping(${c.hour}) = 0 then 'hour' when grouping(${c.device}) = 0 then 'device' when grouping(${c.referrer}) = 0 then 'referrer' else 'language' end,
        ${c.metric}, coalesce(${c.device}, ${c.referrer}, ${c.language}), ${c.hour}, sum(${c.count})
      from ${c} where ${where} and ${series}
      group by grouping sets ((${c.metric}, ${c.hour}), (${c.metric}, ${c.device}), (${c.metric}, ${c.referrer}), (${c.metric}, ${c.language}))
    union all
    select 'hidden:' || h.key, ${c.metric}, h.value, null, sum(${c.count})
      from ${c}, jsonb_each_text(${c.hidden}) as h(key, value) where ${where} and ${series}
      group by h.key, h.value, ${c.metric}`);
  return figuresOf(scope, query, rowsOf<FigureRow>(result));
}

const zero = (): Counts => ({ views: 0, starts: 0, finishes: 0 });
const add = (counts: Counts, metric: string, n: number) => {
  if (metric === 'views' || metric === 'starts' || metric === 'finishes') counts[metric] += n;
};
const rate = (part: number, whole: number) => (whole === 0 ? null : part / whole);

function figuresOf(scope: InsightsScope, query: InsightsQuery, rows: FigureRow[]): Insights {
  const totals = new Map<string, number>();
  const hours = new Map<number, Counts>();
  const breakdowns = new Map<string, Map<string, Counts>>();
  for (const row of rows) {
    const n = Number(row.n);
    if (row.kind === 'total') totals.set(row.metric, n);
    else if (row.kind === 'hour') {
      const hour = new Date(row.hour!).getTime();
      const counts = hours.get(hour) ?? zero();
      add(counts, row.metric, n);
      hours.set(hour, counts);
    } else {
      const values = breakdowns.get(row.kind) ?? new Map<string, Counts>();
      const counts = values.get(row.value ?? '') ?? zero();
      add(counts, row.metric, n);
      values.set(row.value ?? '', counts);
      breakdowns.set(row.kind, values);
    }
  }
  const total = (metric: string) => totals.get(metric) ?? 0;
  const views = total('views');
  const starts = total('starts');
  const finishes = total('finishes');
  const steps =
    'formId' in scope
      ? scope.steps.map((step, index) => {
          const key = stepKey(step, index);
          const reached = total(`reached:${key}`);
          const leftHere = total(`left:${key}`);
          return { key, name: step.name, reached, leftHere, dropOffRate: rate(leftHere, reached) };
        })
      : [];
  const devices = new Map(
    DEVICE_CLASSES.map((device) => [device, breakdowns.get('device')?.get(device) ?? zero()] as const),
  );
  return {
    since: query.since,
    until: query.until,
    timeZone: query.timeZone,
    groupBy: query.groupBy,
    views,
    starts,
    finishes,
    invalid: total('invalid'),
    startRate: rate(starts, views),
    completionRate: rate(finishes, starts),
    timeToComplete: timeToCompleteOf(totals),
    steps,
    series: seriesOf(query, hours),
    devices: [...devices].map(([value, counts]) => ({ value, ...counts })),
    referrers: topValues(breakdowns.get('referrer')),
    languages: topValues(breakdowns.get('language'), Number.POSITIVE_INFINITY),
    hiddenFields: [...breakdowns]
      .filter(([kind]) => kind.startsWith('hidden:'))
      .map(([kind, values]) => ({ name: kind.slice('hidden:'.length), values: topValues(values) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

/** The most viewed values first (then most started, then by value), at most `limit`. */
function topValues(values: Map<string, Counts> | undefined, limit = TOP_VALUES): BreakdownRow[] {
  return [...(values ?? [])]
    .map(([value, counts]) => ({ value, ...counts }))
    .sort((a, b) => b.views - a.views || b.starts - a.starts || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, limit);
}

/** Median and 90th percentile (nearest rank: the smallest time at least that share of finishes took) of the counted times. */
function timeToCompleteOf(totals: Map<string, number>): Insights['timeToComplete'] {
  const times = [...totals]
    .filter(([metric, n]) => metric.startsWith('ttc:') && n > 0)
    .map(([metric, n]) => [Number(metric.slice(4)), n] as const)
    .sort((a, b) => a[0] - b[0]);
  const count = times.reduce((sum, [, n]) => sum + n, 0);
  if (count === 0) return null;
  const percentile = (p: number) => {
    const rank = Math.ceil(p * count);
    let seen = 0;
    for (const [seconds, n] of times) if ((seen += n) >= rank) return seconds;
    return times.at(-1)![0];
  };
  return { median: percentile(0.5), p90: percentile(0.9) };
}

/** Views, starts and finishes per period in the time zone: every period from since (or the first counted) to until (or the last counted). */
function seriesOf(query: InsightsQuery, hours: Map<number, Counts>): Insights['series'] {
  const byPeriod = new Map<string, Counts>();
  for (const [hour, counts] of hours) {
    const period = periodStart(localDate(query.timeZone, hour), query.groupBy);
    const sum = byPeriod.get(period) ?? zero();
    sum.views += counts.views;
    sum.starts += counts.starts;
    sum.finishes += counts.finishes;
    byPeriod.set(period, sum);
  }
  const known = [...byPeriod.keys()].sort();
  const first = query.since ? periodStart(localDate(query.timeZone, query.since.getTime()), query.groupBy) : known[0];
  const last = query.until
    ? periodStart(localDate(query.timeZone, query.until.getTime() - 1), query.groupBy)
    : known.at(-1);
  if (first === undefined || last === undefined) return [];
  const series: Insights['series'] = [];
  for (let period = first; period <= last && series.length < MAX_PERIODS; period = nextPeriod(period, query.groupBy)) {
    series.push({ period, ...(byPeriod.get(period) ?? zero()) });
  }
  return series;
}
