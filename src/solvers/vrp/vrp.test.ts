import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkVrpResult } from './feasibility.js';
import type { VrpProblem } from './model.js';
import { solveVrp, stagnationLimitFor } from './solve.js';
import { bruteForceOptimum } from '../../../test/support/vrp/brute-force.js';
import { arbitraryProblem } from '../../../test/support/vrp/random-problem.js';
import { lineMatrix } from '../../../test/support/vrp/line-matrix.js';

const search = { seed: 7, timeLimitMs: 10_000, maxIterations: 400 };

const line = lineMatrix;

describe('VRP solver', () => {
  it('returns only solutions the checker accepts, and feasible exactly when nothing mandatory is left out', () => {
    fc.assert(
      fc.property(arbitraryProblem({ maxJobs: 12, maxVehicles: 3 }), fc.integer({ min: 1, max: 1000 }), (problem, seed) => {
        const result = solveVrp(problem, { seed, timeLimitMs: 10_000, maxIterations: 150 });
        const report = checkVrpResult(problem, result);
        expect(report.violations).toEqual([]);
        if (problem.dropPenalty !== undefined) expect(result.feasible).toBe(true);
        else expect(result.feasible).toBe(result.dropped.length === 0);
        if (result.feasible) expect(result.cost).toBeCloseTo(report.cost, 6);
      }),
      { numRuns: 60 },
    );
  });

  it('finds the exhaustive optimum of tiny instances with every constraint kind', () => {
    fc.assert(
      fc.property(arbitraryProblem({ maxJobs: 5, maxVehicles: 2 }), (problem) => {
        const optimum = bruteForceOptimum(problem);
        const result = solveVrp(problem, search);
        if (!Number.isFinite(optimum)) {
          expect(result.feasible).toBe(false);
          return;
        }
        expect(result.feasible).toBe(true);
        expect(checkVrpResult(problem, result).cost).toBeCloseTo(optimum, 6);
      }),
      { numRuns: 40 },
    );
  });

  it('answers infeasible input with reasons instead of throwing', () => {
    const problem: VrpProblem = {
      size: 4,
      durations: line([0, 10, 20, 500]),
      costs: line([0, 10, 20, 500]),
      jobs: [
        { location: 1, demand: 50, serviceSec: 0 },
        { location: 2, demand: 1, serviceSec: 0, window: [0, 100] },
        { location: 3, demand: 1, serviceSec: 0, window: [0, 100] },
      ],
      vehicles: [{ start: 0, end: 0, capacity: 10 }],
    };
    const result = solveVrp(problem, search);
    expect(result.feasible).toBe(false);
    expect(result.dropped).toEqual([0, 2]);
    expect(result.reasons).toEqual([
      { code: 'demand_exceeds_capacity', jobs: [0] },
      { code: 'time_window_unreachable', jobs: [2] },
    ]);
    expect(checkVrpResult(problem, result).violations).toEqual([]);
  });

  it('drops a stop only when serving it costs more than its penalty', () => {
    const problem: VrpProblem = {
      size: 3,
      durations: line([0, 10, 400]),
      costs: line([0, 10, 400]),
      jobs: [
        { location: 1, demand: 0, serviceSec: 0 },
        { location: 2, demand: 0, serviceSec: 0 },
      ],
      vehicles: [{ start: 0, end: 0, capacity: 1 }],
      dropPenalty: 100,
    };
    const result = solveVrp(problem, search);
    expect(result.dropped).toEqual([1]);
    expect(result.routes.map((route) => route.jobs)).toEqual([[0]]);
    expect(result.cost).toBe(120);
  });

  it('keeps a pickup before its delivery on the same vehicle', () => {
    // On a line the cheapest tour would visit 2 before 1; the pair (2 → 1) forbids delivering first.
    const problem: VrpProblem = {
      size: 3,
      durations: line([0, 10, 20]),
      costs: line([0, 10, 20]),
      jobs: [
        { location: 1, demand: 0, serviceSec: 0 },
        { location: 2, demand: 5, serviceSec: 0 },
      ],
      vehicles: [
        { start: 0, end: null, capacity: 5 },
        { start: 0, end: null, capacity: 5 },
      ],
      pairs: [[1, 0]],
    };
    const result = solveVrp(problem, search);
    expect(result.routes.map((route) => route.jobs)).toEqual([[1, 0]]);
    expect(result.cost).toBe(30);
  });

  it('is reproducible for a seed and an iteration budget', () => {
    const problem = fc.sample(arbitraryProblem({ maxJobs: 12, maxVehicles: 3 }), { seed: 42, numRuns: 1 })[0]!;
    const first = solveVrp(problem, { seed: 3, timeLimitMs: 60_000, maxIterations: 200 });
    const second = solveVrp(problem, { seed: 3, timeLimitMs: 60_000, maxIterations: 200 });
    expect(second).toEqual(first);
  });

  it('ends a small plan once its best stops improving, at the exhaustive optimum, long before a minute of budget', () => {
    fc.assert(
      fc.property(arbitraryProblem({ maxJobs: 6, maxVehicles: 2 }), fc.integer({ min: 1, max: 1000 }), (problem, seed) => {
        // no iteration cap: only the time budget (a minute) or the stagnation limit can end this search
        const result = solveVrp(problem, { seed, timeLimitMs: 60_000 });
        const optimum = bruteForceOptimum(problem);
        if (Number.isFinite(optimum)) expect(checkVrpResult(problem, result).cost).toBeCloseTo(optimum, 6);
        else expect(result.feasible).toBe(false);
        // the last new best came at most at iteration (total - limit): the stagnation limit ended the run
        expect(result.iterations).toBeGreaterThanOrEqual(stagnationLimitFor(problem.jobs.length));
        expect(result.iterations).toBeLessThan(2 * stagnationLimitFor(problem.jobs.length) + 1_000);
      }),
      { numRuns: 15 },
    );
  });
});
