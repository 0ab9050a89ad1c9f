/**
 * The holidays of the fifteen countries by date: each country's rules (own
 * table and corrected library rules), expanded per Gregorian year on first use
 * and kept (bounded) until an announcement moves a Hijri month.
 */
import { type DayNumber, civilDateOf } from './civil-days.js';
import { COUNTRY_CODES, type CountryCode } from './country-profiles.js';
import { GenerationCache } from './generation-cache.js';
import type { AnnouncedStarts, HijriCalendar } from './hijri-calendar.js';
import { type HolidayOccurrence, occurrencesInYear } from './holiday-occurrences.js';
import type { HolidayRule } from './holiday-rules.js';
import { HOLIDAY_TABLES } from './holiday-table.js';
import type { HolidayLibrary } from './library-holidays.js';

/** Gregorian years every Hijri method can date (see FIRST_HIJRI_YEAR). */
export const FIRST_GREGORIAN_YEAR = 1926;
export const LAST_GREGORIAN_YEAR = 2075;

/**
 * Which city holidays count: `all` lists every city's (a listing without `city`), `nationwide`
 * none (a day's status without `city`), or one city's besides the nationwide ones.
 */
export type CityScope = { kind: 'all' } | { kind: 'nationwide' } | { kind: 'city'; city: string };

const YEAR_CACHE_SIZE = 1_024;

function normalizedCity(text: string): string {
  return text.trim().toLowerCase().replace(/[\s_-]+/g, ' ');
}

export class HolidayCalendar {
  private readonly rules: ReadonlyMap<CountryCode, readonly HolidayRule[]>;
  private readonly cities: ReadonlyMap<CountryCode, ReadonlyMap<string, string>>;
  private readonly years: GenerationCache<HolidayOccurrence[]>;

  constructor(
    private readonly hijri: HijriCalendar,
    private readonly library: HolidayLibrary,
    announced: AnnouncedStarts,
  ) {
    const rules = new Map<CountryCode, readonly HolidayRule[]>();
    const cities = new Map<CountryCode, Map<string, string>>();
    for (const country of COUNTRY_CODES) {
      const table = HOLIDAY_TABLES[country];
      const countryRules = [...library.rulesOf(country, table), ...table.rules];
      rules.set(country, countryRules);
      const names = new Map<string, string>();
      for (const rule of countryRules) {
        if (rule.city) names.set(normalizedCity(rule.city), rule.city);
        if (rule.city && rule.cityAr) names.set(normalizedCity(rule.cityAr), rule.city);
      }
      cities.set(country, names);
    }
    this.rules = rules;
    this.cities = cities;
    this.years = new GenerationCache(YEAR_CACHE_SIZE, announced);
  }

  rulesOf(country: CountryCode): readonly HolidayRule[] {
    return this.rules.get(country)!;
  }

  /** The canonical (English) name of a city with holidays of its own, from its English or Arabic name; undefined if it has none. */
  cityNamed(country: CountryCode, text: string): string | undefined {
    return this.cities.get(country)!.get(normalizedCity(text));
  }

  /** A country's occurrences in a Gregorian year (every city's), by date. */
  yearOf(country: CountryCode, year: number): readonly HolidayOccurrence[] {
    return this.years.get(`${country}:${year}`, () => occurrencesInYear(country, this.rules.get(country)!, year, { hijri: this.hijri, library: this.library }));
  }

  /** Occurrences from `from` to `to` (inclusive), by date. */
  between(country: CountryCode, from: DayNumber, to: DayNumber, scope: CityScope): HolidayOccurrence[] {
    const found: HolidayOccurrence[] = [];
    for (let year = civilDateOf(from).year; year <= civilDateOf(to).year; year++) {
      for (const occurrence of this.yearOf(country, year)) {
        if (occurrence.date >= from && occurrence.date <= to && inScope(occurrence, scope)) found.push(occurrence);
      }
    }
    return found;
  }

  on(country: CountryCode, day: DayNumber, scope: CityScope): HolidayOccurrence[] {
    return this.between(country, day, day, scope);
  }
}

export function inScope(occurrence: HolidayOccurrence, scope: CityScope): boolean {
  if (occurrence.city === null || scope.kind === 'all') return true;
  return scope.kind === 'city' && occurrence.city === scope.city;
}
