/**
 * Map matching: a GPS trace onto the roads a costing may use (HMM, see
 * hmm-matcher.ts), answered as matched points, edges, shape and confidence.
 */
import type { MetricSpec } from '../costing/profiles.js';
import type { RoutingEngine } from '../routing-engine.js';
import { DEFAULT_MATCH_OPTIONS, MAX_SEARCH_RADIUS_METERS, runHmm, type MatchOptions, type TracePoint } from './hmm-matcher.js';
import { buildMatchResult, placeMatch, type MapMatchResult, type MatchPlacement } from './match-output.js';

export interface MapMatchRequest {
  metric: MetricSpec;
  points: TracePoint[];
  options?: Partial<MatchOptions>;
}

export type MapMatchOutcome = { ok: true; result: MapMatchResult } | { ok: false; code: 'no_road_nearby'; searchRadiusMeters: number };

export function matchTrace(engine: RoutingEngine, request: MapMatchRequest): MapMatchOutcome {
  const options = resolveOptions(request.options);
  const metric = engine.metric(request.metric);
  const outcome = runHmm(engine, metric, request.points, options);
  if (!outcome.subMatches.length) return { ok: false, code: 'no_road_nearby', searchRadiusMeters: options.searchRadiusMeters };
  return { ok: true, result: buildMatchResult(engine.pack, request.points, outcome, options) };
}

/**
 * The match without its shape and road names: each point's place and the travelled edges (what the
 * traffic intake times segments from; the same placement `matchTrace` answers with).
 */
export function placeTrace(engine: RoutingEngine, request: MapMatchRequest): { ok: true; placement: MatchPlacement } | Extract<MapMatchOutcome, { ok: false }> {
  const options = resolveOptions(request.options);
  const metric = engine.metric(request.metric);
  const outcome = runHmm(engine, metric, request.points, options);
  if (!outcome.subMatches.length) return { ok: false, code: 'no_road_nearby', searchRadiusMeters: options.searchRadiusMeters };
  return { ok: true, placement: placeMatch(engine.pack, request.points, outcome, options) };
}

/** Defaults for what is not given; the radius is capped (the search cost grows with its square). */
export function resolveOptions(given: Partial<MatchOptions> = {}): MatchOptions {
  const defined = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Partial<MatchOptions>;
  const options = { ...DEFAULT_MATCH_OPTIONS, ...defined };
  options.searchRadiusMeters = Math.min(options.searchRadiusMeters, MAX_SEARCH_RADIUS_METERS);
  return options;
}

export type { MapMatchResult, MatchOptions, MatchPlacement, TracePoint };
