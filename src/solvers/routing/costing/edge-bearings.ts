/**
 * Bearings of every directed edge where it starts and where it ends, in its
 * travel direction (degrees clockwise from north). Turn costs and guidance
 * compare the end bearing of one edge with the start bearing of the next.
 */
import { COORDINATE_SCALE, EdgeFlag } from '../../../datapack/pack-layout.js';
import type { MapPack } from '../../../datapack/map-pack.js';
import { initialBearingDegrees } from '../../graph/geodesy.js';

export interface EdgeBearings {
  start: Float32Array;
  end: Float32Array;
}

/** Signed turn angle from one bearing to the next in (-180, 180]: positive turns right. */
export function turnAngle(fromBearing: number, toBearing: number): number {
  let angle = toBearing - fromBearing;
  while (angle > 180) angle -= 360;
  while (angle <= -180) angle += 360;
  return angle;
}

export function computeEdgeBearings(pack: MapPack): EdgeBearings {
  const s = pack.sections;
  const count = pack.edgeCount;
  const start = new Float32Array(count);
  const end = new Float32Array(count);
  const lat = s['graph.shapeLat'];
  const lon = s['graph.shapeLon'];
  for (let edge = 0; edge < count; edge++) {
    const first = s['graph.edgeShapeStart'][edge]!;
    const last = first + s['graph.edgeShapeCount'][edge]! - 1;
    // shapes are stored in the way's direction; a reversed edge walks them backwards
    const [a, b, y, z] = s['graph.edgeFlags'][edge]! & EdgeFlag.reversed ? [last, last - 1, first + 1, first] : [first, first + 1, last - 1, last];
    start[edge] = initialBearingDegrees(lat[a]! / COORDINATE_SCALE, lon[a]! / COORDINATE_SCALE, lat[b]! / COORDINATE_SCALE, lon[b]! / COORDINATE_SCALE);
    end[edge] = initialBearingDegrees(lat[y]! / COORDINATE_SCALE, lon[y]! / COORDINATE_SCALE, lat[z]! / COORDINATE_SCALE, lon[z]! / COORDINATE_SCALE);
  }
  return { start, end };
}
