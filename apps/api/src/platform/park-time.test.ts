import { describe, expect, it } from 'vitest';
import { daysBetween, operatingDay, operatingDayStart, parkShortDate, shiftDate, shiftInstant } from './park-time.ts';

const la = 'America/Los_Angeles';

describe('park time', () => {
  it('starts the operating day at 2:00 AM park time on the days daylight saving time begins and ends', () => {
    // 2026-03-08: 2:00 AM does not exist in Los Angeles; the day starts when the clock jumps to 3:00 AM PDT.
    expect(operatingDayStart(new Date('2026-03-08T20:00:00Z'), la).toISOString()).toBe('2026-03-08T10:00:00.000Z');
    expect(operatingDayStart(new Date('2026-03-09T20:00:00Z'), la).toISOString()).toBe('2026-03-09T09:00:00.000Z');
    // 1:30 AM PST that morning is still the operating day of March 7 (from 2:00 AM PST).
    expect(operatingDayStart(new Date('2026-03-08T09:30:00Z'), la).toISOString()).toBe('2026-03-07T10:00:00.000Z');
    // 2026-11-01: 1:00-2:00 AM happens twice; the day starts at 2:00 AM PST.
    expect(operatingDayStart(new Date('2026-11-01T09:30:00Z'), la).toISOString()).toBe('2026-10-31T09:00:00.000Z');
    expect(operatingDay(new Date('2026-11-01T09:30:00Z'), la)).toBe('2026-10-31');
    expect(operatingDay(new Date('2026-11-01T10:00:00Z'), la)).toBe('2026-11-01');
  });

  it('moves instants by whole days at the same wall-clock time, and calendar dates by days', () => {
    expect(Date.parse(shiftInstant('2026-03-07T10:00:00-08:00', 1, la))).toBe(Date.parse('2026-03-08T10:00:00-07:00'));
    expect(shiftDate('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-11-21', '2027-01-10')).toBe(50);
    expect(daysBetween('2026-11-21', '2026-11-20')).toBe(-1);
  });
});

describe('parkShortDate', () => {
  it("prints an instant's calendar date in the park as M/D/YY", () => {
    expect(parkShortDate(new Date('2026-11-21T20:00:00Z'), 'America/Los_Angeles')).toBe('11/21/26');
    // Already November 22nd in UTC, still the 21st in Los Angeles.
    expect(parkShortDate(new Date('2026-11-22T07:59:59Z'), 'America/Los_Angeles')).toBe('11/21/26');
    expect(parkShortDate(new Date('2026-11-22T07:59:59Z'), 'UTC')).toBe('11/22/26');
    expect(parkShortDate(new Date('2105-01-05T12:00:00Z'), 'America/Los_Angeles')).toBe('1/5/05');
  });
});
