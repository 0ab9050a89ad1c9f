/**
 * Timing a routed path on the learned profiles (POST /traffic/route, the
 * navigation ETA): the segments are driven from the departure with the clock
 * advancing, each segment's free-flow seconds divided by its profile's speed
 * ratio at the moment it is entered (kept within [0.25, 1.5]). A segment
 * without a profile keeps its free-flow time and counts as uncovered. Pure:
 * the caller resolves a segment's profile at an instant.
 */
import type { ProfileRow } from '../../domain/traffic.js';
import { bandOf, describeSums, type ResolvedProfile } from './traffic-model.js';
import { TRAFFIC_METRIC } from './traffic-metric.js';

/** One leg's road segments in travel order, as the solver task `routeSegments` answers them. */
export interface RoutedLegs {
  legs: { segments: { segmentKey: string; meters: number; seconds: number }[] }[];
}

export interface TimedSegment {
  segmentKey: string;
  meters: number;
  freeFlowSeconds: number;
  trafficSeconds: number;
  profileType: ResolvedProfile['profileType'] | null;
  label: string | null;
  sampleCount: number;
}

export interface TimedRoute {
  arrivalMs: number;
  distanceMeters: number;
  freeFlowSeconds: number;
  trafficSeconds: number;
  /** Distance-weighted mean speed ratio of the covered segments; undefined without any. */
  meanRatio: number | undefined;
  coveredMeters: number;
  segmentsWithProfile: number;
  /** Distinct segment keys of the path. */
  segmentCount: number;
  simulated: boolean;
  legs: { segments: TimedSegment[] }[];
}

/** Drives `routed` from `departMs`; `resolve` answers a segment's profile (its rows) at an instant. */
export function timeRoute(routed: RoutedLegs, bySegment: ReadonlyMap<string, readonly ProfileRow[]>, departMs: number, resolve: (rows: readonly ProfileRow[], atMs: number) => ResolvedProfile | undefined): TimedRoute {
  let clockMs = departMs;
  let freeFlow = 0;
  let distance = 0;
  let coveredMeters = 0;
  let ratioMeters = 0;
  let covered = 0;
  let simulated = false;
  const keys = new Set<string>();
  const legs = routed.legs.map((leg) => ({
    segments: leg.segments.map((segment) => {
      keys.add(segment.segmentKey);
      const rows = bySegment.get(segment.segmentKey);
      const resolved = rows ? resolve(rows, clockMs) : undefined;
      const described = resolved ? describeSums(resolved.sums) : undefined;
      const ratio = described ? Math.min(TRAFFIC_METRIC.maxRatio, Math.max(TRAFFIC_METRIC.minRatio, described.speedRatio)) : 1;
      const seconds = segment.seconds / ratio;
      clockMs += seconds * 1000;
      freeFlow += segment.seconds;
      distance += segment.meters;
      if (described) {
        covered++;
        coveredMeters += segment.meters;
        ratioMeters += described.speedRatio * segment.meters;
        simulated ||= described.simulated;
      }
      return {
        segmentKey: segment.segmentKey,
        meters: Math.round(segment.meters * 10) / 10,
        freeFlowSeconds: Math.round(segment.seconds * 10) / 10,
        trafficSeconds: Math.round(seconds * 10) / 10,
        profileType: resolved?.profileType ?? null,
        label: described?.label ?? null,
        sampleCount: resolved?.sums.sampleCount ?? 0,
      };
    }),
  }));
  return {
    arrivalMs: clockMs,
    distanceMeters: distance,
    freeFlowSeconds: freeFlow,
    trafficSeconds: (clockMs - departMs) / 1000,
    meanRatio: coveredMeters > 0 ? ratioMeters / coveredMeters : undefined,
    coveredMeters,
    segmentsWithProfile: covered,
    segmentCount: keys.size,
    simulated,
    legs,
  };
}

/** The congestion word of a timed route (its distance-weighted mean ratio; unknown without history). */
export function trafficLevelOf(timed: TimedRoute) {
  return timed.meanRatio === undefined ? ('unknown' as const) : bandOf(timed.meanRatio).congestion;
}

/** Whether two routed paths drive the same segments in the same order. */
export function sameSegments(a: RoutedLegs, b: RoutedLegs): boolean {
  const keysOf = (routed: RoutedLegs) => routed.legs.map((leg) => leg.segments.map((segment) => segment.segmentKey).join(',')).join('|');
  return keysOf(a) === keysOf(b);
}
