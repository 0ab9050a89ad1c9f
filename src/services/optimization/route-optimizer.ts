import type { ReoptimizeRequest, RoutesRequest } from './optimization-requests.js';
import type { VrpProblem } from '../../solvers/vrp/model.js';
import { parallelSearch, type VrpTaskRunner } from './parallel-search.js';
import {
  describePlan,
  reoptimizeLayout,
  reoptimizeProblem,
  routesLayout,
  routesProblem,
  unreachableStops,
  type PlanLayout,
  type RoutePlan,
} from './route-plans.js';
import type { TravelMatrix, TravelMatrixSource } from './travel-matrix.js';

/**
 * Route optimization (spec part 3 §4.5): stops → travel-time matrix from the
 * routing engine → parallel seeded VRP searches on the worker threads → the
 * spec's plan. Minimises total travel time.
 */
export class RouteOptimizer {
  constructor(
    private readonly matrices: TravelMatrixSource,
    private readonly runner: VrpTaskRunner,
    /** Independent searches per request (one per worker thread). */
    private readonly searches: number,
  ) {}

  async optimize(request: RoutesRequest, signal?: AbortSignal): Promise<RoutePlan> {
    const matrix = await this.matrices.matrix(request.stops, request.costing, signal);
    return this.solve(routesProblem(request, checkSize(matrix, request.stops.length)), matrix, routesLayout(request), request.tier, signal);
  }

  /** Vehicles start where they are now; routes are open-ended; the positions are not echoed as stops. */
  async reoptimize(request: ReoptimizeRequest, signal?: AbortSignal): Promise<RoutePlan> {
    const points = [...request.vehiclePositions, ...request.remainingStops];
    const matrix = await this.matrices.matrix(points, request.costing, signal);
    return this.solve(reoptimizeProblem(request, checkSize(matrix, points.length)), matrix, reoptimizeLayout(request), request.tier, signal);
  }

  private async solve(problem: VrpProblem, matrix: TravelMatrix, layout: PlanLayout, tier: RoutesRequest['tier'], signal?: AbortSignal): Promise<RoutePlan> {
    const result = await parallelSearch(this.runner, problem, { tier, searches: this.searches, ...(signal ? { signal } : {}) });
    return describePlan(result, problem, matrix, layout, unreachableStops(problem, layout));
  }
}

function checkSize(matrix: TravelMatrix, points: number): TravelMatrix {
  const cells = points * points;
  if (matrix.size !== points || matrix.durationsSeconds.length !== cells || matrix.distancesMeters.length !== cells) {
    throw new Error(`travel matrix of size ${matrix.size} for ${points} points`);
  }
  return matrix;
}
