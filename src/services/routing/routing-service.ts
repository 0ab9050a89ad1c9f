/**
 * Routing between the edge and the solver workers: picks the hierarchy for a
 * metric, runs the search under the time budget, and turns engine outcomes
 * into API errors. The main thread never searches a graph.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { ApiError } from '../../shared/errors.js';
import { PROFILES, baseMetric, type MetricSpec } from '../../solvers/routing/costing/profiles.js';
import type { AlternatesOptions, RouteLocation } from '../../solvers/routing/routing-engine.js';
import type { AreaAvoidance } from '../../solvers/routing/avoid-areas.js';
import type { NearestRoad, RouteAnswer, RoutingFailure, TripOutcome } from '../../solvers/routing/routing-tasks.js';
import type { RouteAnswerShape } from '../../solvers/routing/route-answer.js';
import type { TripOptions } from '../../solvers/routing/guidance/index.js';
import type { SolverPool, TaskOutput } from '../../solvers/solver-pool.js';
import type { HierarchyCache } from './hierarchy-cache.js';
import { runWithBudget } from './solver-call.js';
import type { TaskFailure, TaskResult } from '../../solvers/task-result.js';
import type { Hierarchy } from '../../solvers/routing/hierarchy/hierarchy.js';
import { HIERARCHY_UNKNOWN, type HierarchyRef } from '../../solvers/routing/hierarchy/hierarchy-ref.js';
import { COSTINGS, type Costing } from '../../domain/costing.js';
import { EngineFailure } from './engine-envelope.js';

export interface RoutingServiceOptions {
  solvers: SolverPool;
  pack: MapPack;
  hierarchies: HierarchyCache;
  timeoutMs: number;
}

export interface ProfileDescription {
  costing: Costing;
  label: string;
  available: boolean;
  description: string;
}

const PROFILE_TEXT: Record<Costing, [string, string]> = {
  auto: ['Car', 'Cars on roads open to motor vehicles, following one-ways, turn restrictions and speed limits'],
  pedestrian: ['Walking', 'On foot: footways, paths, steps, pedestrian streets and roads without a sidewalk ban; one-ways do not apply'],
  bicycle: ['Bicycle', 'Cycleways and roads open to bicycles, with contraflow where tagged; busy highways discouraged'],
  wheelchair: ['Wheelchair', 'Walking routes without steps (unless tagged wheelchair=yes) and ways not marked wheelchair=no; unpaved surfaces slowed'],
  motor_scooter: ['Motor scooter', 'Mopeds and scooters up to 45 km/h; no motorways'],
  bus: ['Bus', 'Roads and busways open to buses'],
  taxi: ['Taxi', 'Like a car, plus lanes and roads open to taxis'],
  truck: ['Truck', 'Heavy goods vehicles, respecting hgv access and weight, height, width and length limits'],
};

/** Avoided areas and alternatives of a trip request. */
export interface TripExtras {
  avoidAreas?: AreaAvoidance;
  alternates?: AlternatesOptions;
}

export class RoutingService {
  constructor(private readonly options: RoutingServiceOptions) {}

  /** Whether the loaded data carries truck attributes (hgv access or dimension limits). */
  get truckAvailable(): boolean {
    return (this.options.pack.header.stats.truckTaggedWays ?? 0) > 0;
  }

  profiles(): ProfileDescription[] {
    return COSTINGS.map((costing) => ({
      costing,
      label: PROFILE_TEXT[costing][0],
      available: costing !== 'truck' || this.truckAvailable,
      description: PROFILE_TEXT[costing][1],
    }));
  }

  assertAvailable(costing: Costing): void {
    if (costing === 'truck' && !this.truckAvailable) {
      throw new ApiError('COSTING_UNAVAILABLE', {
        message: 'Truck routing is not available: the loaded map data carries no truck attributes',
        details: { costing },
      });
    }
  }

  /** Starts building the hierarchies of the common metrics, so the first requests find them ready. */
  warmUp(specs: MetricSpec[]): void {
    for (const spec of specs) void this.options.hierarchies.get(spec);
  }

  /** The route as a Valhalla trip with guidance (and alternatives), searched and narrated in a worker. */
  async trip(metric: MetricSpec, locations: RouteLocation[], guidance: TripOptions, extras: TripExtras = {}, signal?: AbortSignal): Promise<TripOutcome> {
    this.assertAvailable(metric.costing);
    const hierarchy = this.options.hierarchies.ready(baseMetric(metric));
    const result = await this.withHierarchy(hierarchy, (hierarchyRef) =>
      runWithBudget(this.options.solvers, 'routeTrip', { metric, locations, guidance, ...(hierarchyRef ? { hierarchyRef } : {}), ...extras }, this.options.timeoutMs, signal),
    );
    if (result.ok) return result.value;
    throw this.engineError(metric, result);
  }

  /**
   * As {@link trip}, answered as the whole POST /routing/route body: the worker writes the answer around the trip
   * (`answer`) and hands over its UTF-8 bytes (see route-answer.ts).
   */
  async routeAnswer(metric: MetricSpec, locations: RouteLocation[], guidance: TripOptions, extras: TripExtras, answer: RouteAnswerShape, signal?: AbortSignal): Promise<RouteAnswer> {
    this.assertAvailable(metric.costing);
    const hierarchy = this.options.hierarchies.ready(baseMetric(metric));
    const result = await this.withHierarchy(hierarchy, (hierarchyRef) =>
      runWithBudget(this.options.solvers, 'routeAnswer', { metric, locations, guidance, ...(hierarchyRef ? { hierarchyRef } : {}), ...extras, answer }, this.options.timeoutMs, signal),
    );
    if (result.ok) return result.value;
    throw this.engineError(metric, result);
  }

  /** The point where a location meets the roads a metric may use; undefined when none is within the location's cutoff. */
  async nearestRoad(metric: MetricSpec, location: RouteLocation, language?: string, signal?: AbortSignal): Promise<NearestRoad | undefined> {
    this.assertAvailable(metric.costing);
    const result = await runWithBudget(this.options.solvers, 'nearestRoad', { metric, location, ...(language ? { language } : {}) }, this.options.timeoutMs, signal);
    if (!result.ok) throw this.engineError(metric, result);
    return result.value ?? undefined;
  }

  /** The fastest route's segments per leg (keys, metres, free-flow seconds), for traffic-aware ETAs. */
  async segments(metric: MetricSpec, locations: RouteLocation[], signal?: AbortSignal) {
    this.assertAvailable(metric.costing);
    const hierarchy = this.options.hierarchies.ready(baseMetric(metric));
    const result = await this.withHierarchy(hierarchy, (hierarchyRef) =>
      runWithBudget(this.options.solvers, 'routeSegments', { metric, locations, ...(hierarchyRef ? { hierarchyRef } : {}) }, this.options.timeoutMs, signal),
    );
    if (!result.ok) throw this.engineError(metric, result);
    return result.value;
  }

  /** Seconds and metres between every source and target (NaN where none). */
  /** `unbounded`: never refused for a full worker line (work already accepted, e.g. an optimization job's). */
  async matrix(metric: MetricSpec, sources: RouteLocation[], targets: RouteLocation[], signal?: AbortSignal, { unbounded = false }: { unbounded?: boolean } = {}) {
    this.assertAvailable(metric.costing);
    const hierarchy = await this.options.hierarchies.get(metric);
    if (!hierarchy) throw new ApiError('SERVICE_UNAVAILABLE', { message: 'The routing engine could not prepare this costing' });
    const result = await this.withHierarchy(hierarchy, (hierarchyRef) =>
      runWithBudget(this.options.solvers, 'routeMatrix', { metric, hierarchyRef: hierarchyRef!, sources, targets }, this.options.timeoutMs, signal, { unbounded }),
    );
    if (!result.ok) throw this.engineError(metric, result);
    return result.value;
  }

  /**
   * Runs a task naming the hierarchy by id; a worker that has not been sent it yet answers
   * `hierarchy_unknown`, and the task runs once more with the hierarchy attached.
   */
  private async withHierarchy<R extends TaskResult<unknown, TaskFailure>>(hierarchy: Hierarchy | undefined, run: (ref: HierarchyRef | undefined) => Promise<R>): Promise<R> {
    if (!hierarchy) return run(undefined);
    const first = await run({ id: hierarchy.id });
    if (first.ok || first.code !== HIERARCHY_UNKNOWN) return first;
    return run({ id: hierarchy.id, hierarchy });
  }

  /** The error of an engine failure: input it cannot route is the caller's (400); a worker without the map (or the hierarchy, after its retry) is the engine's. */
  private engineError(metric: MetricSpec, failure: RoutingFailure): ApiError | EngineFailure {
    switch (failure.code) {
      case 'no_road_nearby':
        return new ApiError('NO_ROAD_NEARBY', {
          message: `No road usable by ${PROFILES[metric.costing].costing} within ${failure.cutoffMeters} m of location ${failure.locationIndex}`,
          details: { locationIndex: failure.locationIndex, cutoffMeters: failure.cutoffMeters, costing: metric.costing },
        });
      case 'no_route':
        return new ApiError('NO_ROUTE', {
          message: `No ${metric.costing} route from location ${failure.legIndex} to location ${failure.legIndex + 1}`,
          details: { legIndex: failure.legIndex, costing: metric.costing },
        });
      default:
        return new EngineFailure(`The routing engine answered ${failure.code}`, failure.code);
    }
  }
}
