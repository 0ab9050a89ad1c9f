/** Response shapes of the holiday and month-start endpoints, for the OpenAPI document (spec part 2 §2.7, §4.5). */
import { z } from 'zod';
import { COUNTRY_CODES, HIJRI_METHODS } from './country-profiles.js';
import { MONTH_START_STATUSES } from './hijri-calendar.js';
import { HOLIDAY_TYPES } from './holiday-rules.js';

const isoDate = z.string().describe('YYYY-MM-DD');
const country = z.enum(COUNTRY_CODES);
const holidayType = z.enum(HOLIDAY_TYPES);

export const holidayRecordSchema = z.object({
  id: z.string(),
  countryCode: country,
  city: z.string().nullable().describe('null: nationwide'),
  name: z.string(),
  nameAr: z.string(),
  type: holidayType,
  recurring: z.boolean().describe('true: fixed Gregorian date (month/day); false: moving holiday with an absolute date'),
  month: z.number().int().nullable(),
  day: z.number().int().nullable(),
  date: isoDate.nullable().describe('always set for moving holidays; for recurring ones the date within the requested window'),
  affectsBusinessHours: z.boolean(),
  enabled: z.boolean(),
});

export const holidaySummarySchema = z.object({ name: z.string(), nameAr: z.string(), type: holidayType, affectsBusinessHours: z.boolean() }).nullable();

export const holidaysTodayResponse = z.object({ country, city: z.string().nullable(), holiday: holidaySummarySchema });

export const holidaysOnResponse = z.object({
  provider: z.literal('svc-holidays'),
  country,
  date: z.string().nullable(),
  isHoliday: z.boolean(),
  holiday: holidaySummarySchema,
  error: z.string().optional().describe('set when `date` is malformed (then isHoliday is false)'),
});

export const holidaysUpcomingResponse = z.object({
  provider: z.literal('svc-holidays'),
  country,
  from: isoDate,
  to: isoDate,
  days: z.number().int(),
  count: z.number().int(),
  holidays: z.array(
    z.object({
      date: isoDate,
      daysUntil: z.number().int(),
      name: z.string(),
      nameAr: z.string(),
      type: holidayType,
      affectsBusinessHours: z.boolean(),
      city: z.string().nullable(),
      estimated: z.boolean().optional().describe('Hijri holidays only: true while the month start is computed rather than announced'),
    }),
  ),
});

export const holidaysHijriResponse = z.object({
  provider: z.literal('svc-holidays'),
  country,
  hijriYear: z.number().int(),
  method: z.enum(HIJRI_METHODS),
  follows: country.optional(),
  how: z.string(),
  months: z.array(z.object({ month: z.number().int(), name: z.string(), nameAr: z.string(), start: isoDate, status: z.enum(MONTH_START_STATUSES) })),
  events: z.object({ hijriNewYear: isoDate, ramadanStart: isoDate, eidAlFitr: isoDate, arafah: isoDate, eidAlAdha: isoDate }),
});

export const monthStartRecordSchema = z.object({
  id: z.string(),
  country: z.string(),
  hijriYear: z.number().int(),
  hijriMonth: z.number().int(),
  startDate: isoDate,
  status: z.enum(['announced', 'confirmed', 'withdrawn']),
  actorId: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
});

export type UpcomingHolidays = Readonly<z.infer<typeof holidaysUpcomingResponse>>;
