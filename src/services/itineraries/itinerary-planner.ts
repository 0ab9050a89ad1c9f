/**
 * Itinerary planning (spec part 3 §4.3; docs/itineraries.md): `plan` orders given stops for the least travel
 * over the routing engine's matrix (first and last fixed, the middle reordered by the stop-order optimizer:
 * exact up to 12 movable stops); `auto` picks stops from the place catalogue near a start that match the
 * caller's interests and orders them for the most rating-weighted value within a time budget (the
 * orienteering solver, on a worker thread).
 */
import type { ListedPlace, PlaceRepository } from '../../store/pg/places.js';
import type { RoutingService } from '../routing/routing-service.js';
import { runWithBudget } from '../routing/solver-call.js';
import type { SolverPool } from '../../solvers/solver-pool.js';
import type { MetricSpec } from '../../solvers/routing/costing/profiles.js';
import { orderStops } from '../../solvers/routing/stop-order/stop-order.js';
import type { OrienteeringOptions, OrienteeringProblem } from '../../solvers/orienteering/orienteering.js';
import { ATTRIBUTION } from '../places/places-service.js';
import { EngineFailure } from '../routing/engine-envelope.js';
import { ApiError } from '../../shared/errors.js';
import type { ItineraryAutoBody, ItineraryCosting, ItineraryPlanBody } from './itinerary-requests.js';
import { InterestReader } from './interests.js';

export const PROVIDER = 'svc-itinerary';
/** Places within the radius read before ranking by value (nearest first): bounds one request's SQL and memory. */
export const CANDIDATE_SCAN = 500;
/** Rating prior (Bayesian average): an unreviewed place counts as a 3, a place with few reviews leans on it. */
const PRIOR_RATING = 3;
const PRIOR_WEIGHT = 2;

const round1 = (value: number) => Math.round(value * 10) / 10;
const floor1 = (value: number) => Math.floor(value * 10 + 1e-9) / 10;
const round3 = (value: number) => Math.round(value * 1000) / 1000;
const metricOf = (costing: ItineraryCosting): MetricSpec => ({ costing, preference: 'fastest', avoid: [] });

export interface ItineraryPlannerDeps {
  routing: RoutingService;
  places: PlaceRepository;
  solvers: SolverPool;
  timeoutMs: number;
  /** Local-search options of the auto planner (the bench compares iteration counts). */
  search?: OrienteeringOptions;
}

/** A place's value: the rating's Bayesian average weighted by how well its categories answer the interests. */
export function placeValue(place: Pick<ListedPlace, 'rating' | 'reviewCount' | 'categories'>, weights: ReadonlyMap<string, number>): number {
  let weight = 0;
  for (const slug of place.categories) weight = Math.max(weight, weights.get(slug) ?? 0);
  const rating = (place.rating * place.reviewCount + PRIOR_RATING * PRIOR_WEIGHT) / (place.reviewCount + PRIOR_WEIGHT);
  return weight * rating;
}

export class ItineraryPlanner {
  private readonly interests = new InterestReader();

  constructor(private readonly deps: ItineraryPlannerDeps) {}

  private async matrix(costing: ItineraryCosting, points: readonly { lat: number; lng: number }[], signal?: AbortSignal) {
    const locations = points.map((point) => ({ lat: point.lat, lon: point.lng }));
    try {
      return await this.deps.routing.matrix(metricOf(costing), locations, locations, signal);
    } catch (error) {
      // the engine without the map, or its worker failing, is not the caller's doing: say the trip is not available
      if (error instanceof EngineFailure) return undefined;
      throw error;
    }
  }

  /** POST /itinerary/plan. */
  async plan(body: ItineraryPlanBody, signal?: AbortSignal) {
    const { stops, costing } = body;
    const n = stops.length;
    const dwellMinutes = round1(stops.reduce((sum, stop) => sum + stop.dwellMin, 0));
    const unavailable = (reason: string, extra: Record<string, unknown> = {}) => ({
      provider: PROVIDER,
      available: false,
      reason,
      ...extra,
      costing,
      orderedStops: stops.map((stop, index) => ({ order: index, originalIndex: index, ...stop })),
      legs: [],
      totals: null,
    });
    const matrix = await this.matrix(costing, stops, signal);
    if (!matrix) return unavailable('engine_unavailable');
    if (matrix.unsnapped.sources.length) return unavailable('no_road_nearby', { stopIndex: matrix.unsnapped.sources[0] });
    const order = n >= 3 ? orderStops(matrix.seconds, n).order : [0, 1];
    const legs = [];
    let travelSeconds = 0;
    let distanceMeters = 0;
    for (let index = 1; index < order.length; index++) {
      const from = order[index - 1]!;
      const to = order[index]!;
      const seconds = matrix.seconds[from * n + to]!;
      if (!Number.isFinite(seconds)) return unavailable('no_route', { fromIndex: from, toIndex: to });
      const meters = matrix.meters[from * n + to]!;
      travelSeconds += seconds;
      distanceMeters += meters;
      legs.push({ from: index - 1, to: index, distanceKm: round3(meters / 1000), minutes: round1(seconds / 60) });
    }
    const travelMinutes = round1(travelSeconds / 60);
    return {
      provider: PROVIDER,
      available: true,
      costing,
      orderedStops: order.map((original, position) => ({ order: position, originalIndex: original, ...stops[original]! })),
      legs,
      totals: { distanceKm: round3(distanceMeters / 1000), travelMinutes, dwellMinutes, totalMinutes: round1(travelMinutes + dwellMinutes) },
    };
  }

  /** POST /itinerary/auto. */
  async auto(body: ItineraryAutoBody, signal?: AbortSignal) {
    const { start, timeBudgetMin: budget, costing, dwellMin } = body;
    const reading = this.interests.read(body.interests);
    const base = { provider: PROVIDER, start, costing, returnToStart: body.returnToStart, unmatchedInterests: reading.unmatched, attribution: ATTRIBUTION };
    const empty = (available: boolean, reason: string | undefined, candidatesConsidered: number) => ({
      ...base,
      available,
      ...(reason ? { reason } : {}),
      orderedStops: [],
      skipped: [],
      totals: { stops: 0, candidatesConsidered, travelMinutes: 0, dwellMinutes: 0, totalMinutes: 0, budgetMinutes: budget },
    });
    if (!reading.categories.size) return empty(true, 'no_matching_interest', 0);
    const found = await this.deps.places.list({ near: start, radiusKm: body.radiusKm, anyCategory: [...reading.categories.keys()], sort: 'relevance', offset: 0, limit: CANDIDATE_SCAN });
    const candidates = found.items
      .map((place) => ({ place, value: placeValue(place, reading.categories) }))
      .filter((candidate) => candidate.value > 0)
      .sort((a, b) => b.value - a.value || (a.place.distanceKm ?? 0) - (b.place.distanceKm ?? 0) || a.place.slug.localeCompare(b.place.slug))
      .slice(0, body.maxCandidates);
    if (!candidates.length) return empty(true, 'no_candidates', 0);

    const points = [start, ...candidates.map(({ place }) => ({ lat: place.lat, lng: place.lng }))];
    const matrix = await this.matrix(costing, points, signal);
    if (!matrix) return empty(false, 'engine_unavailable', candidates.length);
    if (matrix.unsnapped.sources.includes(0)) return empty(false, 'no_road_nearby', candidates.length);
    const size = points.length;
    const travel = new Float64Array(size * size);
    for (let cell = 0; cell < size * size; cell++) travel[cell] = matrix.seconds[cell]! / 60;
    const problem: OrienteeringProblem = {
      size,
      travel,
      value: [0, ...candidates.map((candidate) => candidate.value)],
      dwell: [0, ...candidates.map(() => dwellMin)],
      budget,
      returnToStart: body.returnToStart,
    };
    const solved = await runWithBudget(this.deps.solvers, 'solveOrienteering', { problem, options: this.deps.search ?? {} }, this.deps.timeoutMs, signal);
    if (!solved.ok) throw new ApiError('INTERNAL_ERROR');
    const { route, outOfReach } = solved.value;

    let clock = 0;
    let previous = 0;
    const orderedStops = route.map((node, index) => {
      const { place } = candidates[node - 1]!;
      clock += travel[previous * size + node]!;
      const arriveAtMin = round1(clock);
      clock += dwellMin;
      previous = node;
      return {
        order: index,
        placeId: place.id,
        slug: place.slug,
        name: place.nameEn ?? place.nameAr,
        nameAr: place.nameAr,
        category: place.canonicalCategory,
        rating: place.rating,
        reviewCount: place.reviewCount,
        value: round3(candidates[node - 1]!.value),
        dwellMin,
        arriveAtMin,
        lat: place.lat,
        lng: place.lng,
      };
    });
    const chosen = new Set(route);
    const unreachable = new Set(outOfReach.filter((node) => !Number.isFinite(travel[node]!) || (body.returnToStart && !Number.isFinite(travel[node * size]!))));
    const skipped = candidates.flatMap((candidate, index) => {
      const node = index + 1;
      if (chosen.has(node)) return [];
      const reason = unreachable.has(node) ? 'no_route' : outOfReach.includes(node) ? 'too_far' : 'time_budget';
      const { place } = candidate;
      return [{ placeId: place.id, slug: place.slug, name: place.nameEn ?? place.nameAr, category: place.canonicalCategory, rating: place.rating, value: round3(candidate.value), lat: place.lat, lng: place.lng, reason }];
    });
    // rounded down: rounding up could carry a tour that fits exactly over the budget
    const travelMinutes = floor1(solved.value.travelMinutes);
    const dwellMinutes = floor1(solved.value.dwellMinutes);
    return {
      ...base,
      available: true,
      orderedStops,
      skipped,
      totals: {
        stops: route.length,
        candidatesConsidered: candidates.length,
        value: round3(solved.value.value),
        travelMinutes,
        dwellMinutes,
        totalMinutes: round1(travelMinutes + dwellMinutes),
        budgetMinutes: budget,
      },
    };
  }
}
