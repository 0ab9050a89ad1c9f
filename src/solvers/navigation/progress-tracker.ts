/**
 * Progress along a route from a stream of position fixes: where the fix lies
 * on the route (heading-aware, preferring continuity with the last fix), the
 * distance and time left, the current and next maneuver, and the events a
 * fix produces — maneuver approaching (window tuned by speed), maneuver
 * completed, off route (outside the corridor on consecutive fixes, so one
 * noisy fix does not re-route) and arrived. Pure: state in, state out.
 */
import { haversineMeters } from '../graph/geodesy.js';
import type { RouteLine } from './route-line.js';
import { roundTo } from '../../shared/rounding.js';
import type { TrackerState } from '../../domain/navigation-session.js';

export const DEFAULT_CORRIDOR_METERS = 40;
export const DEFAULT_ARRIVAL_RADIUS_METERS = 35;
/** Consecutive fixes outside the corridor that make the traveller off route. */
export const OFF_ROUTE_FIXES = 2;
/** A fix whose own accuracy is worse than this many corridors says nothing about leaving the route. */
const UNTRUSTED_ACCURACY_CORRIDORS = 2;
/** The approaching window: this many seconds ahead at the current speed, within bounds (m). */
const APPROACH_SECONDS = 12;
const APPROACH_MIN_METERS = 50;
const APPROACH_MAX_METERS = 800;
/** Largest radius searched through the grid before scanning the whole line (m). */
const MAX_NEAR_SEARCH_METERS = 1_500;
/** Speed assumed when the fix gives none (m/s, city driving). */
const DEFAULT_SPEED_MPS = 8;
/** A maneuver counts as completed this far past its point (m), so a fix at the junction is not yet past it. */
const COMPLETED_PAST_METERS = 10;

export interface Fix {
  lat: number;
  lng: number;
  /** m/s */
  speed?: number;
  /** Degrees clockwise from north. */
  heading?: number;
  /** Horizontal accuracy (m), when the device reports it. */
  accuracy?: number;
}

export interface TrackerSettings {
  corridorMeters: number;
  arrivalRadiusMeters: number;
  /** Where arrival is judged; the route's last point when absent. */
  destination?: { lat: number; lng: number };
}

export const initialTrackerState = (): TrackerState => ({ alongMeters: undefined, offRouteStreak: 0, approached: -1, completed: 0, arrived: false });

export type TrackerEvent =
  | { type: 'maneuver_approaching'; data: { maneuverIndex: number; distanceMeters: number; windowMeters: number } }
  | { type: 'maneuver_completed'; data: { maneuverIndex: number } }
  | { type: 'off_route'; data: { distanceToRouteMeters: number } }
  | { type: 'arrived'; data: { distanceToDestinationMeters: number } };

export interface Progress {
  offRoute: boolean;
  arrived: boolean;
  /** The route shape point at or before the snapped position. */
  shapeIndex: number;
  maneuverIndex: number;
  snapped: { lat: number; lng: number };
  distanceToRouteMeters: number;
  alongMeters: number;
  distanceRemainingMeters: number;
  durationRemainingSeconds: number;
  /** Null after the last maneuver. */
  distanceToNextManeuverMeters: number | null;
  nextManeuverIndex: number | null;
  progressFraction: number;
}

export interface Located {
  segment: number;
  distanceMeters: number;
  alongMeters: number;
  lat: number;
  lng: number;
}

/**
 * How well a projected point explains a fix (lower is better): its distance, plus a penalty when the segment
 * runs against a moving traveller's heading, plus one for going back along the route from the last position.
 * Penalties only add, so the distance alone is a lower bound of the score.
 */
export function candidateScore(hit: { distanceMeters: number; alongMeters: number; bearing: number }, fix: Fix, previousAlong: number | undefined, corridorMeters: number): number {
  let score = hit.distanceMeters;
  if (fix.heading !== undefined && (fix.speed ?? DEFAULT_SPEED_MPS) > 1) {
    const difference = Math.abs(((hit.bearing - fix.heading + 540) % 360) - 180);
    if (difference > 100) score += corridorMeters * 2;
  }
  if (previousAlong !== undefined && hit.alongMeters < previousAlong - 30) score += (previousAlong - hit.alongMeters) * 0.5;
  return score;
}

/**
 * The route position a fix stands for. Candidates come from the route's grid near the fix; each is
 * scored by its distance plus penalties for running against the fix's heading and for jumping back
 * from the last position (routes that pass a place twice, U-turns), so the traveller's own stretch
 * wins. Far from the route, the nearest point of the whole line.
 */
export function locateOnRoute(line: RouteLine, fix: Fix, previousAlong: number | undefined, corridorMeters: number): Located {
  // near the fix first (a few grid cells); far from the route, every segment
  const near = line.segmentsNear(fix.lat, fix.lng, Math.min(Math.max(corridorMeters * 3, 150), MAX_NEAR_SEARCH_METERS));
  if (near.length === 0) return bestCandidate(line, fix, previousAlong, corridorMeters, undefined)!;
  // Penalties only add to a candidate's distance, so the nearest candidate's score bounds the winner's: a
  // candidate farther than that cannot win and is not projected (~40 candidates a fix, a few near it). The rest
  // are considered in their original order, so ties go as they always did.
  let nearest = near[0]!;
  let nearestBound = Infinity;
  for (let index = 0; index < near.length; index++) {
    const bound = line.distanceLowerBound(near[index]!, fix.lat, fix.lng);
    if (bound < nearestBound) {
      nearestBound = bound;
      nearest = near[index]!;
    }
  }
  const winnerAtMost = candidateScore(line.project(nearest, fix.lat, fix.lng), fix, previousAlong, corridorMeters);
  return bestCandidate(line, fix, previousAlong, corridorMeters, near, winnerAtMost)!;
}

/**
 * The best-scoring of `segments` (every segment of the line when undefined), taken in order so the first of
 * equal scores wins; segments whose distance lower bound exceeds `scoreAtMost` are skipped unprojected.
 */
export function bestCandidate(
  line: RouteLine,
  fix: Fix,
  previousAlong: number | undefined,
  corridorMeters: number,
  segments: readonly number[] | undefined,
  scoreAtMost = Infinity,
): Located | undefined {
  let best: Located | undefined;
  let bestScore = Infinity;
  const count = segments ? segments.length : Math.max(0, line.pointCount - 1);
  for (let index = 0; index < count; index++) {
    const segment = segments ? segments[index]! : index;
    if (scoreAtMost !== Infinity && line.distanceLowerBound(segment, fix.lat, fix.lng) > scoreAtMost) continue;
    const hit = line.project(segment, fix.lat, fix.lng);
    const score = candidateScore(hit, fix, previousAlong, corridorMeters);
    if (score < bestScore) {
      bestScore = score;
      best = { segment, distanceMeters: hit.distanceMeters, alongMeters: hit.alongMeters, lat: hit.lat, lng: hit.lng };
    }
  }
  return best;
}

export function trackFix(line: RouteLine, state: TrackerState, fix: Fix, settings: TrackerSettings): { state: TrackerState; progress: Progress; events: TrackerEvent[] } {
  const events: TrackerEvent[] = [];
  const located = locateOnRoute(line, fix, state.alongMeters, settings.corridorMeters);
  const outside = located.distanceMeters > settings.corridorMeters;
  const trusted = fix.accuracy === undefined || fix.accuracy <= settings.corridorMeters * UNTRUSTED_ACCURACY_CORRIDORS;
  const next: TrackerState = { ...state };
  next.offRouteStreak = outside ? (trusted ? state.offRouteStreak + 1 : state.offRouteStreak) : 0;
  const offRoute = next.offRouteStreak >= OFF_ROUTE_FIXES;
  if (offRoute && state.offRouteStreak < OFF_ROUTE_FIXES) events.push({ type: 'off_route', data: { distanceToRouteMeters: roundTo(located.distanceMeters, 1) } });
  // progress follows the fix only while it is on the route
  if (!outside) next.alongMeters = located.alongMeters;
  const along = next.alongMeters ?? located.alongMeters;

  const marks = line.maneuvers;
  let maneuverIndex = 0;
  while (maneuverIndex + 1 < marks.length && marks[maneuverIndex + 1]!.cumulativeMeters <= along + 1e-6) maneuverIndex++;
  const nextIndex = maneuverIndex + 1 < marks.length ? maneuverIndex + 1 : null;
  const distanceToNext = nextIndex === null ? null : Math.max(0, marks[nextIndex]!.cumulativeMeters - along);

  if (!outside && !state.arrived) {
    // the last mark is the arrival, reported as such, not as a completed maneuver
    const lastTurn = marks.length - 2;
    while (next.completed < lastTurn && marks[next.completed + 1]!.cumulativeMeters + COMPLETED_PAST_METERS <= along) {
      next.completed++;
      events.push({ type: 'maneuver_completed', data: { maneuverIndex: next.completed } });
    }
    const windowMeters = Math.min(APPROACH_MAX_METERS, Math.max(APPROACH_MIN_METERS, (fix.speed ?? DEFAULT_SPEED_MPS) * APPROACH_SECONDS));
    if (nextIndex !== null && nextIndex > next.approached && distanceToNext! <= windowMeters) {
      next.approached = nextIndex;
      events.push({ type: 'maneuver_approaching', data: { maneuverIndex: nextIndex, distanceMeters: roundTo(distanceToNext!, 1), windowMeters: roundTo(windowMeters, 1) } });
    }
  }

  const destination = settings.destination ?? { lat: line.lat[line.pointCount - 1]!, lng: line.lng[line.pointCount - 1]! };
  const toDestination = haversineMeters(fix.lat, fix.lng, destination.lat, destination.lng);
  const atEnd = !outside && line.lengthMeters - along <= settings.arrivalRadiusMeters;
  if (!state.arrived && (toDestination <= settings.arrivalRadiusMeters || atEnd)) {
    next.arrived = true;
    events.push({ type: 'arrived', data: { distanceToDestinationMeters: roundTo(toDestination, 1) } });
  }
  const remaining = Math.max(0, line.lengthMeters - along);
  return {
    state: next,
    events,
    progress: {
      offRoute,
      arrived: next.arrived,
      shapeIndex: located.segment + (located.alongMeters >= line.along[located.segment + 1]! ? 1 : 0),
      maneuverIndex,
      snapped: { lat: roundTo(located.lat, 6), lng: roundTo(located.lng, 6) },
      distanceToRouteMeters: roundTo(located.distanceMeters, 1),
      alongMeters: roundTo(along, 1),
      distanceRemainingMeters: roundTo(next.arrived ? 0 : remaining, 1),
      durationRemainingSeconds: roundTo(next.arrived ? 0 : line.secondsLeftAt(along), 1),
      distanceToNextManeuverMeters: distanceToNext === null ? null : roundTo(distanceToNext, 1),
      nextManeuverIndex: nextIndex,
      progressFraction: line.lengthMeters > 0 ? Math.round((next.arrived ? 1 : Math.min(1, along / line.lengthMeters)) * 10_000) / 10_000 : 1,
    },
  };
}
