/**
 * The routing tasks a solver worker runs. Each worker keeps one engine over
 * the shared map pack and the hierarchies it was sent (by reference: see
 * hierarchy-ref.ts).
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { fail, ok, type NoMapPack, type TaskFailure, type TaskResult } from '../task-result.js';
import { freeFlowMetric, type MetricSpec } from './costing/profiles.js';
import { segmentKeyOf } from './traffic/trip-traversals.js';
import { buildHierarchy } from './hierarchy/contract.js';
import { addedArcCounts, shareHierarchy, type Hierarchy } from './hierarchy/hierarchy.js';
import { HIERARCHY_UNKNOWN, MAX_HIERARCHIES, WorkerHierarchies, type HierarchyRef } from './hierarchy/hierarchy-ref.js';
import { routeAnswerBytes, type RouteAnswerShape } from './route-answer.js';
import { RoutingEngine, type RouteLocation, type RouteOutcome, type RouteRequest } from './routing-engine.js';
import {
  buildTrip,
  legSpeedLimits,
  narrativeLanguage,
  wayName,
  type SpeedLimitStretch,
  type Trip,
  type TripOptions,
} from './guidance/index.js';

let engine: RoutingEngine | undefined;
const hierarchies = new WorkerHierarchies(MAX_HIERARCHIES);

type WithHierarchy<T> = Omit<T, 'hierarchy'> & { hierarchyRef?: HierarchyRef };

/** The task named a hierarchy build (`id`) this worker does not hold: send it once more with the hierarchy attached. */
export interface HierarchyUnknown extends TaskFailure<typeof HIERARCHY_UNKNOWN> {
  id: string;
}

/** Why the engine found no route: a location with no usable road within its cutoff, or a leg with no path. */
export type RouteFailure = Extract<RouteOutcome, { ok: false }>;

/** What a routing task may fail with (each task names the ones it can). */
export type RoutingFailure = NoMapPack | HierarchyUnknown | RouteFailure;

/** The request with its hierarchy resolved; a failure when the ref names a build this worker lacks. */
function resolveHierarchy<T extends { hierarchyRef?: HierarchyRef }>(input: T): { ok: true; hierarchy: Hierarchy | undefined } | { ok: false; result: HierarchyUnknown } {
  if (!input.hierarchyRef) return { ok: true, hierarchy: undefined };
  const hierarchy = hierarchies.resolve(input.hierarchyRef);
  return hierarchy ? { ok: true, hierarchy } : { ok: false, result: { ok: false, code: HIERARCHY_UNKNOWN, id: input.hierarchyRef.id } };
}

/** The worker's engine over its shared pack (built on first use). */
export function workerEngine(pack: MapPack | undefined): RoutingEngine | undefined {
  if (!pack) return undefined;
  if (engine?.pack !== pack) engine = new RoutingEngine(pack);
  return engine;
}

/**
 * Builds what the first route in a new worker would otherwise build inside its time budget: the segment grid
 * and the default metric (car, fastest), about 125 ms on Nasr City. A worker ended for running past its budget
 * is replaced by one that would otherwise spend a small budget on this and be ended again, for ever.
 */
export function warmRoutingEngine(pack: MapPack | undefined): void {
  const routing = workerEngine(pack);
  if (!routing) return;
  routing.segmentGrid();
  routing.metric({ costing: 'auto', preference: 'fastest', avoid: [] });
}

/**
 * Contracts a metric's hierarchy. With `order` (node → rank of another metric's hierarchy over the same
 * pack, e.g. free flow's) the nodes keep that order and only the shortcuts are recomputed for this
 * metric's weights: the customisation of a traffic metric (docs/traffic.md).
 */
export function contractMetricTask(pack: MapPack | undefined, input: { metric: MetricSpec; order?: ArrayLike<number> }): TaskResult<{ hierarchy: Hierarchy; buildMs: number; shortcuts: number }, NoMapPack> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const started = performance.now();
  const metric = routing.metric(input.metric);
  const hierarchy = shareHierarchy(buildHierarchy(metric.graph, routing.pack.sections['graph.edgeLength'], input.order ? { order: input.order } : {}));
  return ok({ hierarchy, buildMs: performance.now() - started, shortcuts: addedArcCounts(hierarchy).shortcuts });
}

export interface MatrixTaskInput {
  metric: MetricSpec;
  hierarchyRef: HierarchyRef;
  sources: RouteLocation[];
  targets: RouteLocation[];
}

export function routeMatrixTask(
  pack: MapPack | undefined,
  input: MatrixTaskInput,
): TaskResult<{ seconds: Float64Array; meters: Float64Array; unsnapped: { sources: number[]; targets: number[] } }, NoMapPack | HierarchyUnknown> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const resolved = resolveHierarchy(input);
  if (!resolved.ok) return resolved.result;
  const { seconds, meters, unsnapped } = routing.matrix(input.metric, resolved.hierarchy!, input.sources, input.targets);
  return ok({ seconds, meters, unsnapped });
}

export interface TripTaskInput extends WithHierarchy<RouteRequest> {
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
export function routeTripTask(pack: MapPack | undefined, input: TripTaskInput): TaskResult<TripOutcome, RoutingFailure> {
  const built = buildTrips(pack, input);
  if (!built.ok) return built;
  const { trip, alternates, outcome, routing, guidance } = built.value;
  return ok({
    trip,
    alternates: alternates.map((alternate) => ({ trip: alternate })),
    ...(guidance.includeAttributes ? { speedLimits: outcome.legs.map((leg) => legSpeedLimits(routing.pack, leg, narrativeLanguage(guidance.language))) } : {}),
    usedHierarchy: outcome.usedHierarchy,
  });
}

export interface RouteAnswerInput extends TripTaskInput {
  answer: RouteAnswerShape;
}

export interface RouteAnswer {
  /** The whole answer body, UTF-8 JSON (see route-answer.ts), on an ArrayBuffer of its own. */
  body: Uint8Array;
  usedHierarchy: boolean;
}

/**
 * The POST /routing/route answer as bytes: built, labelled and encoded here, so that the main thread only
 * passes them on. The worker entry transfers the bytes' ArrayBuffer (no copy across the thread boundary).
 */
export function routeAnswerTask(pack: MapPack | undefined, input: RouteAnswerInput): TaskResult<RouteAnswer, RoutingFailure> {
  const built = buildTrips(pack, input);
  if (!built.ok) return built;
  const { trip, alternates, outcome } = built.value;
  return ok({ body: routeAnswerBytes(input.answer, trip, alternates), usedHierarchy: outcome.usedHierarchy });
}

function buildTrips(pack: MapPack | undefined, input: TripTaskInput) {
  const guidance = input.guidance;
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const resolved = resolveHierarchy(input);
  if (!resolved.ok) return resolved.result;
  // the fields a route reads (the input also carries the guidance, the hierarchy's ref and the answer's shape)
  const request: RouteRequest = {
    metric: input.metric,
    locations: input.locations,
    ...(input.avoidAreas ? { avoidAreas: input.avoidAreas } : {}),
    ...(input.alternates ? { alternates: input.alternates } : {}),
    ...(resolved.hierarchy ? { hierarchy: resolved.hierarchy } : {}),
  };
  const outcome = routing.route(request);
  if (!outcome.ok) return outcome;
  const options = { ...guidance, costing: request.metric.costing };
  const trip = buildTrip(routing.pack, outcome.legs, options);
  const alternates = outcome.alternates.map((legs) => buildTrip(routing.pack, legs, options));
  return ok({ trip, alternates, outcome, routing, guidance });
}

/** One leg's road segments in travel order: stable key, metres and free-flow seconds (turn into it included). */
export interface RouteSegments {
  legs: { segments: { segmentKey: string; meters: number; seconds: number }[] }[];
}

/** The fastest route's segments, for traffic-aware ETAs (the trip itself is not built). */
export function routeSegmentsTask(pack: MapPack | undefined, input: WithHierarchy<RouteRequest>): TaskResult<RouteSegments, RoutingFailure> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const resolved = resolveHierarchy(input);
  if (!resolved.ok) return resolved.result;
  const { hierarchyRef: _ref, ...rest } = input;
  const outcome = routing.route({ ...rest, ...(resolved.hierarchy ? { hierarchy: resolved.hierarchy } : {}) });
  if (!outcome.ok) return outcome;
  // searched on a traffic metric, the path's seconds are traffic seconds: each edge's (or part edge's) time is
  // scaled back by its free-flow / traffic time, so the caller times the path from free flow as it always did
  const freeFlowScale = input.metric.traffic ? freeFlowScaleOf(routing, input.metric) : undefined;
  return ok({
    legs: outcome.legs.map((leg) => ({
      segments: leg.edges.map((edge, index) => ({
        segmentKey: segmentKeyOf(routing.pack, edge),
        meters: leg.edgeMeters[index]!,
        seconds: leg.edgeSeconds[index]! * (freeFlowScale?.(edge) ?? 1) + leg.turnSeconds[index]!,
      })),
    })),
  });
}

/** Per edge, free-flow seconds over the traffic metric's seconds (1 where traffic left the edge alone). */
function freeFlowScaleOf(routing: RoutingEngine, spec: MetricSpec): (edge: number) => number {
  const traffic = routing.metric(spec).graph.costs.seconds;
  const freeFlow = routing.metric(freeFlowMetric(spec)).graph.costs.seconds;
  return (edge) => {
    const seconds = traffic[edge]!;
    return seconds > 0 && Number.isFinite(seconds) ? freeFlow[edge]! / seconds : 1;
  };
}

export interface NearestRoadInput {
  metric: MetricSpec;
  location: RouteLocation;
  /** Language of the street name (`ar…` Arabic, else English). */
  language?: string;
}

export interface NearestRoad {
  /** The point on the road nearest the location (degrees). */
  lat: number;
  lon: number;
  distanceMeters: number;
  /** The road's name in the language, null when it has none. */
  streetName: string | null;
}

/** Where a location meets the roads the metric may use (null when none is within the cutoff). */
export function nearestRoadTask(pack: MapPack | undefined, input: NearestRoadInput): TaskResult<NearestRoad | null, NoMapPack> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const [nearest] = routing.snap(routing.metric(input.metric), input.location);
  if (!nearest) return ok(null);
  const way = routing.pack.sections['graph.edgeWay'][nearest.edge]!;
  const streetName = wayName(routing.pack, way, narrativeLanguage(input.language));
  return ok({ lat: nearest.hit.lat, lon: nearest.hit.lon, distanceMeters: nearest.hit.distanceMeters, streetName: streetName || null });
}
