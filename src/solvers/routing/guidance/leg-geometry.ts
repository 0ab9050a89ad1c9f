/**
 * The leg's shape: from the snapped origin through the travelled part of each
 * edge to the snapped destination, at polyline6 precision (1e-6°) with no
 * repeated consecutive point, and for each edge of the leg the shape indexes
 * where it begins and ends (maneuvers take their shape indexes from these).
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import type { LegPath } from '../leg-path.js';
import { sliceLine, type LonLat } from './geometry.js';
import { roundTo } from '../../../shared/rounding.js';

export interface LegGeometry {
  /** [lon, lat] points, rounded to 6 decimals, no two consecutive equal. */
  points: LonLat[];
  /** For each edge of the leg, the index in `points` where travel on it begins. */
  edgeBegin: number[];
  /** For each edge of the leg, the index in `points` where travel on it ends (≥ edgeBegin). */
  edgeEnd: number[];
}

function samePoint(a: LonLat, b: LonLat): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/** The part of each edge the leg travels, as [lon, lat] lines (first and last cut at the fractions). */
export function travelledEdgeLines(pack: MapPack, leg: LegPath): LonLat[][] {
  const last = leg.edges.length - 1;
  return leg.edges.map((edge, index) => {
    const from = index === 0 ? leg.origin.fraction : 0;
    const to = index === last ? leg.destination.fraction : 1;
    const line = from <= 0 && to >= 1 ? pack.edgeShape(edge) : sliceLine(pack.edgeShape(edge), from, Math.max(from, to));
    if (index === 0) line[0] = [leg.origin.snappedLon, leg.origin.snappedLat];
    if (index === last) line[line.length - 1] = [leg.destination.snappedLon, leg.destination.snappedLat];
    return line;
  });
}

export function buildLegGeometry(pack: MapPack, leg: LegPath): LegGeometry {
  const points: LonLat[] = [];
  const edgeBegin: number[] = [];
  const edgeEnd: number[] = [];
  for (const line of travelledEdgeLines(pack, leg)) {
    edgeBegin.push(Math.max(0, points.length - 1));
    for (const [lon, lat] of line) {
      const point: LonLat = [roundTo(lon, 6), roundTo(lat, 6)];
      if (points.length === 0 || !samePoint(points[points.length - 1]!, point)) points.push(point);
    }
    edgeEnd.push(points.length - 1);
  }
  if (points.length === 0) points.push([roundTo(leg.origin.snappedLon, 6), roundTo(leg.origin.snappedLat, 6)]);
  // A leg that starts and ends on the same point still has a two-point shape, as Valhalla's does.
  if (points.length === 1) points.push([points[0]![0], points[0]![1]]);
  if (edgeEnd.length > 0) edgeEnd[edgeEnd.length - 1] = points.length - 1;
  return { points, edgeBegin, edgeEnd };
}
