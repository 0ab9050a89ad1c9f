/**
 * Iftar at a point: sunset (the Maghrib prayer) on a local date, from
 * astronomy-engine (VSOP87; the calendars' crescent code uses the same). The
 * standard sunset (upper limb at −0.833°, refraction included) is within a
 * minute or two of the published Maghrib times of the region.
 */
import { Body, Observer, SearchRiseSet } from 'astronomy-engine';
import type { CountryCode } from '../calendars/country-profiles.js';
import { localClock } from './traffic-model.js';

/** Epoch ms of sunset at (lat, lng) on the local date `localDate` of `country`, or undefined (polar day or night). */
export function sunsetOn(lat: number, lng: number, country: CountryCode, localDate: string): number | undefined {
  const observer = new Observer(lat, lng, 0);
  // from a day before the date's UTC midnight: the first sunsets found cover every offset of the region
  let from = Date.parse(`${localDate}T00:00:00Z`) - 86_400_000;
  for (let tries = 0; tries < 4; tries++) {
    const sunset = SearchRiseSet(Body.Sun, observer, -1, new Date(from), 3);
    if (!sunset) return undefined;
    const ms = sunset.date.getTime();
    const date = localClock(country, ms).date;
    if (date === localDate) return ms;
    if (date > localDate) return undefined;
    from = ms + 60_000;
  }
  return undefined;
}
