/**
 * The leg's shape: from the snapped origin through the travelled part of each
 * edge to the snapped destination, at polyline6 precision (1e-6°) with no
 * repeated consecutive point, and for each edge of the leg the shape indexes
 * where it begins and ends (maneuvers take their shape indexes from these).
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import { COORDINATE_SCALE, EdgeFlag } from '../../../datapack/pack-layout.js';
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

/** The part of the leg's `index`-th edge it travels, as a [lon, lat] line (the first and last edges cut at the fractions). */
function travelledEdgeLine(pack: MapPack, leg: LegPath, index: number): LonLat[] {
  const edge = leg.edges[index]!;
  const last = leg.edges.length - 1;
  const from = index === 0 ? leg.origin.fraction : 0;
  const to = index === last ? leg.destination.fraction : 1;
  const line = from <= 0 && to >= 1 ? pack.edgeShape(edge) : sliceLine(pack.edgeShape(edge), from, Math.max(from, to));
  if (index === 0) line[0] = [leg.origin.snappedLon, leg.origin.snappedLat];
  if (index === last) line[line.length - 1] = [leg.destination.snappedLon, leg.destination.snappedLat];
  return line;
}

export function buildLegGeometry(pack: MapPack, leg: LegPath): LegGeometry {
  const points: LonLat[] = [];
  const edgeBegin: number[] = [];
  const edgeEnd: number[] = [];
  const append = (lon: number, lat: number) => {
    const roundedLon = roundTo(lon, 6);
    const roundedLat = roundTo(lat, 6);
    const previous = points[points.length - 1];
    if (!previous || previous[0] !== roundedLon || previous[1] !== roundedLat) points.push([roundedLon, roundedLat]);
  };
  const s = pack.sections;
  const [shapeLon, shapeLat] = [s['graph.shapeLon'], s['graph.shapeLat']];
  const last = leg.edges.length - 1;
  for (let index = 0; index <= last; index++) {
    edgeBegin.push(Math.max(0, points.length - 1));
    const edge = leg.edges[index]!;
    if (index === 0 || index === last) {
      for (const [lon, lat] of travelledEdgeLine(pack, leg, index)) append(lon, lat);
    } else {
      // a whole edge inside the leg: its stored points in travel order, without an array per point
      // (the same division pack.edgeShape does, so the same doubles)
      const start = s['graph.edgeShapeStart'][edge]!;
      const count = s['graph.edgeShapeCount'][edge]!;
      const reversed = (s['graph.edgeFlags'][edge]! & EdgeFlag.reversed) !== 0;
      for (let step = 0; step < count; step++) {
        const at = start + (reversed ? count - 1 - step : step);
        append(shapeLon[at]! / COORDINATE_SCALE, shapeLat[at]! / COORDINATE_SCALE);
      }
    }
    edgeEnd.push(points.length - 1);
  }
  if (points.length === 0) points.push([roundTo(leg.origin.snappedLon, 6), roundTo(leg.origin.snappedLat, 6)]);
  // A leg that starts and ends on the same point still has a two-point shape, as Valhalla's does.
  if (points.length === 1) points.push([points[0]![0], points[0]![1]]);
  if (edgeEnd.length > 0) edgeEnd[edgeEnd.length - 1] = points.length - 1;
  return { points, edgeBegin, edgeEnd };
}
