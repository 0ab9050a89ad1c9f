import { describe, expect, it } from 'vitest';
import { reoptimizeRequest, routesRequest } from './optimization-requests.js';
import { ok } from '../../solvers/task-result.js';
import { checkVrpResult } from '../../solvers/vrp/feasibility.js';
import type { VrpProblem, VrpResult } from '../../solvers/vrp/model.js';
import { solveVrp } from '../../solvers/vrp/solve.js';
import type { VrpTaskRunner } from './parallel-search.js';
import { RouteOptimizer } from './route-optimizer.js';
import type { TravelMatrixSource } from './travel-matrix.js';
import { computedMatrix } from '../../../test/support/computed-matrix.js';

/** Nasr City, Cairo: a depot and stops a few hundred metres apart. */
const DEPOT = { lat: 30.0561, lng: 31.3302 };
const STOPS = [
  { lat: 30.0626, lng: 31.3219 },
  { lat: 30.0589, lng: 31.3401 },
  { lat: 30.0512, lng: 31.3355 },
  { lat: 30.0667, lng: 31.3457 },
  { lat: 30.0483, lng: 31.3189 },
  { lat: 30.0701, lng: 31.3302 },
];

function harness(cut: number[] = []) {
  const solved: { problem: VrpProblem; result: VrpResult }[] = [];
  const costings: string[] = [];
  const matrices: TravelMatrixSource = {
    matrix: async (points, costing) => {
      costings.push(costing);
      return computedMatrix(points, cut);
    },
  };
  // In process, with an iteration budget: reproducible, and the checker sees every solver answer.
  const runner: VrpTaskRunner = {
    run: async (_name, input) => {
      const result = solveVrp(input.problem, { ...input.options, maxIterations: 300 });
      solved.push({ problem: input.problem, result });
      return ok(result);
    },
  };
  return { optimizer: new RouteOptimizer(matrices, runner, 2), solved, costings };
}

describe('route optimizer service', () => {
  it('turns stops into routes from and back to the depot, every stop once, in the spec shape', async () => {
    const { optimizer, solved, costings } = harness();
    const request = routesRequest.parse({ stops: [DEPOT, ...STOPS], numVehicles: 2, demands: [0, 3, 3, 3, 3, 3, 3], vehicleCapacities: [9, 9], costing: 'truck', tier: 'fast' });
    const plan = await optimizer.optimize(request);
    expect(costings).toEqual(['truck']);
    expect(plan).toMatchObject({ provider: 'svc-optimize', feasible: true, dropped: [] });
    expect(plan.routes).toHaveLength(2);
    for (const route of plan.routes) {
      expect(route.order[0]).toBe(0);
      expect(route.order.at(-1)).toBe(0);
      expect(route.stops).toEqual(route.order.map((stop) => request.stops[stop]));
      expect(route.order.length - 2).toBeLessThanOrEqual(3);
      expect(route.times).toHaveLength(route.order.length);
    }
    expect(plan.routes.flatMap((route) => route.order.slice(1, -1)).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(plan.objective.vehiclesUsed).toBe(2);
    expect(plan.objective.totalDurationSec).toBeCloseTo(plan.routes.reduce((sum, route) => sum + route.durationSec, 0), 0);
    for (const { problem, result } of solved) expect(checkVrpResult(problem, result).violations).toEqual([]);
  });

  it('honours time windows, service times and pickup-before-delivery, and leaves open-ended routes at their last stop', async () => {
    const { optimizer, solved } = harness();
    const timeWindows = [[0, 7200], [0, 7200], [0, 7200], [1800, 2400], [0, 7200], [0, 7200], [0, 600]];
    const request = routesRequest.parse({
      stops: [DEPOT, ...STOPS],
      numVehicles: 2,
      timeWindows,
      serviceTimes: [0, 120, 120, 120, 120, 120, 120],
      pickupsDeliveries: [[4, 1]],
      openEnded: true,
      tier: 'fast',
    });
    const plan = await optimizer.optimize(request);
    expect(plan.feasible).toBe(true);
    for (const route of plan.routes) {
      expect(route.order.at(-1)).not.toBe(0);
      route.order.forEach((stop, k) => {
        if (k === 0) return;
        expect(route.times[k]).toBeGreaterThanOrEqual(timeWindows[stop]![0]!);
        expect(route.times[k]).toBeLessThanOrEqual(timeWindows[stop]![1]!);
      });
    }
    const withPair = plan.routes.find((route) => route.order.includes(4))!;
    expect(withPair.order.indexOf(4)).toBeLessThan(withPair.order.indexOf(1));
    for (const { problem, result } of solved) expect(checkVrpResult(problem, result).violations).toEqual([]);
  });

  it('re-plans from the vehicles’ positions without echoing them', async () => {
    const { optimizer } = harness();
    const positions = [STOPS[0]!, STOPS[5]!];
    const remaining = STOPS.slice(1, 5);
    const plan = await optimizer.reoptimize(reoptimizeRequest.parse({ vehiclePositions: positions, remainingStops: remaining, tier: 'fast' }));
    expect(plan.feasible).toBe(true);
    expect(plan.routes.flatMap((route) => route.order).sort()).toEqual([0, 1, 2, 3]);
    for (const route of plan.routes) {
      expect([0, 1]).toContain(route.vehicle);
      expect(route.stops).toEqual(route.order.map((stop) => remaining[stop]));
      expect(route.stops).not.toContainEqual(positions[route.vehicle]);
    }
  });

  it('names unreachable and oversized stops when the plan is infeasible, and drops them when allowed', async () => {
    const { optimizer } = harness([3]);
    const request = { stops: [DEPOT, ...STOPS.slice(0, 4)], demands: [0, 1, 50, 1, 1], vehicleCapacities: [10], tier: 'fast' };
    const plan = await optimizer.optimize(routesRequest.parse(request));
    expect(plan.feasible).toBe(false);
    expect(plan.reasons).toEqual([
      { code: 'unreachable', stops: [3], message: 'no road path between these stops and the vehicles' },
      { code: 'demand_exceeds_capacity', stops: [2], message: 'demand larger than every vehicle capacity' },
    ]);
    const dropping = await optimizer.optimize(routesRequest.parse({ ...request, dropPenalty: 100_000 }));
    expect(dropping).toMatchObject({ feasible: true, dropped: [2, 3] });
    expect(dropping.reasons).toBeUndefined();
    expect(dropping.routes.flatMap((route) => route.order.slice(1, -1)).sort()).toEqual([1, 4]);
  });
});
