import { describe, expect, it } from 'vitest';
import type { FleetProblem } from '../../actors/fleet/fleet-actor.js';
import { ok } from '../../solvers/task-result.js';
import { checkVrpResult } from '../../solvers/vrp/feasibility.js';
import type { VrpProblem, VrpResult, VrpSearchOptions } from '../../solvers/vrp/model.js';
import { solveVrp } from '../../solvers/vrp/solve.js';
import { FleetPlanner } from './fleet-planner.js';
import type { VrpTaskRunner } from './parallel-search.js';
import { computedMatrix } from '../../../test/support/computed-matrix.js';

/** Nasr City, Cairo. */
const stop = (id: string, lat: number, lng: number, demand = 0) => ({ id, lat, lng, demand, serviceSeconds: 120 });
const STOPS = [stop('north', 30.0701, 31.3302), stop('east', 30.0589, 31.3401), stop('south', 30.0483, 31.3189), stop('far-east', 30.0667, 31.3457)];

function planner() {
  const runs: { problem: VrpProblem; options: VrpSearchOptions; result: VrpResult }[] = [];
  const runner: VrpTaskRunner = {
    run: async (_name, input) => {
      const result = solveVrp(input.problem, { ...input.options, maxIterations: 200 });
      runs.push({ problem: input.problem, options: input.options, result });
      return ok(result);
    },
  };
  return { planner: new FleetPlanner({ matrix: async (points) => computedMatrix(points) }, runner, 2), runs };
}

describe('fleet planner', () => {
  it('plans from where the vehicles are, by stop id, warm-started from the current plan', async () => {
    const { planner: fleet, runs } = planner();
    const problem: FleetProblem = {
      costing: 'auto',
      vehicles: [
        { id: 'van-a', start: { lat: 30.0626, lng: 31.3219 }, end: null, capacity: null },
        { id: 'van-b', start: { lat: 30.0512, lng: 31.3355 }, end: { lat: 30.0561, lng: 31.3302 }, capacity: 5 },
      ],
      stops: STOPS,
      warmStart: [
        { vehicleId: 'van-a', stopIds: ['north', 'gone'] },
        { vehicleId: 'van-b', stopIds: ['east', 'far-east'] },
        { vehicleId: 'retired-van', stopIds: ['south'] },
      ],
    };
    const solution = await fleet.plan(problem);
    expect(solution.feasible).toBe(true);
    expect(solution.routes.map((route) => route.vehicleId)).toEqual(['van-a', 'van-b']);
    expect(solution.routes.flatMap((route) => route.stopIds).sort()).toEqual(['east', 'far-east', 'north', 'south']);
    for (const route of solution.routes) expect(route.arrivalSeconds).toHaveLength(route.stopIds.length);
    // every search started from the current plan, by solver index; unknown stops and vehicles left out
    expect(runs.map((run) => run.options.initialRoutes)).toEqual(runs.map(() => [{ vehicle: 0, jobs: [0] }, { vehicle: 1, jobs: [1, 3] }]));
    const vrp = runs[0]!.problem;
    expect(vrp.vehicles).toEqual([
      { start: 4, end: null, capacity: Infinity },
      { start: 5, end: 6, capacity: 5 },
    ]);
    for (const run of runs) expect(checkVrpResult(run.problem, run.result).violations).toEqual([]);
  });

  it('names stops no vehicle can take, and answers empty routes when nothing is pending', async () => {
    const { planner: fleet } = planner();
    const vehicles = [{ id: 'small', start: { lat: 30.0626, lng: 31.3219 }, end: null, capacity: 3 }];
    const solution = await fleet.plan({ costing: 'auto', vehicles, stops: [stop('heavy', 30.0589, 31.3401, 10), stop('light', 30.0701, 31.3302, 1)], warmStart: [] });
    expect(solution).toMatchObject({ feasible: false, unassignedStopIds: ['heavy'], reasons: [{ code: 'demand_exceeds_capacity', stopIds: ['heavy'] }] });
    expect(solution.routes[0]!.stopIds).toEqual(['light']);
    expect(await fleet.plan({ costing: 'auto', vehicles, stops: [], warmStart: [] })).toMatchObject({ feasible: true, routes: [{ vehicleId: 'small', stopIds: [] }] });
  });
});
