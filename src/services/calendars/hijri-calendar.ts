/**
 * Each country's Hijri months: the computed start of every month, overlaid by
 * the starts operators announced or confirmed (spec part 2 §3). A `follows`
 * country takes the starts (and statuses) of the country it follows unless it
 * announced its own. A computed start stays within 29–30 days of the month
 * before it, so one announcement moves the expected months after it too.
 */
import { LRUCache } from 'lru-cache';
import type { DayNumber } from './civil-days.js';
import { COUNTRY_PROFILES, type CountryCode } from './country-profiles.js';
import { GenerationCache } from './generation-cache.js';
import { computedMonthStart, FIRST_HIJRI_YEAR, type HijriDate, LAST_HIJRI_YEAR, ummAlQuraDateOf } from './hijri-month-starts.js';

export const MONTH_START_STATUSES = ['expected', 'announced', 'confirmed'] as const;
export type MonthStartStatus = (typeof MONTH_START_STATUSES)[number];

export interface MonthStart {
  start: DayNumber;
  status: MonthStartStatus;
  /** What the country's method computes, whatever was announced. */
  computed: DayNumber;
}

export interface AnnouncedStart {
  start: DayNumber;
  status: 'announced' | 'confirmed';
}

/** The announced starts in force, as the calendar reads them (synchronously: they are held in memory). */
export interface AnnouncedStarts {
  find(country: CountryCode, year: number, month: number): AnnouncedStart | undefined;
  /** Moves whenever an announcement changes, so cached tables are rebuilt. */
  readonly generation: number;
}

export interface HijriYearTable {
  year: number;
  /** Months 1–12 at index 0–11. */
  months: readonly MonthStart[];
  /** First day of the next year. */
  end: DayNumber;
}

/** Astronomy costs up to a few milliseconds a month: each computed start is kept (15 countries × 156 years × 12 months at most). */
const COMPUTED_CACHE_SIZE = 30_000;
const TABLE_CACHE_SIZE = 2_048;

export function previousMonth(year: number, month: number): [number, number] {
  return month === 1 ? [year - 1, 12] : [year, month - 1];
}

export function nextMonth(year: number, month: number): [number, number] {
  return month === 12 ? [year + 1, 1] : [year, month + 1];
}

export function isSupportedHijriYear(year: number): boolean {
  return Number.isInteger(year) && year >= FIRST_HIJRI_YEAR && year <= LAST_HIJRI_YEAR;
}

export class HijriCalendar {
  private readonly computed = new LRUCache<string, number>({ max: COMPUTED_CACHE_SIZE });
  private readonly tables: GenerationCache<HijriYearTable>;

  constructor(private readonly announced: AnnouncedStarts) {
    this.tables = new GenerationCache(TABLE_CACHE_SIZE, announced);
  }

  computedStart(country: CountryCode, year: number, month: number): DayNumber {
    const profile = COUNTRY_PROFILES[country];
    if (profile.hijri.method === 'follows') return this.computedStart(profile.hijri.follows!, year, month);
    const key = `${country}:${year}:${month}`;
    let start = this.computed.get(key);
    if (start === undefined) {
      start = computedMonthStart(profile, year, month);
      this.computed.set(key, start);
    }
    return start;
  }

  /** The start before the 29–30 day rule: announced, else the followed country's, else computed. */
  private baseStart(country: CountryCode, year: number, month: number): MonthStart {
    const own = this.announced.find(country, year, month);
    if (own) return { ...own, computed: this.computedStart(country, year, month) };
    const profile = COUNTRY_PROFILES[country];
    if (profile.hijri.method === 'follows') return this.baseStart(profile.hijri.follows!, year, month);
    const computed = this.computedStart(country, year, month);
    return { start: computed, status: 'expected', computed };
  }

  monthStart(country: CountryCode, year: number, month: number): MonthStart {
    const base = this.baseStart(country, year, month);
    if (base.status !== 'expected') return base;
    const [previousYear, previous] = previousMonth(year, month);
    const before = this.baseStart(country, previousYear, previous).start;
    const start = Math.min(Math.max(base.start, before + 29), before + 30);
    return start === base.start ? base : { ...base, start };
  }

  yearTable(country: CountryCode, year: number): HijriYearTable {
    return this.tables.get(`${country}:${year}`, () => ({
      year,
      months: Array.from({ length: 12 }, (_, index) => this.monthStart(country, year, index + 1)),
      end: this.monthStart(country, year + 1, 1).start,
    }));
  }

  /** The start of a month through the year table (cached). */
  startOf(country: CountryCode, year: number, month: number): MonthStart {
    return this.yearTable(country, year).months[month - 1]!;
  }

  /** The Hijri date of a day in a country's calendar. */
  dateOf(country: CountryCode, day: DayNumber): HijriDate {
    const guess = ummAlQuraDateOf(day);
    let year = guess.year;
    let table = this.yearTable(country, year);
    if (day < table.months[0]!.start) table = this.yearTable(country, --year);
    else if (day >= table.end) table = this.yearTable(country, ++year);
    let month = 12;
    while (month > 1 && table.months[month - 1]!.start > day) month--;
    return { year, month, day: day - table.months[month - 1]!.start + 1 };
  }
}
