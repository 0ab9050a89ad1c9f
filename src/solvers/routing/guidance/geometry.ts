/**
 * Plane geometry guidance needs on [lon, lat] positions: bearings, turn angles,
 * which side of a direction a point lies, cutting a line at a fraction of its
 * length. Distances use the engine's sphere (haversine).
 */
import { haversineMeters, initialBearingDegrees } from '../../graph/geodesy.js';

export type LonLat = [number, number];

export function distanceMeters(a: LonLat, b: LonLat): number {
  return haversineMeters(a[1], a[0], b[1], b[0]);
}

/** Initial bearing from a to b, degrees clockwise from north in [0, 360). */
export function bearingDegrees(a: LonLat, b: LonLat): number {
  return initialBearingDegrees(a[1], a[0], b[1], b[0]);
}

/**
 * Valhalla's turn degree: the clockwise angle from the incoming bearing to the outgoing one,
 * in [0, 360). 0 is straight on, 90 a right turn, 180 a U-turn, 270 a left turn.
 */
export function turnDegree(incomingBearing: number, outgoingBearing: number): number {
  return Math.round((outgoingBearing - incomingBearing + 720) % 360) % 360;
}

/** How far a turn degree is from straight on, 0..180. */
export function deviationFromStraight(degree: number): number {
  return degree > 180 ? 360 - degree : degree;
}

/** Length of a line in metres. */
export function lineLength(points: LonLat[]): number {
  let total = 0;
  for (let index = 1; index < points.length; index++) total += distanceMeters(points[index - 1]!, points[index]!);
  return total;
}

/**
 * The bearing leaving `points[0]` along the line, measured to the first point at least
 * `lookMeters` away (or the last point): short kinks right at a junction do not decide a turn.
 */
export function bearingAlong(points: LonLat[], lookMeters = 20): number | undefined {
  if (points.length < 2) return undefined;
  const start = points[0]!;
  let travelled = 0;
  for (let index = 1; index < points.length; index++) {
    travelled += distanceMeters(points[index - 1]!, points[index]!);
    if (travelled >= lookMeters || index === points.length - 1) {
      const target = points[index]!;
      if (target[0] === start[0] && target[1] === start[1]) continue;
      return bearingDegrees(start, target);
    }
  }
  return undefined;
}

/** The bearing arriving at the last point of the line (looking back up to `lookMeters`). */
export function bearingArriving(points: LonLat[], lookMeters = 20): number | undefined {
  const back = bearingAlong([...points].reverse(), lookMeters);
  return back === undefined ? undefined : (back + 180) % 360;
}

/** The part of a line between two fractions of its length (0..1), with the cut points interpolated. */
export function sliceLine(points: LonLat[], fromFraction: number, toFraction: number): LonLat[] {
  if (points.length < 2) return points.slice();
  const total = lineLength(points);
  const from = Math.max(0, Math.min(1, fromFraction)) * total;
  const to = Math.max(0, Math.min(1, toFraction)) * total;
  const result: LonLat[] = [pointAt(points, from)];
  let travelled = 0;
  for (let index = 1; index < points.length; index++) {
    travelled += distanceMeters(points[index - 1]!, points[index]!);
    if (travelled > from && travelled < to) result.push(points[index]!);
  }
  result.push(pointAt(points, to));
  return result;
}

/** The point `meters` along a line (clamped to its ends). */
export function pointAt(points: LonLat[], meters: number): LonLat {
  let travelled = 0;
  for (let index = 1; index < points.length; index++) {
    const a = points[index - 1]!;
    const b = points[index]!;
    const step = distanceMeters(a, b);
    if (travelled + step >= meters && step > 0) {
      const t = Math.max(0, (meters - travelled) / step);
      return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    }
    travelled += step;
  }
  return points[meters <= 0 ? 0 : points.length - 1]!;
}

/**
 * Which side of the travel direction (bearing) the point `target` lies on, seen from `from`:
 * 'right', 'left', or undefined when it is (nearly) ahead or behind.
 */
export function sideOf(from: LonLat, travelBearing: number, target: LonLat): 'left' | 'right' | undefined {
  const toTarget = bearingDegrees(from, target);
  const degree = turnDegree(travelBearing, toTarget);
  if (degree > 20 && degree < 160) return 'right';
  if (degree > 200 && degree < 340) return 'left';
  return undefined;
}

const CARDINALS = ['north', 'northeast', 'east', 'southeast', 'south', 'southwest', 'west', 'northwest'] as const;
export type Cardinal = (typeof CARDINALS)[number];

/** The eight-point compass direction of a bearing. */
export function cardinalOf(bearing: number): Cardinal {
  return CARDINALS[Math.round((((bearing % 360) + 360) % 360) / 45) % 8]!;
}
