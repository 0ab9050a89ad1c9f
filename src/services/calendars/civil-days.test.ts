import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTRY_PROFILES } from './country-profiles.js';
import { LocalDays, dayOf } from './civil-days.js';

const ZONES = [...new Set(Object.values(COUNTRY_PROFILES).map((profile) => profile.timeZone))];

/** The date in a zone read straight from Intl, no cache. */
const referenceFormatters = new Map(ZONES.map((zone) => [zone, new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric' })]));
function referenceDay(timeZone: string, instantMs: number): number {
  const parts = referenceFormatters.get(timeZone)!.formatToParts(instantMs);
  const value = (type: string) => Number(parts.find((part) => part.type === type)!.value);
  return dayOf(value('year'), value('month'), value('day'));
}

describe('LocalDays', () => {
  // 1926–2075 is the calendars' range: it holds local mean times (Amman +2:23:44 until 1931) and
  // midnight offset changes (Beirut, Damascus, Amman), where a half hour can straddle two dates
  const first = Date.UTC(1926, 0, 1);
  const last = Date.UTC(2075, 11, 31, 23, 59);

  it('answers the formatter date for any instant and zone, asked in any order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...ZONES), fc.integer({ min: first, max: last }), fc.integer({ min: -7_200_000, max: 7_200_000 })), { minLength: 1, maxLength: 20 }),
        (queries) => {
          const localDays = new LocalDays();
          for (const [zone, instant, step] of queries) {
            // a second query near the first exercises the remembered half hour
            for (const at of [instant, Math.min(last, Math.max(first, instant + step))]) expect(localDays.localDayOf(zone, at)).toBe(referenceDay(zone, at));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gets every two minutes around the offset changes of a year right (Beirut changes at midnight)', () => {
    const localDays = new LocalDays();
    for (const zone of ['Asia/Beirut', 'Asia/Amman', 'Asia/Tehran', 'Africa/Cairo']) {
      for (let at = Date.UTC(2024, 2, 20); at < Date.UTC(2024, 3, 5); at += 120_000) expect(localDays.localDayOf(zone, at)).toBe(referenceDay(zone, at));
      for (let at = Date.UTC(1930, 11, 25); at < Date.UTC(1931, 0, 5); at += 120_000) expect(localDays.localDayOf(zone, at)).toBe(referenceDay(zone, at));
    }
  });
});
