import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateStatus, localMinuteOfWeek, openStatusAt, openTextOf, parseOpeningHours } from './opening-hours.js';

const CAIRO = 'Africa/Cairo';
/** Cairo is UTC+2 in April 2026 (no DST in Egypt? it has summer time from the last Friday of April): use early April, UTC+2. */
const at = (iso: string) => Date.parse(iso);

describe('parseOpeningHours', () => {
  it('turns the default data’s values into the weekly shape', () => {
    expect(parseOpeningHours('Su-Th 09:00-17:00')).toMatchObject({
      weekly: { monday: '09:00-17:00', tuesday: '09:00-17:00', wednesday: '09:00-17:00', thursday: '09:00-17:00', friday: 'closed', saturday: 'closed', sunday: '09:00-17:00' },
      weekStable: true,
      alwaysOpen: false,
    });
    expect(parseOpeningHours('Sa-Th 09:00-23:00; Fr 13:00-23:00')!.weekly).toMatchObject({ friday: '13:00-23:00', saturday: '09:00-23:00' });
    const always = parseOpeningHours('24/7')!;
    expect(always.alwaysOpen).toBe(true);
    expect(always.weekly.sunday).toBe('00:00-24:00');
    expect(always.weekIntervals).toEqual([[0, 10_080]]);
  });

  it('writes a range past midnight on the day it starts, and stores it split at the week end', () => {
    const late = parseOpeningHours('Mo-Su 08:00-02:00')!;
    expect(Object.values(late.weekly)).toEqual(Array(7).fill('08:00-02:00'));
    expect(late.weekIntervals[0]).toEqual([0, 120]);
    expect(late.weekIntervals.at(-1)).toEqual([6 * 1440 + 480, 10_080]);
    expect(parseOpeningHours('Mo 10:00-12:00,14:00-18:00')!.weekly.monday).toBe('10:00-12:00,14:00-18:00');
  });

  it('gives nothing for values it cannot read, and flags rules that vary by week', () => {
    expect(parseOpeningHours('8:30 ص الى 4:30 م')).toBeUndefined();
    expect(parseOpeningHours('')).toBeUndefined();
    expect(parseOpeningHours(undefined)).toBeUndefined();
    expect(parseOpeningHours('Mo-Fr 09:00-17:00; PH off')!.weekStable).toBe(false);
  });
});

describe('open state', () => {
  it('is open, closing within the hour, or closed, in the place’s timezone', () => {
    // 2026-04-06 is a Monday; Cairo is UTC+2 then
    expect(localMinuteOfWeek(at('2026-04-06T07:30:00Z'), CAIRO)).toBe(9 * 60 + 30);
    expect(openStatusAt('Su-Th 09:00-17:00', at('2026-04-06T07:30:00Z'), CAIRO)).toMatchObject({ state: 'open', next: { time: '17:00', weekday: 'monday' } });
    expect(openStatusAt('Su-Th 09:00-17:00', at('2026-04-06T14:15:00Z'), CAIRO)!.state).toBe('closing');
    expect(openStatusAt('Su-Th 09:00-17:00', at('2026-04-06T15:00:00Z'), CAIRO)!.state).toBe('closed');
    // Friday 10:00: closed until Sunday 09:00
    const friday = openStatusAt('Su-Th 09:00-17:00', at('2026-04-10T08:00:00Z'), CAIRO)!;
    expect(friday).toMatchObject({ state: 'closed', next: { weekday: 'sunday', time: '09:00' } });
    expect(openStatusAt('24/7', at('2026-04-10T08:00:00Z'), CAIRO)).toEqual({ state: 'open', next: null });
    // the same instant in Amman (UTC+3) is an hour later on the wall clock
    expect(openStatusAt('Mo-Su 08:00-09:00', at('2026-04-06T06:30:00Z'), CAIRO)!.state).toBe('closing');
    expect(openStatusAt('Mo-Su 08:00-09:00', at('2026-04-06T06:30:00Z'), 'Asia/Amman')!.state).toBe('closed');
  });

  it('answers from its memo exactly what the evaluation gives, for any millisecond of any second', () => {
    const values = ['Su-Th 09:00-17:00', 'Mo-Su 08:00-02:00', '24/7', 'Mo-Fr 08:00-12:00,13:00-17:30; Sa 10:00-14:00', 'Sa-Th 09:00-23:00; Fr 13:00-23:00'];
    const zones = [CAIRO, 'Asia/Amman', 'Asia/Riyadh', 'Asia/Dubai'];
    // instants near changes (xx:59:59.999 → xx:00:00.000) and anywhere in a fortnight, each asked again a few ms later
    const instant = fc.oneof(
      fc.integer({ min: 0, max: 14 * 24 }).map((hours) => at('2026-04-06T00:00:00Z') + hours * 3_600_000 - 1),
      fc.integer({ min: 0, max: 14 * 86_400_000 }).map((ms) => at('2026-04-06T00:00:00Z') + ms),
    );
    fc.assert(
      fc.property(fc.constantFrom(...values), fc.constantFrom(...zones), instant, fc.array(fc.integer({ min: -1_500, max: 1_500 }), { maxLength: 4 }), (raw, zone, start, later) => {
        for (const instantMs of [start, ...later.map((delta) => start + delta)]) {
          expect(openStatusAt(raw, instantMs, zone)).toEqual(evaluateStatus(raw, instantMs, zone));
        }
      }),
      { numRuns: 300, seed: 25 },
    );
    // shared between callers: not to be changed by one of them
    expect(Object.isFrozen(openStatusAt('Su-Th 09:00-17:00', at('2026-04-06T07:30:00Z'), CAIRO))).toBe(true);
  });

  it('says it in English and Arabic, with the holiday suffix that never changes the state', () => {
    const open = openStatusAt('Su-Th 09:00-17:00', at('2026-04-06T07:30:00Z'), CAIRO)!;
    expect(openTextOf(open, 'en')).toBe('Open · Closes 17:00');
    expect(openTextOf(open, 'ar')).toBe('مفتوح · يغلق 17:00');
    expect(openTextOf(open, 'en', 'Sham El-Nessim')).toBe('Open · Closes 17:00 · Sham El-Nessim · hours may vary');
    expect(openTextOf(open, 'ar', 'شم النسيم')).toBe('مفتوح · يغلق 17:00 · شم النسيم · قد تختلف المواعيد');
    const closed = openStatusAt('Su-Th 09:00-17:00', at('2026-04-10T08:00:00Z'), CAIRO)!;
    expect(openTextOf(closed, 'en')).toBe('Closed · Opens Sun 09:00');
    const tonight = openStatusAt('Su-Th 09:00-17:00', at('2026-04-06T15:00:00Z'), CAIRO)!;
    expect(openTextOf(tonight, 'en')).toBe('Closed · Opens 09:00');
    expect(openTextOf(openStatusAt('24/7', 0, CAIRO)!, 'en')).toBe('Open 24 hours');
  });
});
