/**
 * Request schemas of navigation sessions, shared by the REST routes and the
 * WebSocket stream so a fix means the same thing on both.
 */
import { z } from 'zod';
import { heading, latitude, longitude } from './geo.js';

export const NAVIGATION_COSTINGS = ['auto', 'pedestrian', 'bicycle', 'motor_scooter', 'truck', 'wheelchair'] as const;
export const NAVIGATION_PREFERENCES = ['fastest', 'shortest', 'balanced'] as const;
export const NAVIGATION_AVOIDANCES = ['tolls', 'highways', 'ferries', 'unpaved'] as const;
/** Fixes one positions call (or one stream message) may carry. */
export const MAX_FIXES_PER_BATCH = 50;

export const latLng = z.object({ lat: latitude, lng: longitude });

export const fixSchema = z.object({
  lat: latitude,
  lng: longitude,
  /** m/s; 150 m/s is far above any road vehicle. */
  speed: z.number().finite().min(0).max(150).optional(),
  heading: heading.optional(),
  /** Horizontal accuracy of the fix, m. */
  accuracy: z.number().finite().min(0).max(10_000).optional(),
  capturedAt: z.iso.datetime({ offset: true }).optional(),
});

export const fixBatchSchema = z.array(fixSchema).min(1).max(MAX_FIXES_PER_BATCH);

/** BCP 47-ish language tag: `en`, `en-US`, `ar`, `ar-EG`. */
export const languageTag = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag like en-US or ar')
  .default('en-US');

export const sessionCreateSchema = z.object({
  origin: latLng,
  destination: latLng.extend({
    name: z.string().trim().min(1).max(200).optional(),
    placeSlug: z.string().trim().min(1).max(200).optional(),
  }),
  costing: z.enum(NAVIGATION_COSTINGS).default('auto'),
  language: languageTag,
  preference: z.enum(NAVIGATION_PREFERENCES).default('balanced'),
  /** One avoidance or several (array or comma-separated). */
  avoid: z
    .union([z.enum(NAVIGATION_AVOIDANCES), z.array(z.enum(NAVIGATION_AVOIDANCES)).max(NAVIGATION_AVOIDANCES.length)])
    .optional()
    .transform((value) => (value === undefined ? [] : [...new Set(Array.isArray(value) ? value : [value])])),
  webhookUrl: z.string().trim().min(1).max(2048).optional(),
});

export const sessionIdParams = z.object({ id: z.string().min(1).max(64) });
