/**
 * Which counter rows a range of insights reads, and in which period of a time zone each rollup row
 * counts: the UTC months wholly inside the range from the month rows, the other whole UTC days from the
 * day rows, and the hours of the partial days at the edges from the hour rows. Pure arithmetic on
 * instants (milliseconds), so it is tested without a database.
 */
import { hourPeriodsOfDay, localDate, periodStart, type Period } from './time-zones.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The instants [from, to); an end left out is open. */
export interface Span {
  from?: number | undefined;
  to?: number | undefined;
}

export interface RollupRanges {
  /** The month rows (by their month's start) of the UTC months wholly inside the range. */
  months: Span | undefined;
  /** The day rows of the whole UTC days outside those months (at most one span at each end). */
  days: Span[];
  /** Every whole UTC day of the range (the series by day or week reads these day rows). */
  allDays: Span | undefined;
  /** The hour rows of the partial days at the edges: an hour counts when it overlaps [since, until). */
  hours: Span[];
}

const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
const ceilTo = (ms: number, unit: number) => Math.ceil(ms / unit) * unit;

/** The start of the UTC month `ms` falls in. */
export function monthOf(ms: number): number {
  const at = new Date(ms);
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
}

/** The start of the UTC month after the one starting at `month`. */
export function nextMonth(month: number): number {
  const at = new Date(month);
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
}

const ceilMonth = (ms: number) => (monthOf(ms) === ms ? ms : nextMonth(monthOf(ms)));

/** The rows a read of [since, until) takes (either end may be open). */
export function rollupRanges(since: number | undefined, until: number | undefined): RollupRanges {
  const firstDay = since === undefined ? undefined : ceilTo(since, DAY_MS);
  const endDay = until === undefined ? undefined : floorTo(until, DAY_MS);
  const startHour = since === undefined ? undefined : floorTo(since, HOUR_MS);
  if (firstDay !== undefined && endDay !== undefined && firstDay >= endDay) {
    return { months: undefined, days: [], allDays: undefined, hours: [{ from: startHour, to: until }] };
  }
  const hours: Span[] = [];
  if (since !== undefined && since < firstDay!) hours.push({ from: startHour, to: firstDay });
  if (until !== undefined && until > endDay!) hours.push({ from: endDay, to: until });
  const allDays = { from: firstDay, to: endDay };
  const firstMonth = firstDay === undefined ? undefined : ceilMonth(firstDay);
  const endMonth = endDay === undefined ? undefined : monthOf(endDay);
  if (firstMonth !== undefined && endMonth !== undefined && firstMonth >= endMonth) return { months: undefined, days: [allDays], allDays, hours };
  const days: Span[] = [];
  if (firstDay !== undefined && firstDay < firstMonth!) days.push({ from: firstDay, to: firstMonth });
  if (endDay !== undefined && endMonth! < endDay) days.push({ from: endMonth, to: endDay });
  return { months: { from: firstMonth, to: endMonth }, days, allDays, hours };
}

/** A rollup row's period in the time zone, and the hours it sums that belong to another period (by start, ms). */
export interface RowPeriods {
  period: string;
  moved: Map<number, string>;
}

function majorityOf(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

/** A day row (UTC day starting at `day`): the period most of its hours fall in, and the others. */
export function dayRowPeriods(timeZone: string, day: number, period: Period): RowPeriods {
  const periods = hourPeriodsOfDay(timeZone, day, period);
  const majority = majorityOf(periods);
  const moved = new Map<number, string>();
  periods.forEach((to, hour) => {
    if (to !== majority) moved.set(day + hour * HOUR_MS, to);
  });
  return { period: majority, moved };
}

/**
 * A month row (UTC month starting at `month`) in a series by month: the local month of its middle, and
 * the hours of its first and last UTC day in another local month (no offset reaches further than a day).
 */
export function monthRowPeriods(timeZone: string, month: number): RowPeriods {
  const period = periodStart(localDate(timeZone, month + 15 * DAY_MS), 'month');
  const moved = new Map<number, string>();
  for (const day of [month, nextMonth(month) - DAY_MS]) {
    hourPeriodsOfDay(timeZone, day, 'month').forEach((to, hour) => {
      if (to !== period) moved.set(day + hour * HOUR_MS, to);
    });
  }
  return { period, moved };
}
