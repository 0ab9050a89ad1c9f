/**
 * The calendar service (spec part 2 §2.7, §4.5): holidays by country, city and
 * window; a day's holiday in the country's own timezone; upcoming holidays; a
 * country's Hijri year; and the calendar flags other areas consult on hot
 * paths (place detail, traffic, commute), cached per country and half hour.
 */
import { type DayNumber, LocalDays, civilDateOf, isoOfDay, parseIsoDay, weekdayOf } from './civil-days.js';
import { FIRST_SUPPORTED_DAY, LAST_SUPPORTED_DAY, type HolidaysHijriQuery, type HolidaysListQuery, type HolidaysOnQuery, type HolidaysTodayQuery, type HolidaysUpcomingQuery } from './calendar-queries.js';
import { COUNTRY_CODES, COUNTRY_PROFILES, type CountryCode, isCountryCode } from './country-profiles.js';
import type { UpcomingHolidays } from './calendar-responses.js';
import { GenerationCache } from './generation-cache.js';
import type { AnnouncedStarts, HijriCalendar } from './hijri-calendar.js';
import { type CityScope, HolidayCalendar, inScope } from './holiday-calendar.js';
import type { HolidayOccurrence } from './holiday-occurrences.js';
import { DHU_AL_HIJJAH, HIJRI_MONTH_NAMES, RAMADAN, SHAWWAL, type HolidayType } from './holiday-rules.js';
import type { HolidayLibrary } from './library-holidays.js';
import { ApiError } from '../../shared/errors.js';

export const PROVIDER = 'svc-holidays' as const;

/** A holiday as spec part 2 §2.7 shows it. */
export interface HolidayRecord {
  id: string;
  countryCode: CountryCode;
  city: string | null;
  name: string;
  nameAr: string;
  type: HolidayType;
  recurring: boolean;
  month: number | null;
  day: number | null;
  date: string | null;
  affectsBusinessHours: boolean;
  enabled: boolean;
}

/** The short form of `/holidays/today`, `/holidays/on`, place detail and the flags. */
export interface HolidaySummary {
  name: string;
  nameAr: string;
  type: HolidayType;
  affectsBusinessHours: boolean;
}

export interface CalendarFlags {
  isHoliday: boolean;
  isWeekend: boolean;
  isRamadan: boolean;
  holiday: HolidaySummary | null;
}

/** Where a point lies, for flags asked by position (the admin areas of the geocoder). */
export type PlaceResolver = (lat: number, lon: number) => { country?: string; city?: string } | undefined;

export interface CalendarServiceDeps {
  hijri: HijriCalendar;
  library: HolidayLibrary;
  announced: AnnouncedStarts;
  placeAt?: PlaceResolver;
  now?: () => number;
}

/** Half an hour: every offset of the fifteen countries' zones is a multiple of it, so a country's day never starts inside one. */
const FLAG_BUCKET_MS = 1_800_000;
const FLAG_CACHE_SIZE = 8_192;
// 15 countries × their cities × the `days` asked: a day's distinct queries are few
const UPCOMING_CACHE_SIZE = 2_048;

function summaryOf(occurrence: HolidayOccurrence | undefined): HolidaySummary | null {
  return occurrence ? { name: occurrence.name, nameAr: occurrence.nameAr, type: occurrence.type, affectsBusinessHours: occurrence.affectsBusinessHours } : null;
}

export class CalendarService {
  readonly holidays: HolidayCalendar;
  private readonly hijri: HijriCalendar;
  private readonly localDays = new LocalDays();
  private readonly now: () => number;
  private readonly flagCache: GenerationCache<CalendarFlags>;
  private readonly upcomingCache: GenerationCache<UpcomingHolidays>;

  constructor(private readonly deps: CalendarServiceDeps) {
    this.hijri = deps.hijri;
    this.holidays = new HolidayCalendar(deps.hijri, deps.library, deps.announced);
    this.now = deps.now ?? Date.now;
    this.flagCache = new GenerationCache(FLAG_CACHE_SIZE, deps.announced);
    this.upcomingCache = new GenerationCache(UPCOMING_CACHE_SIZE, deps.announced);
  }

  /** A country's date at an instant (its own timezone). */
  localDay(country: CountryCode, instantMs: number): DayNumber {
    return this.localDays.localDayOf(COUNTRY_PROFILES[country].timeZone, instantMs);
  }

  private scopeOf(country: CountryCode, city: string | undefined, listing: boolean): CityScope {
    if (city === undefined) return listing ? { kind: 'all' } : { kind: 'nationwide' };
    const known = this.holidays.cityNamed(country, city);
    // a city without holidays of its own keeps the nationwide ones; echoing it is enough
    return known ? { kind: 'city', city: known } : { kind: 'nationwide' };
  }

  private record(occurrence: HolidayOccurrence, withDate: boolean): HolidayRecord {
    const civil = civilDateOf(occurrence.date);
    return {
      id: occurrence.id,
      countryCode: occurrence.country,
      city: occurrence.city,
      name: occurrence.name,
      nameAr: occurrence.nameAr,
      type: occurrence.type,
      recurring: occurrence.recurring,
      month: occurrence.recurring ? civil.month : null,
      day: occurrence.recurring ? civil.day : null,
      date: withDate || !occurrence.recurring ? isoOfDay(occurrence.date) : null,
      affectsBusinessHours: occurrence.affectsBusinessHours,
      enabled: true,
    };
  }

  private assertSupported(day: DayNumber): void {
    if (day < FIRST_SUPPORTED_DAY || day > LAST_SUPPORTED_DAY) {
      throw new ApiError('VALIDATION_ERROR', { message: `dates must lie within ${isoOfDay(FIRST_SUPPORTED_DAY)} to ${isoOfDay(LAST_SUPPORTED_DAY)}` });
    }
  }

  /**
   * GET /holidays. With a window (either end defaults: `from` to today, `to` to a year after `from`)
   * every holiday in it, recurring ones at their dates. Without one, the country's holidays of the
   * current year: recurring ones as rules (month/day, no date), moving ones with their dates.
   */
  list(query: HolidaysListQuery): HolidayRecord[] {
    const scope = this.scopeOf(query.country, query.city, true);
    if (query.from === undefined && query.to === undefined) {
      const year = civilDateOf(this.localDay(query.country, this.now())).year;
      const occurrences = this.holidays.yearOf(query.country, year).filter((occurrence) => inScope(occurrence, scope));
      return occurrences.map((occurrence) => this.record(occurrence, false));
    }
    const from = query.from ?? (query.to !== undefined ? Math.max(query.to - 364, FIRST_SUPPORTED_DAY) : this.localDay(query.country, this.now()));
    const to = query.to ?? Math.min(from + 364, LAST_SUPPORTED_DAY);
    this.assertSupported(from);
    this.assertSupported(to);
    return this.holidays.between(query.country, from, to, scope).map((occurrence) => this.record(occurrence, true));
  }

  /** The most significant holiday of a day: one that closes businesses first. */
  private holidayOn(country: CountryCode, day: DayNumber, scope: CityScope): HolidayOccurrence | undefined {
    return this.holidays.on(country, day, scope)[0];
  }

  /** GET /holidays/today */
  today(query: HolidaysTodayQuery): { country: CountryCode; city: string | null; holiday: HolidaySummary | null } {
    const day = this.localDay(query.country, query.at ?? this.now());
    this.assertSupported(day);
    return { country: query.country, city: query.city ?? null, holiday: summaryOf(this.holidayOn(query.country, day, this.scopeOf(query.country, query.city, false))) };
  }

  /** GET /holidays/on: a malformed date is an answer with `error`, not a refusal. */
  on(query: HolidaysOnQuery) {
    const base = { provider: PROVIDER, country: query.country };
    const raw = query.date;
    const day = raw === undefined ? this.localDay(query.country, this.now()) : typeof raw === 'string' ? parseIsoDay(raw.trim()) : undefined;
    if (day === undefined) {
      return { ...base, date: typeof raw === 'string' ? raw : null, isHoliday: false, holiday: null, error: 'date must be a real date written YYYY-MM-DD (given once)' };
    }
    if (day < FIRST_SUPPORTED_DAY || day > LAST_SUPPORTED_DAY) {
      return { ...base, date: isoOfDay(day), isHoliday: false, holiday: null, error: `dates must lie within ${isoOfDay(FIRST_SUPPORTED_DAY)} to ${isoOfDay(LAST_SUPPORTED_DAY)}` };
    }
    const holiday = this.holidayOn(query.country, day, this.scopeOf(query.country, query.city, false));
    return { ...base, date: isoOfDay(day), isHoliday: holiday !== undefined, holiday: summaryOf(holiday) };
  }

  /** GET /holidays/upcoming: today and the `days - 1` days after it, soonest first. */
  /**
   * GET /holidays/upcoming. The answer depends only on the country's date, the query and the announced
   * month starts, so it is kept per date and query (and dropped when an announcement moves): the same
   * object comes back for the rest of the day, which lets the edge serialize it once.
   */
  upcoming(query: HolidaysUpcomingQuery): UpcomingHolidays {
    const from = this.localDay(query.country, this.now());
    return this.upcomingCache.get(`${query.country}|${query.city ?? ''}|${query.days}|${from}`, () => this.computeUpcoming(query, from));
  }

  private computeUpcoming(query: HolidaysUpcomingQuery, from: DayNumber): UpcomingHolidays {
    const to = Math.min(from + query.days - 1, LAST_SUPPORTED_DAY);
    this.assertSupported(from);
    const holidays = this.holidays.between(query.country, from, to, this.scopeOf(query.country, query.city, true)).map((occurrence) => ({
      date: isoOfDay(occurrence.date),
      daysUntil: occurrence.date - from,
      name: occurrence.name,
      nameAr: occurrence.nameAr,
      type: occurrence.type,
      affectsBusinessHours: occurrence.affectsBusinessHours,
      city: occurrence.city,
      ...(occurrence.hijri ? { estimated: occurrence.hijri.estimated } : {}),
    }));
    return Object.freeze({ provider: PROVIDER, country: query.country, from: isoOfDay(from), to: isoOfDay(to), days: query.days, count: holidays.length, holidays });
  }


  /** GET /holidays/hijri: a Hijri year's months as the country dates them, and its main events. */
  hijriYear(query: HolidaysHijriQuery) {
    const country = query.country;
    const year = query.year ?? this.hijri.dateOf(country, this.localDay(country, this.now())).year;
    const table = this.hijri.yearTable(country, year);
    const profile = COUNTRY_PROFILES[country];
    const startOf = (month: number) => table.months[month - 1]!.start;
    return {
      provider: PROVIDER,
      country,
      hijriYear: year,
      method: profile.hijri.method,
      ...(profile.hijri.follows ? { follows: profile.hijri.follows } : {}),
      how: profile.hijri.how,
      months: table.months.map((month, index) => ({ month: index + 1, ...HIJRI_MONTH_NAMES[index]!, start: isoOfDay(month.start), status: month.status })),
      events: {
        hijriNewYear: isoOfDay(startOf(1)),
        ramadanStart: isoOfDay(startOf(RAMADAN)),
        eidAlFitr: isoOfDay(startOf(SHAWWAL)),
        arafah: isoOfDay(startOf(DHU_AL_HIJJAH) + 8),
        eidAlAdha: isoOfDay(startOf(DHU_AL_HIJJAH) + 9),
      },
    };
  }

  /**
   * The calendar flags of a country (or one of its cities) at an instant, in its own timezone: the
   * function places, traffic and commute advice call. Cached per country, city and half hour, and
   * dropped when an announcement moves a Hijri month.
   */
  flags(country: CountryCode, atMs: number, city?: string): CalendarFlags {
    return this.flagCache.get(`${country}|${city ?? ''}|${Math.floor(atMs / FLAG_BUCKET_MS)}`, () => this.computeFlags(country, this.localDay(country, atMs), city));
  }

  /** The flags at a point, its country and city resolved through the admin areas; undefined outside the fifteen countries. */
  flagsAt(lat: number, lon: number, atMs: number): (CalendarFlags & { country: CountryCode; city: string | null }) | undefined {
    const place = this.deps.placeAt?.(lat, lon);
    const code = place?.country?.toUpperCase();
    if (!code || !isCountryCode(code)) return undefined;
    return { ...this.flags(code, atMs, place?.city), country: code, city: place?.city ?? null };
  }

  private computeFlags(country: CountryCode, day: DayNumber, city: string | undefined): CalendarFlags {
    if (day < FIRST_SUPPORTED_DAY || day > LAST_SUPPORTED_DAY) return { isHoliday: false, isWeekend: isWeekend(country, day), isRamadan: false, holiday: null };
    const holiday = this.holidayOn(country, day, this.scopeOf(country, city, false));
    return {
      isHoliday: holiday?.affectsBusinessHours ?? false,
      isWeekend: isWeekend(country, day),
      isRamadan: this.hijri.dateOf(country, day).month === RAMADAN,
      holiday: summaryOf(holiday),
    };
  }
}

/** Each country's weekends, newest first, with their first days as day numbers. */
const WEEKENDS: ReadonlyMap<CountryCode, readonly { since: DayNumber; days: readonly number[] }[]> = new Map(
  COUNTRY_CODES.map((country) => [
    country,
    COUNTRY_PROFILES[country].weekends.map((period) => ({ since: period.since === undefined ? Number.NEGATIVE_INFINITY : parseIsoDay(period.since)!, days: period.days })),
  ]),
);

/** Whether a day is a weekend day in the country at that date (weekends changed: Saudi Arabia in 2013, the UAE in 2022, …). */
export function isWeekend(country: CountryCode, day: DayNumber): boolean {
  const period = WEEKENDS.get(country)!.find((candidate) => day >= candidate.since);
  return period?.days.includes(weekdayOf(day)) ?? false;
}
