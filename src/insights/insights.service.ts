/**
 * How a form (or every form of an environment) is doing, read from the insight counters
 * (counters.service.ts), never by scanning responses: views, starts, finishes, invalid, the rates, per
 * step reached / left here / drop-off, the time to complete, a time series in a time zone and the
 * breakdowns by device class, referrer host, hidden-field value and language. One or two statements.
 *
 * The counters are per UTC hour and segment (`form_insight_counts`) and, summed by triggers in the
 * writer's statement, per UTC day (`form_insight_days`) and per UTC month (`form_insight_months`), and
 * per day and month of each slice (`form_insight_slice_days`, `form_insight_slice_months`): every segment
 * together, or the segments of one device, language, referrer or hidden value, with the times to
 * complete also by bucket. A read takes the month rows of the whole UTC months in its range, the day
 * rows of the other whole UTC days and the hour rows of the partial days at its edges (rollup-ranges.ts):
 * without a filter or with one, the slice's month and day rows (about (months + edge days) × (metrics +
 * time buckets) rows) and, for the breakdowns, every slice's or the filter's segments' rows of views,
 * starts and finishes; with several filters, the segments' rows. A series by day or week reads the day
 * rows of every whole day for its views, starts and finishes. A time zone whose period boundaries cut UTC
 * days or months (any zone but UTC) moves the hours on the other side of a boundary from their row's
 * period to theirs: at most 12 hours a day row, at most a day at each end of a month row, series metrics
 * only. A period or a `since`/`until` that does not fall on a UTC hour (a zone whose offset is not whole
 * hours) takes the hours it starts in.
 */
import { and, eq, gte, inArray, lt, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { formInsightCounts, formInsightDays, formInsightMonths, formInsightSliceDays, formInsightSliceMonths } from '../db/schema.ts';
import { secondsOfBucket, timeBucketOf } from './counters.service.ts';
import type { StoredStep } from '../db/json-columns.ts';
import type { FieldError } from '../errors.ts';
import { LOGIC_LIMITS, stepKey } from '../forms/logic.ts';
import { unsafeStringProblem } from '../limits/json-safety.ts';
import { rowsOf } from '../db/rows.ts';
import { isListableInstant, UNLISTABLE_INSTANT } from '../responses/responses.service.ts';
import { DEVICE_CLASSES, type DeviceClass } from './dimensions.ts';
import { DAY_MS, dayRowPeriods, monthRowPeriods, rollupRanges, type RollupRanges, type Span } from './rollup-ranges.ts';
import { isTimeZone, localDate, nextPeriod, periodStart, PERIODS, startOfLocalDate, type Period } from './time-zones.ts';

/** Breakdowns list at most this many referrer hosts and values per hidden field (the most viewed first). */
export const TOP_VALUES = 20;
/** A series holds at most this many periods. */
export const MAX_PERIODS = 1000;
/** At most this many hidden-field filters. */
const MAX_HIDDEN_FILTERS = 10;

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

type CounterTable = typeof formInsightCounts | typeof formInsightDays | typeof formInsightMonths;
type SliceTable = typeof formInsightSliceDays | typeof formInsightSliceMonths;

/**
 * The rows of `scope` in one of the counter or slice tables. A slice table is read by form (its keys
 * start with the form): an environment's forms are looked up first.
 */
function scopeOf(table: CounterTable | SliceTable, scope: InsightsScope): SQL {
  if ('formId' in scope) return eq(table.formId, scope.formId);
  const forms = scope.formIds === undefined ? undefined : inArray(table.formId, [...scope.formIds, '']);
  if (table === formInsightSliceDays || table === formInsightSliceMonths) {
    return and(sql`${table.formId} in (select f.id from forms f where f.environment_id = ${scope.environmentId} and f.deleted_at is null)`, forms)!;
  }
  return and(eq(table.environmentId, scope.environmentId), forms, sql`exists (select 1 from forms f where f.id = ${table.formId} and f.deleted_at is null)`)!;
}

/** Views, starts and finishes: written out, so the partial indexes on them apply. */
const SERIES_ONLY = sql.raw(`metric in (${SERIES_METRICS.map((metric) => `'${metric}'`).join(', ')})`);
/** Every metric but the exact times (the counts and the time buckets), written out likewise. */
const NOT_EXACT = sql.raw(`metric not like 'ttc:%'`);

/** The filters of `scope` and `query` on one of the counter tables. */
function filtersOf(table: CounterTable, scope: InsightsScope, query: InsightsQuery): SQL {
  return and(
    scopeOf(table, scope),
    query.device ? eq(table.device, query.device) : undefined,
    query.language ? eq(table.language, query.language) : undefined,
    Object.keys(query.hidden).length > 0 ? sql`${table.hidden} @> ${JSON.stringify(query.hidden)}::jsonb` : undefined,
  )!;
}

/** The slice rows a read takes: every segment together, or one filter value's segments. */
export interface Slice {
  kind: string;
  value: string;
}

/** The slice of `query`: `all` without a filter, the filter's with one; none with several (the segments' rows then). */
export function sliceOf(query: InsightsQuery): Slice | undefined {
  const hidden = Object.entries(query.hidden);
  const filters = (query.device ? 1 : 0) + (query.language ? 1 : 0) + hidden.length;
  if (filters === 0) return { kind: 'all', value: '' };
  if (filters > 1) return undefined;
  if (query.device) return { kind: 'device', value: query.device };
  if (query.language) return { kind: 'language', value: query.language };
  return { kind: `hidden:${hidden[0]![0]}`, value: hidden[0]![1] };
}

const spanSql = (column: SQLWrapper, span: Span): SQL =>
  and(span.from === undefined ? undefined : gte(column, new Date(span.from)), span.to === undefined ? undefined : lt(column, new Date(span.to))) ?? sql`true`;
const spansSql = (column: SQLWrapper, spans: readonly Span[]): SQL =>
  spans.length === 1 ? spanSql(column, spans[0]!) : sql`(${or(...spans.map((span) => spanSql(column, span)))})`;

/** One level of the counters a read takes: its table, its time column and the rows of the range. */
interface Level {
  grain: 'month' | 'day' | 'hour';
  table: CounterTable | SliceTable;
  at: SQLWrapper;
  where: SQL;
}

/** The levels a read takes of the segments' rows: the whole months' month rows, the other whole days' day rows, the edges' hour rows. */
function levelsOf(scope: InsightsScope, query: InsightsQuery, ranges: RollupRanges): Level[] {
  const m = formInsightMonths;
  const d = formInsightDays;
  const c = formInsightCounts;
  const levels: Level[] = [];
  if (ranges.months) levels.push({ grain: 'month', table: m, at: m.month, where: sql`${filtersOf(m, scope, query)} and ${spanSql(m.month, ranges.months)}` });
  if (ranges.days.length > 0) levels.push({ grain: 'day', table: d, at: d.day, where: sql`${filtersOf(d, scope, query)} and ${spansSql(d.day, ranges.days)}` });
  if (ranges.hours.length > 0) levels.push({ grain: 'hour', table: c, at: c.hour, where: sql`${filtersOf(c, scope, query)} and ${spansSql(c.hour, ranges.hours)}` });
  return levels;
}

/** The month and day levels of a slice's rows (the edges' hours are read from the segments' hour rows). */
function sliceLevelsOf(scope: InsightsScope, slice: Slice, ranges: RollupRanges): Level[] {
  const m = formInsightSliceMonths;
  const d = formInsightSliceDays;
  const of = (table: SliceTable) => sql`${scopeOf(table, scope)} and ${eq(table.kind, slice.kind)} and ${eq(table.value, slice.value)}`;
  const levels: Level[] = [];
  if (ranges.months) levels.push({ grain: 'month', table: m, at: m.month, where: sql`${of(m)} and ${spanSql(m.month, ranges.months)}` });
  if (ranges.days.length > 0) levels.push({ grain: 'day', table: d, at: d.day, where: sql`${of(d)} and ${spansSql(d.day, ranges.days)}` });
  return levels;
}

interface FigureRow {
  kind: string;
  metric: string;
  value: string | null;
  /** The row's period or hour as the driver gives it, then its start in milliseconds (`withInstants`). */
  at: string | Date | number | null;
  n: string | number;
}

/** `rows` with each `at` as milliseconds (a period's rows share one timestamp text: parsed once). */
function withInstants(rows: FigureRow[]): FigureRow[] {
  const parsed = new Map<string | Date, number>();
  for (const row of rows) {
    if (row.at === null || typeof row.at === 'number') continue;
    let ms = parsed.get(row.at);
    if (ms === undefined) parsed.set(row.at, (ms = new Date(row.at).getTime()));
    row.at = ms;
  }
  return rows;
}

/** Where a read's statements take rows from (`countersRead` counts them): a label and a `select … from … where …`. */
type Trace = (label: string, rows: SQL) => void;

/**
 * The insights of `scope` for `query`. Without a filter or with one, the month and day rows of its slice
 * (`sliceOf`) for the totals and the series, and for the breakdowns every slice's (no filter) or the
 * filter's segments' (views, starts and finishes only); the segments' hour rows for the edges. One
 * statement, and a second for the exact times to complete inside the buckets holding the median and the
 * 90th percentile and for the hours a time zone's period boundaries move. With several filters, the
 * segments' rows throughout.
 */
export async function readInsights(db: Db, scope: InsightsScope, query: InsightsQuery, trace?: Trace): Promise<Insights> {
  const ranges = rollupRanges(query.since?.getTime(), query.until?.getTime());
  const slice = sliceOf(query);
  const levels = levelsOf(scope, query, ranges);
  const slices = slice ? sliceLevelsOf(scope, slice, ranges) : [];
  const hours = levels.filter((level) => level.grain === 'hour');
  const union = (parts: SQL[]) => sql.join(parts, sql` union all `);
  const seen = (label: string, l: Level, where: SQL) => trace?.(`${label}${l.grain}`, sql`select 1 from ${l.table} where ${where}`);
  // The totals of every metric (a slice's but its exact times), from the slice's rows or the segments'.
  const totals = [
    ...slices.map((l) => {
      const where = sql`${l.where} and ${NOT_EXACT}`;
      seen('slice ', l, where);
      return sql`select metric, sum(count) as n from ${l.table} where ${where} group by metric`;
    }),
    ...(slice ? hours : levels).map((l) => {
      seen('', l, l.where);
      return sql`select metric, sum(count) as n from ${l.table} where ${l.where} group by metric`;
    }),
  ];
  // The breakdowns: without a filter every other slice's rows and the edges' hours, else the segments' rows.
  const everySlice = slice?.kind === 'all';
  const segmentRows = everySlice ? hours : levels;
  const breakdowns: SQL[] = [];
  if (everySlice) {
    for (const grain of ['month', 'day'] as const) {
      const span = grain === 'month' ? ranges.months : ranges.days.length > 0 ? ranges.days : undefined;
      if (!span) continue;
      const t = grain === 'month' ? formInsightSliceMonths : formInsightSliceDays;
      const at = grain === 'month' ? formInsightSliceMonths.month : formInsightSliceDays.day;
      const where = sql`${scopeOf(t, scope)} and ${SERIES_ONLY} and ${Array.isArray(span) ? spansSql(at, span) : spanSql(at, span)} and ${t.kind} <> 'all'`;
      trace?.(`breakdown slice ${grain}`, sql`select 1 from ${t} where ${where}`);
      breakdowns.push(sql`select kind, value, metric, count from ${t} where ${where}`);
    }
  } else segmentRows.forEach((l) => l.grain !== 'hour' && seen('breakdown ', l, sql`${l.where} and ${SERIES_ONLY}`));
  if (segmentRows.length > 0) {
    breakdowns.push(sql`select 'device', device, metric, count from series
      union all select 'referrer', referrer, metric, count from series
      union all select 'language', language, metric, count from series
      union all select 'hidden:' || h.key, h.value, metric, count from series, jsonb_each_text(series.hidden) as h(key, value)`);
  }
  const series = seriesRowsSql(scope, query, ranges, slice, slices, trace);
  const columns = sql`metric, device, language, referrer, hidden, count`;
  const result = await db.execute(sql`
    ${
      segmentRows.length > 0
        ? sql`with series as materialized (
      ${union(segmentRows.map((l) => sql`select ${l.grain} as grain, ${l.at} as at, ${columns} from ${l.table} where ${l.where} and ${SERIES_ONLY}`))}
    )`
        : sql``
    }
    select 'total' as kind, metric, null::text as value, null::timestamptz as at, sum(n) as n from (${union(totals)}) as totals group by metric
    ${series ? sql`union all ${series}` : sql``}
    ${breakdowns.length > 0 ? sql`union all select kind, metric, value, null, sum(count) from (${union(breakdowns)}) as b(kind, value, metric, count) group by kind, value, metric` : sql``}`);
  const rows = withInstants(rowsOf<FigureRow>(result));
  const split = splitRowsOf(query, rows);
  const times = timesOf(rows, slice !== undefined);
  // The second statement: the exact times of the percentiles' buckets, the moved hours.
  const second: SQL[] = [];
  if (times.buckets.size > 0) {
    const exact = `{${[...times.buckets.keys()].flatMap((bucket) => secondsOfBucket(bucket).map((seconds) => `ttc:${seconds}`)).join(',')}}`;
    for (const l of slices) {
      const where = sql`${l.where} and ${l.table.metric} = any(${exact}::text[])`;
      seen('slice time ', l, where);
      second.push(sql`select 'exact' as kind, metric, null as value, null::timestamptz as at, sum(count) as n from ${l.table} where ${where} group by metric`);
    }
  }
  if (split.moved.size > 0) {
    const c = formInsightCounts;
    const where = sql`${filtersOf(c, scope, query)} and ${SERIES_ONLY}
      and ${c.hour} = any(${`{${[...split.moved.keys()].map((at) => new Date(at).toISOString()).join(',')}}`}::timestamptz[])`;
    trace?.('moved hour', sql`select 1 from ${c} where ${where}`);
    second.push(sql`select 'move' as kind, metric, null as value, ${c.hour} as at, sum(count) as n from ${c} where ${where} group by ${c.hour}, metric`);
  }
  if (second.length > 0) rows.push(...withInstants(rowsOf<FigureRow>(await db.execute(union(second)))));
  return figuresOf(scope, query, rows, split, timeToCompleteOf(times, rows));
}

/**
 * The series rows: by month, the month and day levels' own rows (the slice's, else `series`) and the
 * edges' hour rows; by day or week, every whole day's day rows (the slice's, else the segments') and the
 * edges' hour rows.
 */
function seriesRowsSql(scope: InsightsScope, query: InsightsQuery, ranges: RollupRanges, slice: Slice | undefined, slices: Level[], trace: Trace | undefined): SQL | undefined {
  const parts: SQL[] = [];
  if (query.groupBy === 'month') {
    if (!slice) return sql`select grain, metric, null, at, sum(count) from series group by grain, at, metric`;
    for (const l of slices) parts.push(sql`select ${l.grain}, metric, null, ${l.at}, sum(count) from ${l.table} where ${l.where} and ${SERIES_ONLY} group by ${l.at}, metric`);
  } else if (ranges.allDays) {
    const d = slice ? formInsightSliceDays : formInsightDays;
    const where = slice
      ? sql`${scopeOf(d, scope)} and ${eq(formInsightSliceDays.kind, slice.kind)} and ${eq(formInsightSliceDays.value, slice.value)} and ${SERIES_ONLY} and ${spanSql(d.day, ranges.allDays)}`
      : sql`${filtersOf(formInsightDays, scope, query)} and ${SERIES_ONLY} and ${spanSql(d.day, ranges.allDays)}`;
    trace?.(slice ? 'series slice day' : 'series day', sql`select 1 from ${d} where ${where}`);
    parts.push(sql`select 'day', metric, null, ${d.day}, sum(count) from ${d} where ${where} group by ${d.day}, metric`);
  }
  if (ranges.hours.length > 0) parts.push(sql`select grain, metric, null, at, sum(count) from series where grain = 'hour' group by grain, at, metric`);
  return parts.length === 0 ? undefined : sql.join(parts, sql` union all `);
}

/**
 * How many counter rows a read of `query` takes from each source: the slice's month and day rows (`slice
 * month`, `slice day`) or the segments' (`month`, `day`) for the totals, the edges' hour rows (`hour`), the
 * day rows of a series by day or week (`series slice day`, `series day`), the segments' rows of the
 * breakdowns (`breakdown month`, `breakdown day`), the exact times read for the percentiles (`slice time
 * month`, `slice time day`) and the moved hours (`moved hour`): what `npm run bench` reports.
 */
export async function countersRead(db: Db, scope: InsightsScope, query: InsightsQuery): Promise<Record<string, number>> {
  const sources: [string, SQL][] = [];
  await readInsights(db, scope, query, (label, rows) => sources.push([label, rows]));
  const counts = sources.map(([label, rows]) => sql`select ${label} as label, (select count(*)::int from (${rows}) as r) as n`);
  const rows = rowsOf<{ label: string; n: number }>(await db.execute(sql.join(counts, sql` union all `)));
  return Object.fromEntries(rows.map((row) => [row.label, row.n]));
}
/** A moved hour: its rollup row's period (where that row counted it) and its own. */
interface MovedHour {
  from: string;
  to: string;
}

/** Each rollup row's period (by `<grain>:<start ms>`) and the hours of another period, by start (ms). */
interface SplitRows {
  periods: Map<string, string>;
  moved: Map<number, MovedHour>;
}

function splitRowsOf(query: InsightsQuery, rows: FigureRow[]): SplitRows {
  const split: SplitRows = { periods: new Map(), moved: new Map() };
  for (const row of rows) {
    if (row.kind !== 'day' && row.kind !== 'month') continue;
    const start = row.at as number;
    const key = `${row.kind}:${start}`;
    if (split.periods.has(key)) continue;
    // In UTC a row's hours are all in its own day and month: nothing moves.
    if (query.timeZone === 'UTC') {
      split.periods.set(key, periodStart(new Date(start).toISOString().slice(0, 10), row.kind === 'day' ? query.groupBy : 'month'));
      continue;
    }
    const { period, moved } = row.kind === 'day' ? dayRowPeriods(query.timeZone, start, query.groupBy) : monthRowPeriods(query.timeZone, start);
    split.periods.set(key, period);
    moved.forEach((to, hour) => split.moved.set(hour, { from: period, to }));
  }
  return split;
}

const zero = (): Counts => ({ views: 0, starts: 0, finishes: 0 });
const add = (counts: Counts, metric: string, n: number) => {
  if (metric === 'views' || metric === 'starts' || metric === 'finishes') counts[metric] += n;
};
const rate = (part: number, whole: number) => (whole === 0 ? null : part / whole);

function figuresOf(scope: InsightsScope, query: InsightsQuery, rows: FigureRow[], split: SplitRows, timeToComplete: Insights['timeToComplete']): Insights {
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
    const at = (row.at as number | null) ?? 0;
    if (row.kind === 'total') totals.set(row.metric, n);
    else if (row.kind === 'exact') continue;
    else if (row.kind === 'day' || row.kind === 'month') count(split.periods.get(`${row.kind}:${at}`)!, row.metric, n);
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
    timeToComplete,
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

/** The finishes' times to complete a read counted: exact (seconds → finishes), by bucket, and the percentiles' buckets. */
interface Times {
  sliced: boolean;
  /** Exact times from the rows' totals (a slice read: the edges' hour rows only). */
  exact: Map<number, number>;
  count: number;
  /** The rank of each percentile (nearest rank), and its bucket. */
  ranks: { rank: number; bucket: number; below: number }[];
  /** The buckets holding a percentile, each with the finishes of the buckets before it. */
  buckets: Map<number, number>;
}

const PERCENTILES = [0.5, 0.9];

/** A read's times from the totals; a slice read's buckets (the slice's `ttcb:` rows and the edges' exact times). */
function timesOf(rows: readonly FigureRow[], sliced: boolean): Times {
  const exact = new Map<number, number>();
  const byBucket = new Map<number, number>();
  for (const row of rows) {
    if (row.kind !== 'total' || Number(row.n) <= 0) continue;
    if (row.metric.startsWith('ttc:')) exact.set(Number(row.metric.slice(4)), Number(row.n));
    else if (row.metric.startsWith('ttcb:')) byBucket.set(Number(row.metric.slice(5)), (byBucket.get(Number(row.metric.slice(5))) ?? 0) + Number(row.n));
  }
  if (!sliced) {
    const count = [...exact.values()].reduce((sum, n) => sum + n, 0);
    return { sliced, exact, count, ranks: PERCENTILES.map((p) => ({ rank: Math.ceil(p * count), bucket: 0, below: 0 })), buckets: new Map() };
  }
  exact.forEach((n, seconds) => byBucket.set(timeBucketOf(seconds), (byBucket.get(timeBucketOf(seconds)) ?? 0) + n));
  const sorted = [...byBucket].sort((a, b) => a[0] - b[0]);
  const count = sorted.reduce((sum, [, n]) => sum + n, 0);
  const buckets = new Map<number, number>();
  const ranks = PERCENTILES.map((p) => {
    const rank = Math.ceil(p * count);
    let below = 0;
    for (const [bucket, n] of sorted) {
      if (below + n >= rank) {
        buckets.set(bucket, below);
        return { rank, bucket, below };
      }
      below += n;
    }
    return { rank, bucket: sorted.at(-1)?.[0] ?? 0, below: 0 };
  });
  return { sliced, exact, count, ranks: count === 0 ? [] : ranks, buckets: count === 0 ? new Map<number, number>() : buckets };
}

/**
 * Median and 90th percentile (nearest rank: the smallest time at least that share of finishes took) of
 * the counted times, exact: a slice read walks the exact times of the bucket holding the rank (its
 * `exact` rows and the edges' hours) from the finishes of the buckets before it.
 */
function timeToCompleteOf(times: Times, rows: readonly FigureRow[]): Insights['timeToComplete'] {
  if (times.count === 0) return null;
  const exact = new Map(times.exact);
  for (const row of rows) if (row.kind === 'exact') exact.set(Number(row.metric.slice(4)), (exact.get(Number(row.metric.slice(4))) ?? 0) + Number(row.n));
  const sorted = [...exact].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const percentile = (index: number) => {
    const { rank, bucket, below } = times.sliced ? times.ranks[index]! : { rank: times.ranks[index]!.rank, bucket: undefined, below: 0 };
    let seen = below;
    let last = bucket ?? 0;
    for (const [seconds, n] of sorted) {
      if (bucket !== undefined && timeBucketOf(seconds) !== bucket) continue;
      last = seconds;
      if ((seen += n) >= rank) return seconds;
    }
    return last;
  };
  return { median: percentile(0), p90: percentile(1) };
}

/** Views, starts and finishes per period in the time zone: every period from since (or the first counted) to until (or the last counted). */
function seriesOf(query: InsightsQuery, byPeriod: Map<string, Counts>): Insights['series'] {
  const known = [...byPeriod.keys()].sort();
  const first = query.since ? periodStart(localDate(query.timeZone, query.since.getTime()), query.groupBy) : known[0];
  const last = query.until ? periodStart(localDate(query.timeZone, query.until.getTime() - 1), query.groupBy) : known.at(-1);
  if (first === undefined || last === undefined) return [];
  const series: Insights['series'] = [];
  if (query.groupBy === 'month') {
    for (let period = first; period <= last && series.length < MAX_PERIODS; period = nextPeriod(period, query.groupBy))
      series.push({ period, ...(byPeriod.get(period) ?? zero()) });
    return series;
  }
  // Days and weeks by arithmetic on their UTC midnights.
  const step = query.groupBy === 'week' ? 7 * DAY_MS : DAY_MS;
  for (let at = Date.parse(`${first}T00:00:00Z`), end = Date.parse(`${last}T00:00:00Z`); at <= end && series.length < MAX_PERIODS; at += step) {
    const period = new Date(at).toISOString().slice(0, 10);
    series.push({ period, ...(byPeriod.get(period) ?? zero()) });
  }
  return series;
}
