/**
 * The routing tasks a solver worker runs. Each worker keeps one engine over
 * the shared map pack; hierarchies arrive with the tasks as shared memory.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { fail, ok, type TaskResult } from '../task-result.js';
import type { MetricSpec } from './costing/profiles.js';
import { buildHierarchy } from './hierarchy/contract.js';
import { shareHierarchy, type Hierarchy } from './hierarchy/hierarchy.js';
import type { LegPath } from './leg-path.js';
import { RoutingEngine, type RouteLocation, type RouteRequest } from './routing-engine.js';
import { buildTrip } from './guidance/trip.js';
import type { Trip, TripOptions } from './guidance/trip-types.js';
import { legSpeedLimits, type SpeedLimitStretch } from './guidance/speed-limits.js';
import { narrativeLanguage } from './guidance/street-names.js';

let engine: RoutingEngine | undefined;

/** The worker's engine over its shared pack (built on first use). */
export function workerEngine(pack: MapPack | undefined): RoutingEngine | undefined {
  if (!pack) return undefined;
  if (engine?.pack !== pack) engine = new RoutingEngine(pack);
  return engine;
}

export function contractMetricTask(pack: MapPack | undefined, input: { metric: MetricSpec }): TaskResult<{ hierarchy: Hierarchy; buildMs: number; shortcuts: number }> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const started = performance.now();
  const metric = routing.metric(input.metric);
  const hierarchy = shareHierarchy(buildHierarchy(metric.graph, routing.pack.sections['graph.edgeLength']));
  let shortcuts = 0;
  for (let arc = 0; arc < hierarchy.baseArc.length; arc++) if (hierarchy.baseArc[arc]! < 0) shortcuts++;
  return ok({ hierarchy, buildMs: performance.now() - started, shortcuts });
}

export type RoutePathsOutcome = { legs: LegPath[]; alternates: LegPath[][]; usedHierarchy: boolean; settled: number };

export function routePathsTask(pack: MapPack | undefined, input: RouteRequest): TaskResult<RoutePathsOutcome> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const outcome = routing.route(input);
  if (!outcome.ok) {
    const { ok: _ok, code, ...details } = outcome;
    return fail(code, details);
  }
  const { ok: _ok, ...value } = outcome;
  return ok(value);
}

export interface MatrixTaskInput {
  metric: MetricSpec;
  hierarchy: Hierarchy;
  sources: RouteLocation[];
  targets: RouteLocation[];
}

export function routeMatrixTask(
  pack: MapPack | undefined,
  input: MatrixTaskInput,
): TaskResult<{ seconds: Float64Array; meters: Float64Array; unsnapped: { sources: number[]; targets: number[] } }> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const { seconds, meters, unsnapped } = routing.matrix(input.metric, input.hierarchy, input.sources, input.targets);
  return ok({ seconds, meters, unsnapped });
}

export interface TripTaskInput extends RouteRequest {
  guidance: TripOptions;
}

export interface TripOutcome {
  trip: Trip;
  alternates: { trip: Trip }[];
  /** Legal speed limits per leg of the trip (with `guidance.includeAttributes`). */
  speedLimits?: SpeedLimitStretch[][];
  usedHierarchy: boolean;
}

/** Searches the legs and turns them into the Valhalla trip (guidance runs here too, off the main thread). */
export function routeTripTask(pack: MapPack | undefined, input: TripTaskInput): TaskResult<TripOutcome> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const { guidance, ...request } = input;
  const outcome = routing.route(request);
  if (!outcome.ok) {
    const { ok: _ok, code, ...details } = outcome;
    return fail(code, details);
  }
  const options = { ...guidance, costing: request.metric.costing };
  const trip = buildTrip(routing.pack, outcome.legs, options);
  return ok({
    trip,
    alternates: outcome.alternates.map((legs) => ({ trip: buildTrip(routing.pack, legs, options) })),
    ...(guidance.includeAttributes ? { speedLimits: outcome.legs.map((leg) => legSpeedLimits(routing.pack, leg, narrativeLanguage(guidance.language))) } : {}),
    usedHierarchy: outcome.usedHierarchy,
  });
}
