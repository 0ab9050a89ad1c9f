import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hhMm, instantOf, nextDate, parseHhMm, wallClock } from './zoned-time.js';

describe('zoned time', () => {
  it('reads back the wall time it was built from, in zones with and without DST', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 * 365 }), fc.integer({ min: 0, max: 24 * 60 - 1 }), fc.constantFrom('Asia/Amman', 'Africa/Cairo', 'Asia/Dubai', 'Asia/Tehran'), (days, minute, zone) => {
        const date = new Date(Date.UTC(2025, 0, 1) + days * 86_400_000).toISOString().slice(0, 10);
        const instant = instantOf(zone, date, minute);
        const seen = wallClock(zone, instant);
        // a wall time skipped by a spring-forward gap reads back an hour later; every other one exactly
        if (seen.date === date && seen.minuteOfDay === minute) return;
        expect(seen.date).toBe(date);
        expect(seen.minuteOfDay - minute).toBe(60);
      }),
      { numRuns: 500 },
    );
  });

  it('moves a wall time skipped by a spring-forward gap an hour later (Cairo, 2027-04-30 00:00)', () => {
    const instant = instantOf('Africa/Cairo', '2027-04-30', 0);
    expect(new Date(instant).toISOString()).toBe('2027-04-29T22:00:00.000Z');
    expect(wallClock('Africa/Cairo', instant)).toMatchObject({ date: '2027-04-30', minuteOfDay: 60 });
  });

  it('parses and prints HH:MM', () => {
    expect(parseHhMm('07:05')).toBe(425);
    expect(parseHhMm('24:00')).toBeUndefined();
    expect(parseHhMm('7:05')).toBeUndefined();
    expect(hhMm('Asia/Amman', instantOf('Asia/Amman', '2026-11-30', 425))).toBe('07:05');
    expect(nextDate('2026-12-31')).toBe('2027-01-01');
    // Amman is UTC+3 all year since 2022
    expect(new Date(instantOf('Asia/Amman', '2026-11-30', 8 * 60)).toISOString()).toBe('2026-11-30T05:00:00.000Z');
  });
});
