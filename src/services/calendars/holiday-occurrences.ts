/**
 * A country's holidays in one Gregorian year, as dated occurrences: every rule
 * expanded (multi-day holidays day by day, observed days added), Hijri ones
 * through the country's Hijri calendar with their month start's status.
 */
import { type DayNumber, civilDateOf, dayOf, isoOfDay, weekdayOf } from './civil-days.js';
import type { CountryCode } from './country-profiles.js';
import { type HijriCalendar, nextMonth } from './hijri-calendar.js';
import { ummAlQuraDateOf } from './hijri-month-starts.js';
import { activeIn, gregorianFirstDay, type HolidayRule, type HolidayType } from './holiday-rules.js';
import type { HolidayLibrary } from './library-holidays.js';

export interface HolidayOccurrence {
  id: string;
  key: string;
  country: CountryCode;
  city: string | null;
  cityAr: string | null;
  name: string;
  nameAr: string;
  type: HolidayType;
  /** A fixed Gregorian date (month/day) every year. */
  recurring: boolean;
  date: DayNumber;
  affectsBusinessHours: boolean;
  /** The holiday's first day, a following day of a multi-day holiday, or a day added because it fell on a weekend. */
  part: 'first' | 'following' | 'observed';
  /** Hijri holidays: the month start the date hangs on, and whether it is still computed. */
  hijri?: { year: number; month: number; estimated: boolean };
}

export interface OccurrenceSources {
  hijri: HijriCalendar;
  library: HolidayLibrary;
}

function occurrence(country: CountryCode, rule: HolidayRule, date: DayNumber, dayIndex: number, label?: { name: string; nameAr: string; suffix: string }): HolidayOccurrence {
  const recurring = rule.kind === 'fixed' && dayIndex === 0 && !label;
  const following = dayIndex > 0;
  return {
    id: `${country}-${rule.city ? `${rule.city.toLowerCase()}-` : ''}${rule.key}${recurring ? '' : `-${isoOfDay(date)}`}${label?.suffix ?? ''}`,
    key: rule.key,
    country,
    city: rule.city ?? null,
    cityAr: rule.cityAr ?? null,
    name: label?.name ?? (following ? (rule.followingName ?? rule.name) : rule.name),
    nameAr: label?.nameAr ?? (following ? (rule.followingNameAr ?? rule.nameAr) : rule.nameAr),
    type: rule.type,
    recurring,
    date,
    affectsBusinessHours: rule.affectsBusinessHours ?? rule.type !== 'observance',
    part: label ? 'observed' : following ? 'following' : 'first',
  };
}

/** First days of a rule's occurrences that may touch `year` (Hijri ones: every Hijri year overlapping it). */
function firstDays(country: CountryCode, rule: HolidayRule, year: number, sources: OccurrenceSources): { day: DayNumber; hijri?: HolidayOccurrence['hijri'] }[] {
  if (rule.kind === 'library') return sources.library.datesOf(country, rule.libraryRule, year).map((day) => ({ day }));
  if (rule.kind !== 'hijri') {
    const day = gregorianFirstDay(rule, year);
    return day === undefined ? [] : [{ day }];
  }
  const firstHijriYear = ummAlQuraDateOf(dayOf(year, 1, 1)).year - 1;
  const lastHijriYear = ummAlQuraDateOf(dayOf(year, 12, 31)).year;
  const days: { day: DayNumber; hijri: HolidayOccurrence['hijri'] }[] = [];
  for (let hijriYear = firstHijriYear; hijriYear <= lastHijriYear; hijriYear++) {
    const start = sources.hijri.startOf(country, hijriYear, rule.hijriMonth);
    const day = rule.hijriDay > 0 ? start.start + rule.hijriDay - 1 : sources.hijri.startOf(country, ...nextMonth(hijriYear, rule.hijriMonth)).start + rule.hijriDay;
    days.push({ day, hijri: { year: hijriYear, month: rule.hijriMonth, estimated: start.status === 'expected' } });
  }
  return days;
}

/** Every occurrence of a country's rules dated within a Gregorian year, by date. */
export function occurrencesInYear(country: CountryCode, rules: readonly HolidayRule[], year: number, sources: OccurrenceSources): HolidayOccurrence[] {
  const occurrences: HolidayOccurrence[] = [];
  const inYear = (day: DayNumber) => civilDateOf(day).year === year;
  for (const rule of rules) {
    for (const { day: first, hijri } of firstDays(country, rule, year, sources)) {
      // a multi-day holiday starting late in December is kept by the rules of the year it starts in
      const startYear = civilDateOf(first).year;
      if (!activeIn(rule, startYear)) continue;
      for (let index = 0; index < (rule.days ?? 1); index++) {
        const day = first + index;
        if (!inYear(day)) continue;
        occurrences.push({ ...occurrence(country, rule, day, index), ...(hijri ? { hijri } : {}) });
      }
      const observed = rule.observed;
      if (observed && (observed.since === undefined || startYear >= observed.since)) {
        const shift = observed.shifts.find((candidate) => candidate.weekday === weekdayOf(first));
        const day = shift ? first + shift.by : undefined;
        if (day !== undefined && inYear(day)) {
          occurrences.push(occurrence(country, rule, day, 0, { name: `${rule.name} (observed)`, nameAr: `${rule.nameAr} (عطلة بديلة)`, suffix: '-observed' }));
        }
      }
    }
  }
  return occurrences.sort((a, b) => a.date - b.date || Number(b.affectsBusinessHours) - Number(a.affectsBusinessHours));
}
