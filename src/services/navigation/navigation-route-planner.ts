/**
 * Plans the route a traveller navigates (spec part 3 §4.2): one leg from where
 * they are to where they go, searched and narrated by the routing engine in a
 * worker, returned as the navigation view (one polyline6 shape, navigation
 * maneuvers with text-to-speech-ready verbal texts, metres and seconds).
 *
 * Used by POST /navigation/recalculate and by navigation sessions (first plan
 * and every re-plan). A re-plan of a moving vehicle passes its heading: the
 * origin then snaps only to the direction of travel, so the route continues
 * ahead (and turns at the next junction where it must) instead of starting
 * with a U-turn on the spot.
 */
import { ApiError } from '../../shared/errors.js';
import { navigationRoute } from '../../solvers/routing/guidance/index.js';
import type { NavigationRoute } from '../../domain/navigation-route.js';
import type { RouteLocation } from '../../solvers/routing/routing-engine.js';
import { metricOf } from '../routing/engine-request.js';
import type { RoutingService } from '../routing/routing-service.js';
import type { Avoidable, Preference } from '../../domain/costing.js';
import type { NavigationCosting } from '../../domain/costing.js';
import { steerAround, type PlanConstraintSource } from '../routing/plan-constraints.js';
import type { TripOutcome } from '../../solvers/routing/routing-tasks.js';

export interface PlanPosition {
  lat: number;
  lng: number;
}

export interface NavigationPlanRequest {
  /** Where the route starts; `heading` (degrees from north) when the traveller is moving. */
  from: PlanPosition & { heading?: number };
  to: PlanPosition;
  costing: NavigationCosting;
  preference: Preference;
  avoid: readonly Avoidable[];
  /** BCP 47 tag of the guidance texts (`ar…` Arabic, else English). */
  language: string;
}

/** The part of the routing service the planner needs (a narrow seam for tests and for the sessions' actors). */
export type TripRouter = Pick<RoutingService, 'trip'>;

export class NavigationRoutePlanner {
  constructor(
    private readonly routing: TripRouter,
    /** Blocking incidents, acknowledged reports and road edits a navigated route goes around (as /routing/plan's defaults). */
    private readonly constraints?: PlanConstraintSource,
  ) {}

  /**
   * The route from `from` to `to`. Throws the routing ApiErrors: COSTING_UNAVAILABLE (truck without
   * truck data), NO_ROAD_NEARBY, NO_ROUTE (all 400).
   */
  async plan(request: NavigationPlanRequest, signal?: AbortSignal): Promise<NavigationRoute> {
    const metric = metricOf(request.costing, undefined, request.preference, [...request.avoid]);
    const destination: RouteLocation = { lat: request.to.lat, lon: request.to.lng };
    const origin: RouteLocation = { lat: request.from.lat, lon: request.from.lng };
    const guidance = { language: request.language, units: 'kilometers' as const };
    if (request.from.heading !== undefined) {
      try {
        const locations = [{ ...origin, heading: request.from.heading }, destination];
        return navigationRoute((await this.steered(locations, await this.routing.trip(metric, locations, guidance, {}, signal), (avoidAreas) => this.routing.trip(metric, locations, guidance, { avoidAreas }, signal))).trip);
      } catch (error) {
        // Ahead is a dead end (a one-way into a closed area, a cul-de-sac): turning around beats no route.
        if (!(error instanceof ApiError) || error.code !== 'NO_ROUTE') throw error;
      }
    }
    const locations = [origin, destination];
    const outcome = await this.routing.trip(metric, locations, guidance, {}, signal);
    return navigationRoute((await this.steered(locations, outcome, (avoidAreas) => this.routing.trip(metric, locations, guidance, { avoidAreas }, signal))).trip);
  }

  /** The route around what the planner avoids near it (nothing to do without a constraint source). */
  private async steered(locations: RouteLocation[], first: TripOutcome, plan: Parameters<typeof steerAround<TripOutcome>>[3]): Promise<TripOutcome> {
    if (!this.constraints) return first;
    const request = { locations, avoidIncidents: true, avoidReported: true, disregard: [], principal: undefined };
    const isUnroutable = (error: unknown) => error instanceof ApiError && (error.code === 'NO_ROUTE' || error.code === 'NO_ROAD_NEARBY');
    return (await steerAround(this.constraints, request, first, plan, isUnroutable)).outcome;
  }
}
