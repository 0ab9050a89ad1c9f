/**
 * Query-string fields of the geocoding and addressing endpoints. Query values
 * arrive as strings: an empty value counts as missing (never as 0), and a
 * repeated parameter is refused rather than guessed at.
 */
import { z } from 'zod';
import { latitude, longitude } from '../../domain/geo.js';

const single = z.string({ error: 'must be given once' });

/** A number from the query string (`lat=`, `limit=abc` and `limit=1,2` are refused). */
export function queryNumber() {
  return single
    .trim()
    .min(1, 'must be a number')
    .transform((value, context) => {
      const number = Number(value);
      if (Number.isFinite(number)) return number;
      context.addIssue({ code: 'custom', message: 'must be a number' });
      return z.NEVER;
    });
}

export const queryLatitude = queryNumber().pipe(latitude);
export const queryLongitude = queryNumber().pipe(longitude);

/** `limit`: a whole number from 1, capped (not refused) at `cap`. */
export function queryLimit(fallback: number, cap: number) {
  return queryNumber()
    .pipe(z.number().int('must be a whole number').min(1, 'must be at least 1'))
    .transform((value) => Math.min(value, cap))
    .optional()
    .transform((value) => value ?? fallback);
}

/** A bbox as `[west, south, east, north]` degrees. */
export type QueryBbox = [number, number, number, number];

/**
 * Reads `west,south,east,north` (minLng,minLat,maxLng,maxLat) in degrees: the box, or the message refusing it.
 * Shared by the `bbox` schema and the hand-written forward-query check, so both accept and word the same.
 */
export function readBbox(value: string): QueryBbox | string {
  const parts = value.split(',').map((part) => Number(part.trim()));
  const [west, south, east, north] = parts as QueryBbox;
  if (parts.length !== 4 || parts.some((part) => !Number.isFinite(part))) return 'must be four numbers: west,south,east,north';
  if (!longitude.safeParse(west).success || !longitude.safeParse(east).success || !latitude.safeParse(south).success || !latitude.safeParse(north).success) {
    return 'must be longitudes within -180..180 and latitudes within -90..90';
  }
  if (west > east || south > north) return 'west must not exceed east, nor south north';
  return [west, south, east, north];
}

/** `bbox=west,south,east,north` (minLng,minLat,maxLng,maxLat) in degrees. */
export const queryBbox = single
  .transform((value, context) => {
    const box = readBbox(value);
    if (typeof box !== 'string') return box;
    context.addIssue({ code: 'custom', message: box });
    return z.NEVER;
  })
  .optional();

/** `locale`: language preference such as `ar,en` (first preferred). */
export const queryLocale = single.trim().max(100).optional();

/** A query text that is not blank. */
export const queryText = single.trim().min(1, 'must not be blank').max(256, 'must be at most 256 characters');

/**
 * `lat` with `lon` or its alias `lng`: both or neither; `lon` and `lng` together must agree.
 * `required` makes the pair mandatory (reverse geocoding).
 */
export function coordinatePair<T extends z.ZodRawShape>(shape: T, required: boolean) {
  return z
    .object({ ...shape, lat: queryLatitude.optional(), lon: queryLongitude.optional(), lng: queryLongitude.optional() })
    .superRefine((value, context) => {
      const { lat, lon, lng } = value as { lat?: number; lon?: number; lng?: number };
      if (lon !== undefined && lng !== undefined && lon !== lng) context.addIssue({ code: 'custom', path: ['lng'], message: 'lon and lng differ; give one of them' });
      const longitudeGiven = lon ?? lng;
      if (required) {
        if (lat === undefined) context.addIssue({ code: 'custom', path: ['lat'], message: 'is required' });
        if (longitudeGiven === undefined) context.addIssue({ code: 'custom', path: ['lon'], message: 'is required (or lng)' });
      } else if ((lat === undefined) !== (longitudeGiven === undefined)) {
        context.addIssue({ code: 'custom', path: [lat === undefined ? 'lat' : 'lon'], message: 'lat and lon are a pair: give both or neither' });
      }
    })
    .transform((value) => {
      const { lat, lon, lng, ...rest } = value as { lat?: number; lon?: number; lng?: number } & Record<string, unknown>;
      const point = lat !== undefined && (lon ?? lng) !== undefined ? { lat, lon: (lon ?? lng)! } : undefined;
      return { ...(rest as z.infer<z.ZodObject<T>>), point };
    });
}
