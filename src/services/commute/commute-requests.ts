/** Request bodies of POST /commute/advice and /me/commutes (docs/commute.md). */
import { z } from 'zod';
import { latitude, longitude } from '../../domain/geo.js';
import { parseHhMm } from './zoned-time.js';

const point = z.object({ lat: latitude, lng: longitude });
const arriveBy = z.string().refine((value) => parseHhMm(value) !== undefined, { message: 'must be HH:MM (24-hour, Jordan time)' });
const bufferMin = z.number().int().min(0).max(120);
const costing = z.enum(['auto', 'truck']);

export const adviceRequest = z.object({
  home: point,
  work: point,
  arriveBy: arriveBy.optional(),
  bufferMin: bufferMin.default(5),
  costing: costing.default('auto'),
});
export type AdviceRequest = z.infer<typeof adviceRequest>;

const weekdays = z
  .array(z.number().int().min(0).max(6))
  .min(1, 'at least one day')
  .max(7)
  .refine((days) => new Set(days).size === days.length, { message: 'must not repeat a day' });

const commuteFields = {
  name: z.string().trim().min(1).max(100),
  home: point,
  work: point,
  arriveBy,
  bufferMin,
  costing,
  /** Whose weekend sets the default days (ISO-2, one of the 15 supported; others read as JO). */
  country: z.string().trim().min(2).max(2),
  /** 0 = Sunday … 6 = Saturday; default the country's working days. */
  weekdays,
  alertsEnabled: z.boolean(),
};

export const newCommuteRequest = z.object({
  ...commuteFields,
  name: commuteFields.name.default('Commute'),
  bufferMin: bufferMin.default(5),
  costing: costing.default('auto'),
  country: commuteFields.country.default('JO'),
  weekdays: weekdays.optional(),
  alertsEnabled: z.boolean().default(true),
});
export type NewCommuteRequest = z.infer<typeof newCommuteRequest>;

export const commuteChangeRequest = z.object({
  name: commuteFields.name.optional(),
  home: point.optional(),
  work: point.optional(),
  arriveBy: arriveBy.optional(),
  bufferMin: bufferMin.optional(),
  costing: costing.optional(),
  country: commuteFields.country.optional(),
  weekdays: weekdays.optional(),
  alertsEnabled: z.boolean().optional(),
});
export type CommuteChangeRequest = z.infer<typeof commuteChangeRequest>;
