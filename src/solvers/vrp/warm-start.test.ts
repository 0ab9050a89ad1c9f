import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkVrpResult } from './feasibility.js';
import type { VrpProblem } from './model.js';
import { solveVrp } from './solve.js';
import { arbitraryProblem } from '../../../test/support/vrp/random-problem.js';
import { lineMatrix } from '../../../test/support/vrp/line-matrix.js';

const line = lineMatrix;

describe('VRP warm start', () => {
  it('answers only valid plans whatever initial routes it is given (unknown jobs, repeats, broken windows and pairs)', () => {
    const garbageRoutes = fc.array(
      fc.record({ vehicle: fc.integer({ min: -1, max: 4 }), jobs: fc.array(fc.integer({ min: -2, max: 14 }), { maxLength: 16 }) }),
      { maxLength: 5 },
    );
    fc.assert(
      fc.property(arbitraryProblem({ maxJobs: 12, maxVehicles: 3 }), garbageRoutes, fc.integer({ min: 1, max: 1000 }), (problem, initialRoutes, seed) => {
        const result = solveVrp(problem, { seed, timeLimitMs: 10_000, maxIterations: 60, initialRoutes });
        expect(checkVrpResult(problem, result).violations).toEqual([]);
        if (problem.dropPenalty === undefined) expect(result.feasible).toBe(result.dropped.length === 0);
      }),
      { numRuns: 80 },
    );
  });

  it('starting from a finished plan with no search budget, never answers a worse plan', () => {
    fc.assert(
      fc.property(arbitraryProblem({ maxJobs: 12, maxVehicles: 3 }), (problem) => {
        const earlier = solveVrp(problem, { seed: 5, timeLimitMs: 10_000, maxIterations: 300 });
        const initialRoutes = earlier.routes.map((route) => ({ vehicle: route.vehicle, jobs: route.jobs }));
        const warm = solveVrp(problem, { seed: 9, timeLimitMs: 10_000, maxIterations: 0, initialRoutes });
        expect(checkVrpResult(problem, warm).violations).toEqual([]);
        expect(warm.cost).toBeLessThanOrEqual(earlier.cost + 1e-6);
      }),
      { numRuns: 60 },
    );
  });

  it('keeps the given routes and inserts a new stop where it is cheapest', () => {
    // Two vehicles at 0 and 100 with stops near each; a new stop at 95 belongs to the second.
    const points = [0, 100, 10, 20, 90, 80, 95];
    const problem: VrpProblem = {
      size: points.length,
      durations: line(points),
      costs: line(points),
      jobs: [2, 3, 4, 5, 6].map((location) => ({ location, demand: 0, serviceSec: 0 })),
      vehicles: [
        { start: 0, end: null, capacity: Infinity },
        { start: 1, end: null, capacity: Infinity },
      ],
    };
    const result = solveVrp(problem, {
      seed: 1,
      timeLimitMs: 10_000,
      maxIterations: 0,
      initialRoutes: [
        { vehicle: 0, jobs: [0, 1] },
        { vehicle: 1, jobs: [2, 3] },
      ],
    });
    expect(result.dropped).toEqual([]);
    const byVehicle = Object.fromEntries(result.routes.map((route) => [route.vehicle, route.jobs]));
    expect(byVehicle[0]).toEqual([0, 1]);
    expect(byVehicle[1]).toEqual([4, 2, 3]);
  });

  it('re-inserts a stop whose place in the given route breaks its time window', () => {
    const points = [0, 10, 20];
    const problem: VrpProblem = {
      size: 3,
      durations: line(points),
      costs: line(points),
      jobs: [
        { location: 1, demand: 0, serviceSec: 0, window: [0, 10] },
        { location: 2, demand: 0, serviceSec: 0 },
      ],
      vehicles: [{ start: 0, end: null, capacity: Infinity }],
    };
    // Given far stop first: the near one would be reached at 30, after its window closes.
    const result = solveVrp(problem, { seed: 1, timeLimitMs: 10_000, maxIterations: 0, initialRoutes: [{ vehicle: 0, jobs: [1, 0] }] });
    expect(result.feasible).toBe(true);
    expect(result.routes.map((route) => route.jobs)).toEqual([[0, 1]]);
    expect(checkVrpResult(problem, result).violations).toEqual([]);
  });
});
