/**
 * How a form (or every form of an environment) is doing, read from the insight counters
 * (counters.service.ts), never by scanning responses: views, starts, finishes, invalid, the rates, per
 * step reached / left here / drop-off, the time to complete, a time series in a time zone and the
 * breakdowns by device class, referrer host, hidden-field value and language. One or two statements.
 *
 * The counters are per UTC hour (`form_insight_counts`) and, summed by a trigger, per UTC day
 * (`form_insight_days`): a read takes the day rows of the whole UTC days in its range and the hour rows
 * of the partial days at its edges, so it reads about (days × segments × metrics) rows, not hours. A
 * time zone whose period boundaries cut UTC days (any zone but UTC) moves the hours on the other side
 * of a boundary from their day's period to theirs: at most 12 hours a day, series metrics only. A
 * period or a `since`/`until` that does not fall on a UTC hour (a zone whose offset is not whole hours)
 * takes the hours it starts in.
 */
import { and, eq, gt, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { formInsightCounts, formInsightDays } from '../db/schema.ts';
import type { StoredStep } from '../db/json-columns.ts';
import type { FieldError } from '../errors.ts';
import { LOGIC_LIMITS, stepKey } from '../forms/logic.ts';
import { unsafeStringProblem } from '../limits/json-safety.ts';
import { rowsOf } from '../db/rows.ts';
import { isListableInstant, UNLISTABLE_INSTANT } from '../responses/responses.service.ts';
import { DEVICE_CLASSES, type DeviceClass } from './dimensions.ts';
import { isTimeZone, localDate, nextPeriod, periodStart, PERIODS, hourPeriodsOfDay, startOfLocalDate, type Period } from './time-zones.ts';

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
  if (!isTimeZone(timeZone)) errors.push({ message: 'timeZone must be an IANA time zone, such as Europe/Berlin or UTC', path: at('timeZone') });
  const groupBy = (args.groupBy ?? 'day') as Period;
  if (!PERIODS.includes(groupBy)) errors.push({ message: `groupBy must be one of ${PERIODS.join(', ')}`, path: at('groupBy') });
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
  if (bounds.since && bounds.until && bounds.since >= bounds.until) errors.push({ message: 'until must be later than since', path: at('until') });
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
  if (filters.length > MAX_HIDDEN_FILTERS) errors.push({ message: `At most ${MAX_HIDDEN_FILTERS} hidden-field filters`, path: at('hidden') });
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
  for (let at = periodStart(localDate(query.timeZone, query.since!.getTime()), query.groupBy); at <= last && count <= MAX_PERIODS; at = nextPeriod(at, query.groupBy)) count++;
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
const DAY_MS = 24 * HOUR_MS;

/** The filters of `scope` and `query` on one of the counter tables (`time` its hour or day column). */
function filtersOf(table: typeof formInsightCounts | typeof formInsightDays, scope: InsightsScope, query: InsightsQuery): SQL {
  return and(
    'formId' in scope
      ? eq(table.formId, scope.formId)
      : and(
          eq(table.environmentId, scope.environmentId),
          scope.formIds === undefined ? undefined : inArray(table.formId, [...scope.formIds, '']),
          sql`exists (select 1 from forms f where f.id = ${table.formId} and f.deleted_at is null)`,
        ),
    query.device ? eq(table.device, query.device) : undefined,
    query.language ? eq(table.language, query.language) : undefined,
    Object.keys(query.hidden).length > 0 ? sql`${table.hidden} @> ${JSON.stringify(query.hidden)}::jsonb` : undefined,
  )!;
}

/**
 * Which rows a range reads: the day rows of the UTC days wholly inside it, and the hour rows of the
 * partial days at its edges (an hour counts when it overlaps [since, until)).
 */
function rangeOf(query: InsightsQuery): { days: SQL; hours: SQL | undefined } {
  const d = formInsightDays;
  const c = formInsightCounts;
  const since = query.since?.getTime();
  const until = query.until?.getTime();
  const firstDay = since === undefined ? undefined : Math.ceil(since / DAY_MS) * DAY_MS;
  const endDay = until === undefined ? undefined : Math.floor(until / DAY_MS) * DAY_MS;
  if (firstDay !== undefined && endDay !== undefined && firstDay >= endDay) {
    return { days: sql`false`, hours: and(gt(c.hour, new Date(since! - HOUR_MS)), lt(c.hour, new Date(until!)))! };
  }
  const edges = [
    since !== undefined && since < firstDay! ? and(gt(c.hour, new Date(since - HOUR_MS)), lt(c.hour, new Date(firstDay!))) : undefined,
    until !== undefined && until > endDay! ? and(gte(c.hour, new Date(endDay!)), lt(c.hour, new Date(until))) : undefined,
  ].filter((edge) => edge !== undefined);
  return {
    days: and(firstDay === undefined ? undefined : gte(d.day, new Date(firstDay)), endDay === undefined ? undefined : lt(d.day, new Date(endDay))) ?? sql`true`,
    hours: edges.length === 0 ? undefined : or(...edges),
  };
}

interface FigureRow {
  kind: string;
  metric: string;
  value: string | null;
  at: string | Date | null;
  n: string | number;
}

/**
 * The insights of `scope` for `query`: one statement over the day rows and the edges' hour rows
 * (separate hash aggregates, no sort), and a second for the hours of the days a period boundary of the
 * time zone splits, when there are any.
 */
export async function readInsights(db: Db, scope: InsightsScope, query: InsightsQuery): Promise<Insights> {
  const d = formInsightDays;
  const c = formInsightCounts;
  const range = rangeOf(query);
  const columns = sql`metric, device, language, referrer, hidden, count`;
  const dayWhere = sql`${filtersOf(d, scope, query)} and ${range.days}`;
  const hourWhere = range.hours ? sql`${filtersOf(c, scope, query)} and (${range.hours})` : undefined;
  const seriesMetrics = sql`metric in ('views', 'starts', 'finishes')`;
  // Totals of every metric straight from the rows; the breakdowns over the series metrics' rows alone.
  const result = await db.execute(sql`
    with series as materialized (
      select 'day' as grain, ${d.day} as at, ${columns} from ${d} where ${dayWhere} and ${seriesMetrics}
      ${hourWhere ? sql`union all select 'hour', ${c.hour}, ${columns} from ${c} where ${hourWhere} and ${seriesMetrics}` : sql``}
    )
    select 'total' as kind, metric, null::text as value, null::timestamptz as at, sum(n) as n from (
      select metric, sum(count) as n from ${d} where ${dayWhere} group by metric
      ${hourWhere ? sql`union all select metric, sum(count) from ${c} where ${hourWhere} group by metric` : sql``}
    ) as totals group by metric
    union all select grain, metric, null, at, sum(count) from series group by grain, at, metric
    union all select 'device', metric, device, null, sum(count) from series group by metric, device
    union all select 'referrer', metric, referrer, null, sum(count) from series group by metric, referrer
    union all select 'language', metric, language, null, sum(count) from series group by metric, language
    union all select 'hidden:' || h.key, metric, h.value, null, sum(count)
      from series, jsonb_each_text(series.hidden) as h(key, value) group by h.key, h.value, metric`);
  const rows = rowsOf<FigureRow>(result);
  const split = splitDaysOf(query, rows);
  if (split.moved.size > 0) {
    const moved = await db.execute(sql`
      select 'move' as kind, metric, null as value, ${c.hour} as at, sum(count) as n from ${c}
      where ${filtersOf(c, scope, query)} and ${inArray(c.metric, SERIES_METRICS)}
        and ${c.hour} = any(${`{${[...split.moved.keys()].map((at) => new Date(at).toISOString()).join(',')}}`}::timestamptz[])
      group by ${c.hour}, metric`);
    rows.push(...rowsOf<FigureRow>(moved));
  }
  return figuresOf(scope, query, rows, split);
}

/** A moved hour: its day's period (where the day row counted it) and its own. */
interface MovedHour {
  from: string;
  to: string;
}

/** Each day row's period (the one most of its hours fall in) and the hours of another period, by start (ms). */
interface SplitDays {
  dayPeriods: Map<number, string>;
  moved: Map<number, MovedHour>;
}

function splitDaysOf(query: InsightsQuery, rows: FigureRow[]): SplitDays {
  const split: SplitDays = { dayPeriods: new Map(), moved: new Map() };
  for (const row of rows) {
    if (row.kind !== 'day') continue;
    const day = new Date(row.at!).getTime();
    if (split.dayPeriods.has(day)) continue;
    const periods = hourPeriodsOfDay(query.timeZone, day, query.groupBy);
    const from = majorityOf(periods);
    split.dayPeriods.set(day, from);
    periods.forEach((to, hour) => {
      if (to !== from) split.moved.set(day + hour * HOUR_MS, { from, to });
    });
  }
  return split;
}

function majorityOf(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

const zero = (): Counts => ({ views: 0, starts: 0, finishes: 0 });
const add = (counts: Counts, metric: string, n: number) => {
  if (metric === 'views' || metric === 'starts' || metric === 'finishes') counts[metric] += n;
};
const rate = (part: number, whole: number) => (whole === 0 ? null : part / whole);

function figuresOf(scope: InsightsScope, query: InsightsQuery, rows: FigureRow[], split: SplitDays): Insights {
  const totals = new Map<string, number>();
  const periods = new Map<string, Counts>();
  const count = (period: string, metric: string, n: number) => {
    const counts = periods.get(period) ?? zero();
    add(counts, metric, n);
    periods.set(period, counts);
  };
  const breakdowns = new Map<string, Map<string, Counts>>();
  for (const row of rows) {
    const n = Number(row.n);
    const at = row.at === null ? 0 : new Date(row.at).getTime();
    if (row.kind === 'total') totals.set(row.metric, n);
    else if (row.kind === 'day') count(split.dayPeriods.get(at)!, row.metric, n);
    else if (row.kind === 'hour') count(periodStart(localDate(query.timeZone, at), query.groupBy), row.metric, n);
    else if (row.kind === 'move') {
      const { from, to } = split.moved.get(at)!;
      count(from, row.metric, -n);
      count(to, row.metric, n);
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
  const devices = new Map(DEVICE_CLASSES.map((device) => [device, breakdowns.get('device')?.get(device) ?? zero()] as const));
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
    series: seriesOf(query, periods),
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
function seriesOf(query: InsightsQuery, byPeriod: Map<string, Counts>): Insights['series'] {
  const known = [...byPeriod.keys()].sort();
  const first = query.since ? periodStart(localDate(query.timeZone, query.since.getTime()), query.groupBy) : known[0];
  const last = query.until ? periodStart(localDate(query.timeZone, query.until.getTime() - 1), query.groupBy) : known.at(-1);
  if (first === undefined || last === undefined) return [];
  const series: Insights['series'] = [];
  for (let period = first; period <= last && series.length < MAX_PERIODS; period = nextPeriod(period, query.groupBy)) {
    series.push({ period, ...(byPeriod.get(period) ?? zero()) });
  }
  return series;
}
