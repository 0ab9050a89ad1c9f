/**
 * Drives along a navigation route the way a phone reports it: one fix per
 * second at the route's own speeds (maneuver distance over maneuver time),
 * each displaced by seeded Gaussian noise, with speed and device time.
 */
import polyline from '@mapbox/polyline';
import { seededRandom } from './gps-traces.js';

export interface RouteView {
  shape: string;
  maneuvers: { distanceMeters: number; timeSeconds: number; cumulativeMeters: number }[];
  distanceMeters: number;
}

export interface DriveFix {
  lat: number;
  lng: number;
  speed: number;
  capturedAt: string;
}

const METERS_PER_DEGREE = 111_195;
const rad = (degrees: number) => (degrees * Math.PI) / 180;

function haversine(a: [number, number], b: [number, number]): number {
  const dLat = rad(b[0] - a[0]);
  const dLng = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
}

/** The point `meters` along a polyline of [lat, lng]. */
export function pointAlong(points: [number, number][], meters: number): [number, number] {
  let left = meters;
  for (let index = 1; index < points.length; index++) {
    const step = haversine(points[index - 1]!, points[index]!);
    if (left <= step && step > 0) {
      const t = left / step;
      return [points[index - 1]![0] + t * (points[index]![0] - points[index - 1]![0]), points[index - 1]![1] + t * (points[index]![1] - points[index - 1]![1])];
    }
    left -= step;
  }
  return points[points.length - 1]!;
}

export function lineLength(points: [number, number][]): number {
  let total = 0;
  for (let index = 1; index < points.length; index++) total += haversine(points[index - 1]!, points[index]!);
  return total;
}

/**
 * Fixes every `intervalSeconds` from `fromMeters` to `toMeters` along the route (default: all of it),
 * moving at each maneuver's average speed; the first fix is at `startTime`.
 */
export function driveAlong(route: RouteView, options: { noiseMeters: number; seed: number; startTime: number; intervalSeconds?: number; fromMeters?: number; toMeters?: number }): DriveFix[] {
  const points = polyline.decode(route.shape, 6) as [number, number][];
  const length = lineLength(points);
  const scale = route.distanceMeters > 0 ? length / route.distanceMeters : 1;
  const random = seededRandom(options.seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(random())) * Math.cos(2 * Math.PI * random());
  const interval = options.intervalSeconds ?? 1;
  const speedAt = (meters: number) => {
    const maneuver = [...route.maneuvers].reverse().find((candidate) => candidate.cumulativeMeters * scale <= meters) ?? route.maneuvers[0]!;
    return maneuver.timeSeconds > 0 && maneuver.distanceMeters > 0 ? (maneuver.distanceMeters * scale) / maneuver.timeSeconds : 8;
  };
  const end = Math.min(options.toMeters ?? length, length);
  const fixes: DriveFix[] = [];
  let meters = options.fromMeters ?? 0;
  let time = options.startTime;
  for (;;) {
    const [lat, lng] = pointAlong(points, meters);
    const speed = speedAt(meters);
    fixes.push({
      lat: lat + (gaussian() * options.noiseMeters) / METERS_PER_DEGREE,
      lng: lng + (gaussian() * options.noiseMeters) / (METERS_PER_DEGREE * Math.cos(rad(lat))),
      speed: Math.round(speed * 10) / 10,
      capturedAt: new Date(time).toISOString(),
    });
    if (meters >= end) return fixes;
    meters = Math.min(end, meters + speed * interval);
    time += interval * 1000;
  }
}

/** Distance (m) from a point to the nearest vertex-interpolated point of a polyline (sampled every ~5 m). */
export function distanceToLine(points: [number, number][], point: [number, number]): number {
  const length = lineLength(points);
  let best = Infinity;
  for (let meters = 0; meters <= length; meters += 5) best = Math.min(best, haversine(pointAlong(points, meters), point));
  return best;
}

export { haversine as haversineMeters };
