/** Calendar arithmetic in an IANA time zone (Intl's zone data), for the insights' periods and dates. */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether `name` is a time zone Intl knows (IANA names such as Europe/Berlin, and UTC). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    formatterOf(name);
    return true;
  } catch {
    return false;
  }
}

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size > 500) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock time at instant `ms` in `timeZone`, as if it were UTC (milliseconds). */
function wallClock(timeZone: string, ms: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const wall = new Date(Date.UTC(2000, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second));
  // setUTCFullYear: Date.UTC reads years 0-99 as 1900-1999.
  return wall.setUTCFullYear(parts.year!);
}

/** The calendar date (YYYY-MM-DD) of instant `ms` in `timeZone`. */
export const localDate = (timeZone: string, ms: number): string => new Date(wallClock(timeZone, ms)).toISOString().slice(0, 10);

/** The instant a calendar date (YYYY-MM-DD) begins in `timeZone` (its first moment, when a DST change skips midnight). */
export function startOfLocalDate(timeZone: string, date: string): Date {
  const wall = Date.parse(`${date}T00:00:00Z`);
  let at = wall - (wallClock(timeZone, wall) - wall);
  // Once more at the guess: the offset there may differ (a DST change between UTC's and the zone's midnight).
  at = wall - (wallClock(timeZone, at) - at);
  return new Date(at);
}

export const PERIODS = ['day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

/** The first day (YYYY-MM-DD) of the period holding `date`: the day, its ISO week's Monday, or the 1st of its month. */
export function periodStart(date: string, period: Period): string {
  if (period === 'day') return date;
  if (period === 'month') return `${date.slice(0, 8)}01`;
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

/** The first day of the period after the one starting on `start`. */
export function nextPeriod(start: string, period: Period): string {
  const day = new Date(`${start}T00:00:00Z`);
  if (period === 'day') day.setUTCDate(day.getUTCDate() + 1);
  else if (period === 'week') day.setUTCDate(day.getUTCDate() + 7);
  else day.setUTCMonth(day.getUTCMonth() + 1);
  return day.toISOString().slice(0, 10);
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The period (its first day, as `periodStart` gives it) of each of the 24 hours of the UTC day starting at
 * `dayStart`, each hour by the local date of its start. One zone lookup at each end of the day (none in
 * UTC) when the offset holds all day (every day but a DST change's): the local date then changes at most
 * once, at an hour found by arithmetic; one lookup per hour otherwise.
 */
export function hourPeriodsOfDay(timeZone: string, dayStart: number, period: Period): string[] {
  const utc = timeZone === 'UTC';
  const first = utc ? 0 : wallClock(timeZone, dayStart) - dayStart;
  const last = utc ? 0 : wallClock(timeZone, dayStart + 23 * HOUR_MS) - (dayStart + 23 * HOUR_MS);
  if (first === last) {
    const local = dayStart + first;
    const before = periodStart(new Date(local).toISOString().slice(0, 10), period);
    const after = periodStart(new Date(local + 23 * HOUR_MS).toISOString().slice(0, 10), period);
    if (before === after) return Array<string>(24).fill(before);
    // The first hour starting on the next local date.
    const change = Math.ceil((Math.floor(local / DAY_MS) * DAY_MS + DAY_MS - local) / HOUR_MS);
    return Array.from({ length: 24 }, (_, hour) => (hour < change ? before : after));
  }
  return Array.from({ length: 24 }, (_, hour) => periodStart(localDate(timeZone, dayStart + hour * HOUR_MS), period));
}
