/**
 * The route line route risk scores: decoded from a polyline6 or GeoJSON coordinates and checked, then cut
 * into fixed-length segments (docs/map-data.md, Route risk). Pure.
 */
import polyline from '@mapbox/polyline';
import { ApiError } from '../../shared/errors.js';
import { haversineMeters } from '../../solvers/graph/geodesy.js';
import type { LngLat } from '../map-data/zone-crossing.js';

/** Most positions one route may have (decoded), and most characters of its polyline. */
export const MAX_ROUTE_POINTS = 10_000;
export const MAX_POLYLINE_CHARS = 200_000;
/** Longest route scored (a day's drive across a country). */
export const MAX_ROUTE_METERS = 1_000_000;
/** Segment length: default, least and most asked for; a route never has more than MAX_SEGMENTS. */
export const DEFAULT_SEGMENT_METERS = 1_000;
export const MIN_SEGMENT_METERS = 100;
export const MAX_SEGMENT_METERS = 50_000;
export const MAX_SEGMENTS = 200;

export interface LineSegment {
  index: number;
  startMeters: number;
  endMeters: number;
  /** The segment's part of the line, [lng, lat], its cut points included. */
  points: LngLat[];
}

/** A polyline with precision 6 (Valhalla's, our trips' `shape`) as [lng, lat]; a string that is no polyline is a 400. */
export function decodePolyline6(encoded: string): LngLat[] {
  if (encoded.length > MAX_POLYLINE_CHARS) throw invalid(`polyline: ${encoded.length} characters, at most ${MAX_POLYLINE_CHARS}`);
  // every character of an encoded polyline is in '?' (63) to '~' (126)
  if (!/^[?-~]+$/.test(encoded)) throw invalid('polyline: not an encoded polyline (characters ? to ~ only, precision 6)');
  // a value's last chunk is below 0x20: a string ending inside a value is cut off
  if (encoded.charCodeAt(encoded.length - 1) - 63 >= 0x20) throw invalid('polyline: ends inside a value (cut off?)');
  return checkedLine(polyline.decode(encoded, 6).map(([lat, lng]) => [lng, lat] as LngLat), 'polyline');
}

/** GeoJSON LineString coordinates ([lng, lat], optional elevation ignored), checked. */
export function lineOfCoordinates(coordinates: readonly (readonly number[])[]): LngLat[] {
  return checkedLine(coordinates.map((position) => [position[0]!, position[1]!] as LngLat), 'geometry.coordinates');
}

function checkedLine(line: LngLat[], field: string): LngLat[] {
  if (line.length > MAX_ROUTE_POINTS) throw invalid(`${field}: ${line.length} positions, at most ${MAX_ROUTE_POINTS}`);
  line.forEach(([lng, lat], index) => {
    if (!Number.isFinite(lng) || !Number.isFinite(lat) || Math.abs(lng) > 180 || Math.abs(lat) > 90) {
      throw invalid(`${field}: position ${index} [${lng}, ${lat}] is outside ±180 / ±90 ([lng, lat] order; a polyline must be precision 6)`);
    }
  });
  // repeated positions add nothing
  const distinct = line.filter((point, index) => index === 0 || point[0] !== line[index - 1]![0] || point[1] !== line[index - 1]![1]);
  if (distinct.length < 2) throw invalid(`${field}: a route needs at least two distinct positions`);
  const meters = lineMeters(distinct);
  if (meters > MAX_ROUTE_METERS) throw invalid(`${field}: the route is ${Math.round(meters / 1000)} km long, at most ${MAX_ROUTE_METERS / 1000} km`);
  return distinct;
}

export function lineMeters(line: readonly LngLat[]): number {
  let meters = 0;
  for (let index = 0; index + 1 < line.length; index++) meters += stepMeters(line[index]!, line[index + 1]!);
  return meters;
}

function stepMeters(a: LngLat, b: LngLat): number {
  return haversineMeters(a[1], a[0], b[1], b[0]);
}

/**
 * The segment length used: the one asked for, raised so the route has at most MAX_SEGMENTS segments.
 */
export function segmentLengthFor(totalMeters: number, askedMeters: number): number {
  return Math.max(askedMeters, Math.ceil(totalMeters / MAX_SEGMENTS));
}

/** Cuts the line every `segmentMeters` (the last segment takes the rest). */
export function splitLine(line: readonly LngLat[], segmentMeters: number): LineSegment[] {
  const segments: LineSegment[] = [];
  let segmentStart = 0;
  let filled = 0;
  let points: LngLat[] = [line[0]!];
  for (let index = 0; index + 1 < line.length; index++) {
    const b = line[index + 1]!;
    let position = line[index]!;
    let remaining = stepMeters(position, b);
    while (remaining > 0 && filled + remaining >= segmentMeters) {
      const t = (segmentMeters - filled) / remaining;
      const cut: LngLat = [position[0] + (b[0] - position[0]) * t, position[1] + (b[1] - position[1]) * t];
      points.push(cut);
      segments.push({ index: segments.length, startMeters: segmentStart, endMeters: segmentStart + segmentMeters, points });
      remaining -= segmentMeters - filled;
      segmentStart += segmentMeters;
      filled = 0;
      points = [cut];
      position = cut;
    }
    if (remaining > 1e-9) {
      filled += remaining;
      points.push(b);
    }
  }
  if (points.length >= 2) segments.push({ index: segments.length, startMeters: segmentStart, endMeters: segmentStart + filled, points });
  return segments;
}

function invalid(message: string): ApiError {
  return new ApiError('VALIDATION_ERROR', { message });
}
