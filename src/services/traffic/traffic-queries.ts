/**
 * Query parameters of the traffic endpoints (spec part 3 §4.4). Values arrive
 * as optional strings so that the spec's exact messages (`segmentKey
 * required`, the bbox rule) are given by the service, not by a schema's
 * generic wording.
 */
import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import type { BoundingBox } from '../../store/pg/traffic.js';

const text = z.string({ error: 'must be given once' }).max(200, 'must be at most 200 characters').optional();

export const profileQuery = z.object({ segmentKey: text, at: text, country: text });
export const labelsQuery = z.object({ bbox: text, at: text, country: text });
export const forecastQuery = z.object({ segmentKey: text, horizons: text, country: text });
export const departQuery = z.object({ bbox: text, from: text, to: text, country: text });
export const bboxQuery = z.object({ bbox: text, country: text });
export const popularityQuery = z.object({ bbox: text, z: text });
export const summaryQuery = z.object({ days: text });
export const analysedQuery = z.object({ lat: text, lng: text, lon: text, at: text, date: text, country: text, radius: text, weather: text, lang: text, from: text, to: text });

export const BBOX_RULE = 'bbox=minLng,minLat,maxLng,maxLat required';

/** `minLng,minLat,maxLng,maxLat`; anything else (missing, not four numbers, out of range, min above max) is the bbox rule's 400. */
export function parseBbox(value: string | undefined): BoundingBox {
  const parts = value?.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part)));
  if (!parts || parts.length !== 4 || parts.some((part) => !Number.isFinite(part))) throw new ApiError('VALIDATION_ERROR', { message: BBOX_RULE });
  const [minLng, minLat, maxLng, maxLat] = parts as [number, number, number, number];
  if (minLng < -180 || maxLng > 180 || minLat < -90 || maxLat > 90 || minLng > maxLng || minLat > maxLat) throw new ApiError('VALIDATION_ERROR', { message: BBOX_RULE });
  return { minLng, minLat, maxLng, maxLat };
}

export function parseAt(value: string | undefined, nowMs: number): number {
  if (value === undefined || value.trim() === '') return nowMs;
  const ms = /^\d{4}-\d{2}-\d{2}(T|$)/.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  if (!Number.isFinite(ms)) throw new ApiError('VALIDATION_ERROR', { message: 'at: must be an ISO 8601 date-time such as 2026-03-01T08:30:00Z' });
  return ms;
}

export function parseSegmentKey(value: string | undefined): string {
  const key = value?.trim();
  if (!key) throw new ApiError('VALIDATION_ERROR', { message: 'segmentKey required' });
  return key;
}

export const MAX_HORIZONS = 12;
/** A week ahead: the profiles repeat weekly, so further is no more knowable. */
export const MAX_HORIZON_MIN = 7 * 24 * 60;

export function parseHorizons(value: string | undefined): number[] {
  if (value === undefined || value.trim() === '') return [0, 15, 30, 60];
  const parts = value.split(',').map((part) => part.trim());
  const horizons = parts.map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN));
  if (horizons.length > MAX_HORIZONS || horizons.some((h) => !Number.isInteger(h) || h > MAX_HORIZON_MIN)) {
    throw new ApiError('VALIDATION_ERROR', { message: `horizons: comma-separated whole minutes from 0 to ${MAX_HORIZON_MIN}, at most ${MAX_HORIZONS}` });
  }
  return horizons;
}

export function parseHour(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const hour = /^\d{1,2}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(hour >= 0 && hour <= 23)) throw new ApiError('VALIDATION_ERROR', { message: `${name}: an hour from 0 to 23` });
  return hour;
}

export function parseIntIn(value: string | undefined, fallback: number, min: number, max: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const number = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) throw new ApiError('VALIDATION_ERROR', { message: `${name}: a whole number from ${min} to ${max}` });
  return number;
}

/** Body of POST /traffic/route: 2 to 25 locations, the departure (default now), the costing (auto or truck). */
export const trafficRouteRequest = z
  .object({
    locations: z.array(z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) })).min(2, 'at least 2 locations').max(25, 'at most 25 locations'),
    departAt: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2026-03-01T08:30:00Z' }).optional(),
    costing: z.enum(['auto', 'truck']).default('auto'),
    /** Whose clock and calendar read the departure; default each road's own country; unknown codes read as JO. */
    country: z.string().max(8).optional(),
  })
  .strict();
export type TrafficRouteRequest = z.infer<typeof trafficRouteRequest>;
