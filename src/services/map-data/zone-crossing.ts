/**
 * Where a line runs inside a logistics zone (issue #29): route risk scores the stretches inside, the
 * planner avoids, penalizes or warns about them. A line is sampled every few metres and each sample is
 * tested against the zone's polygons (holes honoured), after a cheap box test: a city's zones against a
 * route of a few thousand samples stays well under a millisecond per zone.
 */
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { LogisticsZone } from '../../domain/logistics-zone.js';
import { haversineMeters } from '../../solvers/graph/geodesy.js';

/** Samples along a line are at most this far apart (a zone edge is found to within this). */
export const ZONE_SAMPLE_METERS = 10;

export type LngLat = [lng: number, lat: number];

/** Whether a point lies inside the zone (on its boundary counts as inside). */
export function insideZone(zone: Pick<LogisticsZone, 'geometry' | 'bbox'>, lng: number, lat: number): boolean {
  const [west, south, east, north] = zone.bbox;
  if (lng < west || lng > east || lat < south || lat > north) return false;
  return booleanPointInPolygon([lng, lat], zone.geometry);
}

/** Whether the boxes of a line and a zone meet (so the zone may cross the line at all). */
export function boxesMeet(zone: Pick<LogisticsZone, 'bbox'>, line: readonly LngLat[]): boolean {
  const [west, south, east, north] = zone.bbox;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lng, lat] of line) {
    w = Math.min(w, lng); e = Math.max(e, lng);
    s = Math.min(s, lat); n = Math.max(n, lat);
  }
  return w <= east && e >= west && s <= north && n >= south;
}

/**
 * Metres of the line inside the zone: each piece between samples counts by its midpoint. 0 when the line
 * never enters it.
 */
export function metersInside(zone: Pick<LogisticsZone, 'geometry' | 'bbox'>, line: readonly LngLat[]): number {
  if (line.length < 2 || !boxesMeet(zone, line)) return 0;
  let inside = 0;
  for (let index = 0; index + 1 < line.length; index++) {
    const [aLng, aLat] = line[index]!;
    const [bLng, bLat] = line[index + 1]!;
    const meters = haversineMeters(aLat, aLng, bLat, bLng);
    const pieces = Math.max(1, Math.ceil(meters / ZONE_SAMPLE_METERS));
    for (let piece = 0; piece < pieces; piece++) {
      const t = (piece + 0.5) / pieces;
      if (insideZone(zone, aLng + (bLng - aLng) * t, aLat + (bLat - aLat) * t)) inside += meters / pieces;
    }
  }
  return inside;
}

/** The zone's polygons as rings of [lng, lat] (the routing engine's avoided-polygon shape). */
export function zonePolygons(zone: Pick<LogisticsZone, 'geometry'>): [number, number][][][] {
  const polygons = zone.geometry.type === 'Polygon' ? [zone.geometry.coordinates] : zone.geometry.coordinates;
  return polygons.map((rings) => rings.map((ring) => ring.map((position) => [position[0]!, position[1]!] as [number, number])));
}
