/**
 * The computed (expected) first day of a Hijri month by each method of spec
 * part 2 §4.5. Umm al-Qura comes from its published table (through
 * @tabby_ai/hijri-converter, 1343–1500 AH); the astronomical methods look for
 * the crescent after the conjunction nearest the Umm al-Qura date.
 */
import { gregorianToHijri, hijriToGregorian } from '@tabby_ai/hijri-converter';
import { type DayNumber, civilDateOf, dayOf } from './civil-days.js';
import type { CountryProfile } from './country-profiles.js';
import { calculationMonthStart, conjunctionNear, ihcuMonthStart, sightingMonthStart } from './crescent.js';

/** Hijri years whose months every method can date (each needs its neighbours' Umm al-Qura dates). */
export const FIRST_HIJRI_YEAR = 1344;
export const LAST_HIJRI_YEAR = 1499;

export interface HijriDate {
  year: number;
  month: number;
  day: number;
}

export function ummAlQuraMonthStart(year: number, month: number): DayNumber {
  const date = hijriToGregorian({ year, month, day: 1 });
  return dayOf(date.year, date.month, date.day);
}

/** The Umm al-Qura date of a day: a first guess for the other methods, which differ by a day or two at most. */
export function ummAlQuraDateOf(day: DayNumber): HijriDate {
  const { year, month, day: dayOfMonth } = civilDateOf(day);
  return gregorianToHijri({ year, month, day: dayOfMonth });
}

/** The month's first day as the country's method computes it (`follows` countries are dated by the country they follow). */
export function computedMonthStart(profile: CountryProfile, year: number, month: number): DayNumber {
  const { method, observer, criterion } = profile.hijri;
  if (method === 'umm_al_qura' || method === 'follows') return ummAlQuraMonthStart(year, month);
  const conjunction = conjunctionNear(ummAlQuraMonthStart(year, month));
  if (method === 'ihcu') return ihcuMonthStart(conjunction);
  if (!observer) throw new Error(`${profile.code}: the ${method} method needs an observer`);
  if (method === 'calculation') return calculationMonthStart(observer, conjunction);
  if (!criterion) throw new Error(`${profile.code}: the sighting method needs a criterion`);
  return sightingMonthStart(observer, conjunction, criterion);
}
