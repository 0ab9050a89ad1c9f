/**
 * Request schemas of the transit and micromobility endpoints (spec part 2 §4.6).
 * Query values arrive as strings; a repeated parameter is refused.
 */
import { z } from 'zod';
import { latitude, longitude } from '../../domain/geo.js';

const single = z.string({ error: 'must be given once' });

/** The server-side cap on `radius` (metres) of the nearby queries. */
export const MAX_RADIUS_M = 5_000;
export const DEFAULT_RADIUS_M = 500;
export const DEFAULT_STOP_LIMIT = 20;
export const MAX_STOP_LIMIT = 100;

const queryNumber = single
  .trim()
  .min(1, 'must be a number')
  .transform((value, context) => {
    const number = Number(value);
    if (Number.isFinite(number)) return number;
    context.addIssue({ code: 'custom', message: 'must be a number' });
    return z.NEVER;
  });

const queryLat = queryNumber.pipe(latitude);
const queryLng = queryNumber.pipe(longitude);

/** `radius` in metres: default 500, above 0, capped (not refused) at MAX_RADIUS_M. */
const queryRadius = queryNumber
  .pipe(z.number().positive('must be above 0'))
  .transform((value) => Math.min(value, MAX_RADIUS_M))
  .optional()
  .transform((value) => value ?? DEFAULT_RADIUS_M);

/** `limit`: default 20, clamped to 1..100; anything not a number falls back to 20 (part 2 §4.6). */
const queryStopLimit = z
  .unknown()
  .optional()
  .transform((value) => {
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    if (!Number.isFinite(number)) return DEFAULT_STOP_LIMIT;
    return Math.min(MAX_STOP_LIMIT, Math.max(1, Math.floor(number)));
  });

export const transitStopsQuery = z.object({ lat: queryLat, lng: queryLng, radius: queryRadius, limit: queryStopLimit });
export type TransitStopsQuery = z.output<typeof transitStopsQuery>;

const bbox = single.transform((value, context) => {
  const parts = value.split(',').map((part) => Number(part.trim()));
  const [west, south, east, north] = parts as [number, number, number, number];
  if (parts.length !== 4 || parts.some((part) => !Number.isFinite(part)) || Math.abs(west) > 180 || Math.abs(east) > 180 || Math.abs(south) > 90 || Math.abs(north) > 90) {
    context.addIssue({ code: 'custom', message: 'must be four numbers west,south,east,north within -180..180 and -90..90' });
    return z.NEVER;
  }
  if (west > east || south > north) {
    context.addIssue({ code: 'custom', message: 'west must not exceed east, nor south north' });
    return z.NEVER;
  }
  return [west, south, east, north] as [number, number, number, number];
});

export const transitRoutesQuery = z.object({
  bbox: bbox.optional(),
  type: queryNumber.pipe(z.number().int('must be a GTFS route_type code (0 tram, 1 metro, 2 rail, 3 bus, 4 ferry, …)').min(0, 'must be a GTFS route_type code').max(1700, 'must be a GTFS route_type code')).optional(),
});
export type TransitRoutesQuery = z.output<typeof transitRoutesQuery>;

const point = z.object({ lat: latitude, lng: longitude }, { error: 'must be an object { lat, lng }' });

export const transitPlanBody = z.object({
  from: point,
  to: point,
  /** ISO 8601 instant with offset; default now. */
  departAt: z
    .string()
    .max(40)
    .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(value) && !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 instant with offset, e.g. 2016-03-01T08:00:00+02:00')
    .optional(),
});
export type TransitPlanBody = z.output<typeof transitPlanBody>;

export const VEHICLE_TYPES = ['bike', 'ebike', 'scooter'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];

const count = queryNumber.pipe(z.number().int('must be a whole number').min(0, 'must be at least 0')).optional();

export const gbfsQuery = z.object({
  lat: queryLat,
  lng: queryLng,
  radius: queryRadius,
  type: single.trim().pipe(z.enum(VEHICLE_TYPES, { error: `must be one of ${VEHICLE_TYPES.join(', ')}` })).optional(),
  minBikes: count,
  minDocks: count,
});
export type GbfsQuery = z.output<typeof gbfsQuery>;
