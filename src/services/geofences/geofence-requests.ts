/** Request shapes of the geofence endpoints (designed; docs/geofences.md). */
import { z } from 'zod';
import { latitude, longitude } from '../../domain/geo.js';

/** Zones one project may hold. */
export const MAX_ZONES_PER_PROJECT = 100_000;
export const MAX_POLYGON_VERTICES = 1_000;
/** A polygon spans at most this many degrees (the local metric frame of evaluation stays exact). */
export const MAX_POLYGON_SPAN_DEG = 1;

const circle = z.object({ type: z.literal('circle'), center: z.object({ lat: latitude, lng: longitude }), radiusM: z.number().finite().min(1).max(50_000) });
const polygon = z.object({
  type: z.literal('polygon'),
  /** One ring of [lng, lat] (GeoJSON order); closing the ring is optional. */
  coordinates: z.array(z.tuple([longitude, latitude])).min(3).max(MAX_POLYGON_VERTICES + 1),
});

export const projectQuery = z.object({ projectId: z.uuid().optional() });

export const newGeofenceRequest = z.object({
  name: z.string().trim().min(1).max(100),
  shape: z.discriminatedUnion('type', [circle, polygon]),
  /** Half-width of the band around the boundary where a device keeps its state (default 10 m). */
  hysteresisM: z.number().finite().min(0).max(1_000).default(10),
  /** Seconds inside after which one `dwell` event fires per visit; absent: no dwell events. */
  dwellSec: z.number().int().min(1).max(7 * 86_400).optional(),
  webhookUrl: z.string().max(2048).optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .refine((value) => JSON.stringify(value).length <= 4_096, { message: 'must be at most 4096 characters as JSON' })
    .optional(),
});
export type NewGeofenceRequest = z.infer<typeof newGeofenceRequest>;

export const listQuery = projectQuery.extend({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** Fixes one call may carry (a device that buffered its positions sends them together). */
export const MAX_FIXES_PER_CALL = 500;

const deviceId = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1 to 128 letters, digits or . _ : -');
/** When the fix was taken (default now); at most 1 minute ahead and 24 hours back. */
const fixTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2026-03-01T08:30:00Z' });
const fix = z.object({ lat: latitude, lng: longitude, at: fixTime.optional() });

/** One fix `{ deviceId, lat, lng, at? }`, or several of one device in time order `{ deviceId, fixes: [...] }`. */
export const evaluateRequest = z.union([
  z.object({ deviceId, lat: latitude, lng: longitude, at: fixTime.optional() }).strict(),
  z.object({ deviceId, fixes: z.array(fix).min(1).max(MAX_FIXES_PER_CALL) }).strict(),
]);
export type EvaluateRequest = z.infer<typeof evaluateRequest>;
