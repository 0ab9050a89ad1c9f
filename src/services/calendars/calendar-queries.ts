/**
 * Request schemas of the holiday endpoints (spec part 2 §4.5) and the operator
 * month-start endpoints. Query values arrive as strings; a repeated parameter
 * is refused rather than guessed at. Every refusal names the field and says
 * what would be accepted.
 */
import { z } from 'zod';
import { type DayNumber, isoOfDay, parseIsoDay } from './civil-days.js';
import { COUNTRY_CODES, type CountryCode, isCountryCode } from './country-profiles.js';
import { FIRST_GREGORIAN_YEAR, LAST_GREGORIAN_YEAR } from './holiday-calendar.js';
import { FIRST_HIJRI_YEAR, LAST_HIJRI_YEAR } from './hijri-month-starts.js';
import { dayOf } from './civil-days.js';

export const FIRST_SUPPORTED_DAY = dayOf(FIRST_GREGORIAN_YEAR, 1, 1);
export const LAST_SUPPORTED_DAY = dayOf(LAST_GREGORIAN_YEAR, 12, 31);
/** Longest `from`–`to` window: 10 years (a window of holidays is a few hundred rows at most). */
export const MAX_WINDOW_DAYS = 3_653;
export const MAX_UPCOMING_DAYS = 3_650;
export const DEFAULT_UPCOMING_DAYS = 30;

const single = z.string({ error: 'must be given once' });
const SUPPORTED_RANGE = `${isoOfDay(FIRST_SUPPORTED_DAY)} to ${isoOfDay(LAST_SUPPORTED_DAY)}`;

export const countryParam = single
  .trim()
  .transform((value, context): CountryCode => {
    const code = value.toUpperCase();
    if (isCountryCode(code)) return code;
    context.addIssue({ code: 'custom', message: `unknown country "${value}": must be one of ${COUNTRY_CODES.join(', ')}` });
    return z.NEVER;
  });

const queryCountry = countryParam.optional().transform((value): CountryCode => value ?? 'JO');
const queryCity = single.trim().min(1, 'must not be blank').max(100, 'must be at most 100 characters').optional();

/** A strict `YYYY-MM-DD` within the supported years. */
export const isoDay = single.transform((value, context): DayNumber => {
  const day = parseIsoDay(value.trim());
  if (day === undefined) {
    context.addIssue({ code: 'custom', message: `"${value}" is not a date: use YYYY-MM-DD` });
    return z.NEVER;
  }
  if (day < FIRST_SUPPORTED_DAY || day > LAST_SUPPORTED_DAY) {
    context.addIssue({ code: 'custom', message: `must lie within ${SUPPORTED_RANGE}` });
    return z.NEVER;
  }
  return day;
});

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** An ISO 8601 instant with its offset (`2025-03-30T09:00:00Z`, `…+03:00`), as epoch milliseconds. */
export const queryInstant = single.trim().transform((value, context): number => {
  const epochMs = INSTANT.test(value) ? Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : Number.NaN;
  if (Number.isNaN(epochMs)) {
    context.addIssue({ code: 'custom', message: `"${value}" is not an ISO 8601 instant: use e.g. 2025-03-30T09:00:00+03:00 or …Z` });
    return z.NEVER;
  }
  return epochMs;
});

function wholeNumber(min: number, max: number) {
  return single.trim().transform((value, context): number => {
    const number = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(number) || number < min || number > max) {
      context.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
      return z.NEVER;
    }
    return number;
  });
}

export const holidaysListQuery = z
  .object({ country: queryCountry, city: queryCity, from: isoDay.optional(), to: isoDay.optional() })
  .superRefine((query, context) => {
    if (query.from === undefined || query.to === undefined) return;
    if (query.to < query.from) context.addIssue({ code: 'custom', path: ['to'], message: `must not be before from (${isoOfDay(query.from)})` });
    else if (query.to - query.from + 1 > MAX_WINDOW_DAYS) context.addIssue({ code: 'custom', path: ['to'], message: 'the window from–to may span at most 10 years' });
  });
export type HolidaysListQuery = z.infer<typeof holidaysListQuery>;

export const holidaysTodayQuery = z.object({ country: queryCountry, city: queryCity, at: queryInstant.optional() });
export type HolidaysTodayQuery = z.infer<typeof holidaysTodayQuery>;

/** `date` is read by the service: a malformed one is an answer (`isHoliday: false` with `error`), not a 400. */
export const holidaysOnQuery = z.object({ country: queryCountry, city: queryCity, date: z.unknown().optional() });
export type HolidaysOnQuery = z.infer<typeof holidaysOnQuery>;

export const holidaysUpcomingQuery = z.object({
  country: queryCountry,
  city: queryCity,
  days: wholeNumber(1, MAX_UPCOMING_DAYS).optional().transform((value) => value ?? DEFAULT_UPCOMING_DAYS),
});
export type HolidaysUpcomingQuery = z.infer<typeof holidaysUpcomingQuery>;

export const hijriYearParam = wholeNumber(FIRST_HIJRI_YEAR, LAST_HIJRI_YEAR);

export const holidaysHijriQuery = z.object({ country: queryCountry, year: hijriYearParam.optional() });
export type HolidaysHijriQuery = z.infer<typeof holidaysHijriQuery>;

/** Path of an operator's month start: `/admin/calendars/{country}/hijri/{year}/{month}`. */
export const monthStartParams = z.object({ country: countryParam, year: hijriYearParam, month: wholeNumber(1, 12) });
export type MonthStartParams = z.infer<typeof monthStartParams>;

export const monthStartYearParams = z.object({ country: countryParam, year: hijriYearParam });

export const monthStartBody = z.object({
  start: z.string({ error: 'must be a date (YYYY-MM-DD)' }).pipe(isoDay),
  status: z.enum(['announced', 'confirmed'], { error: 'must be announced or confirmed' }),
  note: z.string().trim().max(500, 'must be at most 500 characters').optional(),
});
export type MonthStartBody = z.infer<typeof monthStartBody>;
