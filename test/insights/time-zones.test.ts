/** The hours of a UTC day in a time zone's periods: the arithmetic on a day with one offset equals a lookup per hour. */
import { expect, it } from 'vitest';
import { hourPeriodsOfDay, localDate, PERIODS, periodStart } from '../../src/insights/time-zones.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Australia/Lord_Howe'];

it('every hour of every day of 2026 falls in the period its start is in locally', () => {
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (const zone of ZONES) {
    for (let day = start; day < start + 366 * DAY; day += DAY) {
      for (const period of PERIODS) {
        const expected = Array.from({ length: 24 }, (_, hour) => periodStart(localDate(zone, day + hour * HOUR), period));
        expect(hourPeriodsOfDay(zone, day, period), `${zone} ${new Date(day).toISOString()} ${period}`).toEqual(expected);
      }
    }
  }
});
