/**
 * The geometry of one directed pack edge in its travel direction, measured the
 * way the segment grid measures fractions (planar metres along the shape), so
 * a fraction from snapping or map matching maps back to the same point here.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { COORDINATE_SCALE, EdgeFlag } from '../../datapack/pack-layout.js';
import { EARTH_RADIUS_M } from '../graph/geodesy.js';

const RAD = Math.PI / 180;
const METERS_PER_DEGREE_LAT = EARTH_RADIUS_M * RAD;

/** A position on a directed edge: 0 = its source node, 1 = its target node. */
export interface EdgePosition {
  edge: number;
  fraction: number;
}

export interface EdgeLine {
  /** Shape points in travel direction (degrees). */
  lat: number[];
  lon: number[];
  /** Planar metres from the first shape point to each point. */
  along: number[];
  /** Planar length of the whole shape (m). */
  length: number;
}

export function edgeLine(pack: MapPack, edge: number): EdgeLine {
  const shape = pack.edgeShape(edge);
  const lat: number[] = [];
  const lon: number[] = [];
  const along: number[] = [];
  let total = 0;
  for (let index = 0; index < shape.length; index++) {
    const [x, y] = shape[index]!;
    if (index > 0) total += planarMeters(lat[index - 1]!, lon[index - 1]!, y, x);
    lat.push(y);
    lon.push(x);
    along.push(total);
  }
  return { lat, lon, along, length: total };
}

export function planarMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dy = (lat2 - lat1) * METERS_PER_DEGREE_LAT;
  const dx = (lon2 - lon1) * METERS_PER_DEGREE_LAT * Math.cos(((lat1 + lat2) / 2) * RAD);
  return Math.hypot(dx, dy);
}

/** The point at a fraction (0..1) of the line's length. */
export function pointAt(line: EdgeLine, fraction: number): [number, number] {
  const target = Math.min(1, Math.max(0, fraction)) * line.length;
  const last = line.lat.length - 1;
  for (let index = 1; index <= last; index++) {
    if (line.along[index]! < target && index < last) continue;
    const span = line.along[index]! - line.along[index - 1]!;
    const t = span > 0 ? Math.min(1, Math.max(0, (target - line.along[index - 1]!) / span)) : 0;
    return [line.lat[index - 1]! + t * (line.lat[index]! - line.lat[index - 1]!), line.lon[index - 1]! + t * (line.lon[index]! - line.lon[index - 1]!)];
  }
  return [line.lat[0]!, line.lon[0]!];
}

/** The part of the line between two fractions (from ≤ to), as [lat, lon] points including both ends. */
export function sliceLine(line: EdgeLine, from: number, to: number): [number, number][] {
  const start = Math.max(0, from) * line.length;
  const end = Math.min(1, to) * line.length;
  const points: [number, number][] = [pointAt(line, from)];
  for (let index = 1; index < line.lat.length - 1; index++) {
    if (line.along[index]! > start && line.along[index]! < end) points.push([line.lat[index]!, line.lon[index]!]);
  }
  points.push(pointAt(line, to));
  return points;
}

export interface LineProjection {
  fraction: number;
  distanceMeters: number;
  lat: number;
  lon: number;
}

/** The nearest point of the line between two fractions to (lat, lon). */
export function projectOnLine(line: EdgeLine, lat: number, lon: number, from = 0, to = 1): LineProjection {
  const cosLat = Math.cos(lat * RAD);
  const start = from * line.length;
  const end = to * line.length;
  let best: LineProjection = { fraction: from, distanceMeters: Infinity, lat, lon };
  for (let index = 1; index < line.lat.length; index++) {
    const a = line.along[index - 1]!;
    const b = line.along[index]!;
    if (b < start || a > end) continue;
    const ax = (line.lon[index - 1]! - lon) * METERS_PER_DEGREE_LAT * cosLat;
    const ay = (line.lat[index - 1]! - lat) * METERS_PER_DEGREE_LAT;
    const dx = (line.lon[index]! - line.lon[index - 1]!) * METERS_PER_DEGREE_LAT * cosLat;
    const dy = (line.lat[index]! - line.lat[index - 1]!) * METERS_PER_DEGREE_LAT;
    const squared = dx * dx + dy * dy;
    let t = squared > 0 ? -(ax * dx + ay * dy) / squared : 0;
    // stay within [from, to] on the first and last segments touched
    const span = b - a;
    if (span > 0) t = Math.min(Math.max(t, (start - a) / span), (end - a) / span);
    t = Math.min(1, Math.max(0, t));
    const px = ax + t * dx;
    const py = ay + t * dy;
    const distance = Math.hypot(px, py);
    if (distance < best.distanceMeters) {
      best = {
        fraction: line.length > 0 ? (a + t * span) / line.length : from,
        distanceMeters: distance,
        lat: lat + py / METERS_PER_DEGREE_LAT,
        lon: lon + px / (METERS_PER_DEGREE_LAT * cosLat),
      };
    }
  }
  if (best.distanceMeters === Infinity) {
    const [y, x] = pointAt(line, from);
    best = { fraction: from, distanceMeters: planarMeters(lat, lon, y, x), lat: y, lon: x };
  }
  return best;
}

/**
 * An edge's line in reusable typed arrays, for passes over thousands of edges (isochrone sampling)
 * where an EdgeLine per edge would mostly feed the garbage collector. Valid until the next `load`.
 */
export class EdgeLineBuffer {
  lat = new Float64Array(64);
  lon = new Float64Array(64);
  along = new Float64Array(64);
  count = 0;
  length = 0;

  constructor(private readonly pack: MapPack) {}

  load(edge: number): this {
    const s = this.pack.sections;
    const start = s['graph.edgeShapeStart'][edge]!;
    const count = s['graph.edgeShapeCount'][edge]!;
    const reversed = (s['graph.edgeFlags'][edge]! & EdgeFlag.reversed) !== 0;
    if (count > this.lat.length) {
      const size = Math.max(count, this.lat.length * 2);
      this.lat = new Float64Array(size);
      this.lon = new Float64Array(size);
      this.along = new Float64Array(size);
    }
    const shapeLat = s['graph.shapeLat'];
    const shapeLon = s['graph.shapeLon'];
    let total = 0;
    for (let index = 0; index < count; index++) {
      const point = reversed ? start + count - 1 - index : start + index;
      const lat = shapeLat[point]! / COORDINATE_SCALE;
      const lon = shapeLon[point]! / COORDINATE_SCALE;
      if (index > 0) total += planarMeters(this.lat[index - 1]!, this.lon[index - 1]!, lat, lon);
      this.lat[index] = lat;
      this.lon[index] = lon;
      this.along[index] = total;
    }
    this.count = count;
    this.length = total;
    return this;
  }
}
