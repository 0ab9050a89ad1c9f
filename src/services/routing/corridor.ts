/**
 * Distances between a route's shape and the things routing may avoid (points, lines, areas), on a
 * local flat projection (good to well under a metre over a city), for the planner's "within about
 * 30 m (70 m) of the corridor" rules.
 */
const METERS_PER_DEGREE = 111_320;

export type LatLng = [lat: number, lng: number];

export interface Corridor {
  points: LatLng[];
  south: number;
  west: number;
  north: number;
  east: number;
}

export function corridorOf(points: LatLng[]): Corridor {
  let [south, west, north, east] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lat, lng] of points) {
    south = Math.min(south, lat); north = Math.max(north, lat);
    west = Math.min(west, lng); east = Math.max(east, lng);
  }
  return { points, south, west, north, east };
}

/** Metres from a point to the nearest point of the corridor's line (Infinity for an empty line). */
export function distanceToCorridor(corridor: Corridor, lat: number, lng: number): number {
  const kx = METERS_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
  const ky = METERS_PER_DEGREE;
  const points = corridor.points;
  if (points.length === 1) return Math.hypot((points[0]![1] - lng) * kx, (points[0]![0] - lat) * ky);
  let best = Infinity;
  for (let index = 0; index + 1 < points.length; index++) {
    const [aLat, aLng] = points[index]!;
    const [bLat, bLng] = points[index + 1]!;
    const ax = (aLng - lng) * kx, ay = (aLat - lat) * ky;
    const bx = (bLng - lng) * kx, by = (bLat - lat) * ky;
    const dx = bx - ax, dy = by - ay;
    const length2 = dx * dx + dy * dy;
    const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length2));
    const distance = Math.hypot(ax + t * dx, ay + t * dy);
    if (distance < best) best = distance;
  }
  return best;
}

/** Whether a point can be within `meters` of the corridor at all (a cheap box test first). */
export function nearCorridor(corridor: Corridor, lat: number, lng: number, meters: number): boolean {
  const dLat = meters / METERS_PER_DEGREE;
  const dLng = meters / (METERS_PER_DEGREE * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  if (lat < corridor.south - dLat || lat > corridor.north + dLat || lng < corridor.west - dLng || lng > corridor.east + dLng) return false;
  return distanceToCorridor(corridor, lat, lng) <= meters;
}

/** Points every `step` metres along a line of [lat, lng] (its vertices included). */
export function densify(line: LatLng[], step: number): LatLng[] {
  const out: LatLng[] = [];
  for (let index = 0; index + 1 < line.length; index++) {
    const [aLat, aLng] = line[index]!;
    const [bLat, bLng] = line[index + 1]!;
    const meters = Math.hypot((bLng - aLng) * METERS_PER_DEGREE * Math.cos((aLat * Math.PI) / 180), (bLat - aLat) * METERS_PER_DEGREE);
    const pieces = Math.max(1, Math.ceil(meters / step));
    for (let piece = 0; piece < pieces; piece++) out.push([aLat + ((bLat - aLat) * piece) / pieces, aLng + ((bLng - aLng) * piece) / pieces]);
  }
  if (line.length) out.push(line[line.length - 1]!);
  return out;
}

/** Whether a point is inside a ring of [lng, lat] (even-odd rule). */
export function insideRing(ring: [number, number][], lat: number, lng: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
