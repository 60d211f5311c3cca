/**
 * How a form (or every form of an environment) is doing, read from the insight counters
 * (counters.service.ts), never by scanning responses: views, starts, finishes, invalid, the rates, per
 * step reached / left here / drop-off, the time to complete, a time series in a time zone and the
 * breakdowns by device class, referrer host, hidden-field value and language. One or two statements.
 *
 * The counters are per UTC hour (`form_insight_counts`) and, summed by triggers in the writer's
 * statement, per UTC day (`form_insight_days`) and per UTC month (`form_insight_months`): a read takes
 * the month rows of the whole UTC months in its range, the day rows of the other whole UTC days and the
 * hour rows of the partial days at its edges (rollup-ranges.ts), so it reads about
 * (months + edge days) × segments × metrics rows; a series by day or week reads the day rows of every
 * whole day for its views, starts and finishes. A time zone whose period boundaries cut UTC days or
 * months (any zone but UTC) moves the hours on the other side of a boundary from their row's period to
 * theirs: at most 12 hours a day row, at most a day at each end of a month row, series metrics only. A
 * period or a `since`/`until` that does not fall on a UTC hour (a zone whose offset is not whole hours)
 * takes the hours it starts in.
 */
import { and, eq, gte, inArray, lt, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { formInsightCounts, formInsightDays, formInsightMonths } from '../db/schema.ts';
import type { StoredStep } from '../db/json-columns.ts';
import type { FieldError } from '../errors.ts';
import { LOGIC_LIMITS, stepKey } from '../forms/logic.ts';
import { unsafeStringProblem } from '../limits/json-safety.ts';
import { rowsOf } from '../db/rows.ts';
import { isListableInstant, UNLISTABLE_INSTANT } from '../responses/responses.service.ts';
import { DEVICE_CLASSES, type DeviceClass } from './dimensions.ts';
import { dayRowPeriods, monthRowPeriods, rollupRanges, type RollupRanges, type Span } from './rollup-ranges.ts';
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

/** The filters of `scope` and `query` on one of the counter tables. */
function filtersOf(table: CounterTable, scope: InsightsScope, query: InsightsQuery): SQL {
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

const spanSql = (column: SQLWrapper, span: Span): SQL =>
  and(span.from === undefined ? undefined : gte(column, new Date(span.from)), span.to === undefined ? undefined : lt(column, new Date(span.to))) ?? sql`true`;

/** One level of the counters a read takes: its table, its time column and the rows of the range. */
interface Level {
  grain: 'month' | 'day' | 'hour';
  table: CounterTable;
  at: SQLWrapper;
  where: SQL;
}

/** The levels a read takes: the whole months' month rows, the other whole days' day rows, the edges' hour rows. */
function levelsOf(scope: InsightsScope, query: InsightsQuery, ranges: RollupRanges): Level[] {
  const m = formInsightMonths;
  const d = formInsightDays;
  const c = formInsightCounts;
  const levels: Level[] = [];
  if (ranges.months) levels.push({ grain: 'month', table: m, at: m.month, where: sql`${filtersOf(m, scope, query)} and ${spanSql(m.month, ranges.months)}` });
  if (ranges.days.length > 0) {
    levels.push({ grain: 'day', table: d, at: d.day, where: sql`${filtersOf(d, scope, query)} and (${or(...ranges.days.map((span) => spanSql(d.day, span)))})` });
  }
  if (ranges.hours.length > 0) {
    levels.push({ grain: 'hour', table: c, at: c.hour, where: sql`${filtersOf(c, scope, query)} and (${or(...ranges.hours.map((span) => spanSql(c.hour, span)))})` });
  }
  return levels;
}

interface FigureRow {
  kind: string;
  metric: string;
  value: string | null;
  at: string | Date | null;
  n: string | number;
}

/**
 * The series rows: by month, the levels' own rows (`series`); by day or week, every whole day's day
 * rows and the edges' hour rows.
 */
function seriesRowsSql(scope: InsightsScope, query: InsightsQuery, ranges: RollupRanges): SQL {
  if (query.groupBy === 'month') return sql`select grain, metric, null, at, sum(count) from series group by grain, at, metric`;
  const d = formInsightDays;
  const hours = sql`select grain, metric, null, at, sum(count) from series where grain = 'hour' group by grain, at, metric`;
  if (!ranges.allDays) return hours;
  return sql`${hours} union all select 'day', metric, null, ${d.day}, sum(count) from ${d}
    where ${filtersOf(d, scope, query)} and ${spanSql(d.day, ranges.allDays)} and ${inArray(d.metric, SERIES_METRICS)} group by ${d.day}, metric`;
}

/**
 * The insights of `scope` for `query`: one statement over the levels' rows (separate hash aggregates,
 * no sort), and a second for the hours of the rollup rows a period boundary of the time zone splits,
 * when there are any.
 */
export async function readInsights(db: Db, scope: InsightsScope, query: InsightsQuery): Promise<Insights> {
  const ranges = rollupRanges(query.since?.getTime(), query.until?.getTime());
  const levels = levelsOf(scope, query, ranges);
  const columns = sql`metric, device, language, referrer, hidden, count`;
  const union = (part: (level: Level) => SQL) => sql.join(levels.map(part), sql` union all `);
  // Totals of every metric straight from the rows; the series and breakdowns over the series metrics' rows alone.
  const result = await db.execute(sql`
    with series as materialized (
      ${union((l) => sql`select ${l.grain} as grain, ${l.at} as at, ${columns} from ${l.table} where ${l.where} and ${inArray(l.table.metric, SERIES_METRICS)}`)}
    )
    select 'total' as kind, metric, null::text as value, null::timestamptz as at, sum(n) as n from (
      ${union((l) => sql`select metric, sum(count) as n from ${l.table} where ${l.where} group by metric`)}
    ) as totals group by metric
    union all ${seriesRowsSql(scope, query, ranges)}
    union all select 'device', metric, device, null, sum(count) from series group by metric, device
    union all select 'referrer', metric, referrer, null, sum(count) from series group by metric, referrer
    union all select 'language', metric, language, null, sum(count) from series group by metric, language
    union all select 'hidden:' || h.key, metric, h.value, null, sum(count)
      from series, jsonb_each_text(series.hidden) as h(key, value) group by h.key, h.value, metric`);
  const rows = rowsOf<FigureRow>(result);
  const split = splitRowsOf(query, rows);
  if (split.moved.size > 0) {
    const c = formInsightCounts;
    const moved = await db.execute(sql`
      select 'move' as kind, metric, null as value, ${c.hour} as at, sum(count) as n from ${c}
      where ${filtersOf(c, scope, query)} and ${inArray(c.metric, SERIES_METRICS)}
        and ${c.hour} = any(${`{${[...split.moved.keys()].map((at) => new Date(at).toISOString()).join(',')}}`}::timestamptz[])
      group by ${c.hour}, metric`);
    rows.push(...rowsOf<FigureRow>(moved));
  }
  return figuresOf(scope, query, rows, split);
}

/**
 * How many counter rows a read of `query` takes at each level: `month`, `day` and `hour` for the totals
 * and breakdowns, `series day` for a series by day or week (what `npm run bench` reports).
 */
export async function countersRead(db: Db, scope: InsightsScope, query: InsightsQuery): Promise<Record<string, number>> {
  const ranges = rollupRanges(query.since?.getTime(), query.until?.getTime());
  const d = formInsightDays;
  const counts = levelsOf(scope, query, ranges).map((l) => sql`select ${l.grain} as grain, count(*)::int as n from ${l.table} where ${l.where}`);
  if (query.groupBy !== 'month' && ranges.allDays) {
    counts.push(
      sql`select 'series day', count(*)::int from ${d} where ${filtersOf(d, scope, query)} and ${spanSql(d.day, ranges.allDays)} and ${inArray(d.metric, SERIES_METRICS)}`,
    );
  }
  const rows = rowsOf<{ grain: string; n: number }>(await db.execute(sql.join(counts, sql` union all `)));
  return Object.fromEntries(rows.map((row) => [row.grain, row.n]));
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
    const start = new Date(row.at!).getTime();
    const key = `${row.kind}:${start}`;
    if (split.periods.has(key)) continue;
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

function figuresOf(scope: InsightsScope, query: InsightsQuery, rows: FigureRow[], split: SplitRows): Insights {
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
