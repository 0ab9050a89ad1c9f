/**
 * Dynamic avoidances: points with a radius and polygons that a route must not
 * touch (incidents, confirmed reports and road edits feed them). They change
 * per request, so they exclude edges in the exact search instead of being
 * preprocessed into a hierarchy.
 */
import { booleanIntersects } from '@turf/boolean-intersects';
import { NO_INDEX } from '../../datapack/pack-layout.js';
import type { MapPack } from '../../datapack/map-pack.js';
import type { SegmentGrid } from './snapping/segment-grid.js';

export interface AreaAvoidance {
  points?: { lat: number; lon: number; radiusMeters: number }[];
  /** Polygons as rings of [lon, lat]; the first ring is the outer boundary. */
  polygons?: [number, number][][][];
}

/** Edges touched by any avoided area (1 = excluded), both directions of a segment. */
export function avoidanceMask(pack: MapPack, grid: SegmentGrid, areas: AreaAvoidance): Uint8Array {
  const excluded = new Uint8Array(pack.edgeCount);
  const twin = pack.sections['graph.edgeTwin'];
  const exclude = (edge: number) => {
    excluded[edge] = 1;
    if (twin[edge] !== NO_INDEX) excluded[twin[edge]!] = 1;
  };
  for (const point of areas.points ?? []) {
    for (const hit of grid.nearest(point.lat, point.lon, point.radiusMeters, Number.MAX_SAFE_INTEGER, () => true)) exclude(hit.edge);
  }
  for (const rings of areas.polygons ?? []) {
    const polygon = { type: 'Polygon' as const, coordinates: rings };
    let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [lon, lat] of rings[0] ?? []) {
      west = Math.min(west, lon); east = Math.max(east, lon);
      south = Math.min(south, lat); north = Math.max(north, lat);
    }
    for (let edge = 0; edge < pack.edgeCount; edge++) {
      if (excluded[edge]) continue;
      const shape = pack.edgeShape(edge);
      if (!shape.some(([lon, lat]) => lon >= west && lon <= east && lat >= south && lat <= north) && !crossesBox(shape, west, south, east, north)) continue;
      if (booleanIntersects({ type: 'LineString', coordinates: shape }, polygon)) exclude(edge);
    }
  }
  return excluded;
}

/** Whether a line's own bounding box overlaps the box (a segment may cross it with both ends outside). */
function crossesBox(shape: [number, number][], west: number, south: number, east: number, north: number): boolean {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lon, lat] of shape) {
    w = Math.min(w, lon); e = Math.max(e, lon);
    s = Math.min(s, lat); n = Math.max(n, lat);
  }
  return w <= east && e >= west && s <= north && n >= south;
}
