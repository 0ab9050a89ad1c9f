/**
 * The stateless navigation helpers (spec part 3 §4.2): where a position lies
 * on a route the caller holds, and whether it has left it. Both build a
 * route line from the caller's polyline6 shape and run the same tracker the
 * sessions use, for one fix.
 */
import { ApiError } from '../../shared/errors.js';
import { RouteLine } from '../../solvers/navigation/route-line.js';
import { DEFAULT_CORRIDOR_METERS, initialTrackerState, locateOnRoute, trackFix } from '../../solvers/navigation/progress-tracker.js';
import { roundTo } from '../../shared/rounding.js';

export const PROVIDER = 'svc-navigation';

export interface Position {
  lat: number;
  lng: number;
}

function lineOf(shape: string, options: Parameters<typeof RouteLine.fromShape>[1] = {}): RouteLine {
  const line = RouteLine.fromShape(shape, options);
  if (!line) {
    throw new ApiError('VALIDATION_ERROR', {
      message: ['routeShape: must be a polyline6 shape with at least 2 distinct points'],
      details: { issues: [{ location: 'body', path: 'routeShape', message: 'fewer than 2 points', code: 'too_small' }] },
    });
  }
  return line;
}

export function offRoute(input: { routeShape: string; position: Position; heading?: number; thresholdMeters: number }) {
  const line = lineOf(input.routeShape);
  const located = locateOnRoute(line, { ...input.position, ...(input.heading !== undefined ? { heading: input.heading } : {}) }, undefined, input.thresholdMeters);
  const offRoute = located.distanceMeters > input.thresholdMeters;
  return {
    provider: PROVIDER,
    offRoute,
    distanceToRouteMeters: roundTo(located.distanceMeters, 1),
    // how sure the verdict is: 0 at the corridor's edge, 1 at the route or at twice the corridor
    confidence: Math.round(Math.min(1, Math.abs(located.distanceMeters - input.thresholdMeters) / input.thresholdMeters) * 100) / 100,
    snapped: { lat: roundTo(located.lat, 6), lng: roundTo(located.lng, 6) },
    shapeIndex: located.segment,
    alongMeters: roundTo(located.alongMeters, 1),
  };
}

export function progress(input: {
  routeShape: string;
  position: Position;
  heading?: number;
  speed?: number;
  maneuvers?: { cumulativeMeters: number }[];
  totalDistanceMeters?: number;
  baseSeconds?: number;
  arrivalRadiusMeters: number;
}) {
  const line = lineOf(input.routeShape, {
    ...(input.maneuvers ? { maneuvers: [...input.maneuvers].sort((a, b) => a.cumulativeMeters - b.cumulativeMeters) } : {}),
    ...(input.baseSeconds !== undefined ? { baseSeconds: input.baseSeconds } : {}),
    ...(input.totalDistanceMeters !== undefined ? { totalMeters: input.totalDistanceMeters } : {}),
  });
  const fix = { ...input.position, ...(input.heading !== undefined ? { heading: input.heading } : {}), ...(input.speed !== undefined ? { speed: input.speed } : {}) };
  // one fix, no history: progress is where the fix projects onto the line, on the corridor or not
  const { progress: result } = trackFix(line, initialTrackerState(), fix, { corridorMeters: DEFAULT_CORRIDOR_METERS, arrivalRadiusMeters: input.arrivalRadiusMeters });
  return {
    provider: PROVIDER,
    shapeIndex: result.shapeIndex,
    maneuverIndex: result.maneuverIndex,
    snapped: result.snapped,
    distanceToRouteMeters: result.distanceToRouteMeters,
    distanceRemainingMeters: result.distanceRemainingMeters,
    durationRemainingSeconds: result.durationRemainingSeconds,
    distanceToNextManeuverMeters: result.distanceToNextManeuverMeters,
    progressFraction: result.progressFraction,
    arrived: result.arrived,
  };
}
