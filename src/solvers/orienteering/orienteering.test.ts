import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solveOrienteering, travelOf, type OrienteeringProblem } from './orienteering.js';

/** Every ordered subset of the candidates: the most valuable tour that fits, the reference for small cases. */
function bruteForce(problem: OrienteeringProblem): number {
  let best = 0;
  const visit = (route: number[], used: Set<number>) => {
    if (route.length) {
      const time = travelOf(problem, route) + route.reduce((sum, node) => sum + problem.dwell[node]!, 0);
      if (time > problem.budget + 1e-9) return;
      best = Math.max(best, route.reduce((sum, node) => sum + problem.value[node]!, 0));
    }
    for (let node = 1; node < problem.size; node++) {
      if (used.has(node)) continue;
      used.add(node);
      visit([...route, node], used);
      used.delete(node);
    }
  };
  visit([], new Set());
  return best;
}

/**
 * Shortest-path closure (Floyd–Warshall): the engine's matrices are shortest travel times, so going through
 * another stop is never quicker than going direct; NaN stays where no path exists at all.
 */
function shortestPaths(size: number, travel: number[]): number[] {
  const d = travel.map((minutes) => (Number.isNaN(minutes) ? Infinity : minutes));
  for (let k = 0; k < size; k++) for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) d[i * size + j] = Math.min(d[i * size + j]!, d[i * size + k]! + d[k * size + j]!);
  return d.map((minutes) => (minutes === Infinity ? Number.NaN : minutes));
}

/** Random problems of up to 8 candidates: asymmetric travel minutes (some pairs without a path), values, dwell. */
const problems = fc.integer({ min: 2, max: 9 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    travel: fc
      .array(fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 60 }) }, { weight: 1, arbitrary: fc.constant(Number.NaN) }), { minLength: size * size, maxLength: size * size })
      .map((travel) => shortestPaths(size, travel)),
    value: fc.array(fc.double({ min: 0.5, max: 5, noNaN: true }), { minLength: size, maxLength: size }),
    dwell: fc.array(fc.integer({ min: 0, max: 45 }), { minLength: size, maxLength: size }),
    budget: fc.integer({ min: 30, max: 240 }),
    returnToStart: fc.boolean(),
  }),
);

const within = (problem: OrienteeringProblem, route: number[]) => {
  const time = (route.length ? travelOf(problem, route) : 0) + route.reduce((sum, node) => sum + problem.dwell[node]!, 0);
  expect(time).toBeLessThanOrEqual(problem.budget + 1e-9);
  expect(new Set(route).size).toBe(route.length);
  for (const node of route) expect(node >= 1 && node < problem.size).toBe(true);
};

describe('orienteering', () => {
  it('the local search is never over budget and finds the brute-force optimum on small random cases', () => {
    let optimal = 0;
    let runs = 0;
    fc.assert(
      fc.property(problems, (problem) => {
        const result = solveOrienteering(problem, { heuristicOnly: true, iterations: 200, seed: 7 });
        within(problem, result.route);
        const best = bruteForce(problem);
        expect(result.value).toBeLessThanOrEqual(best + 1e-9);
        // the heuristic may miss the optimum on a rare case, but never by much
        expect(result.value).toBeGreaterThanOrEqual(best * 0.85 - 1e-9);
        runs++;
        if (result.value >= best - 1e-9) optimal++;
      }),
      { numRuns: 300, seed: 42 },
    );
    // over many cases it is optimal nearly always
    expect(optimal / runs).toBeGreaterThanOrEqual(0.97);
  });

  it('the exact programme equals brute force and is never over budget', () => {
    fc.assert(
      fc.property(problems, (problem) => {
        const result = solveOrienteering(problem);
        expect(result.exact).toBe(true);
        within(problem, result.route);
        expect(result.value).toBeCloseTo(bruteForce(problem), 9);
        expect(result.totalMinutes).toBeCloseTo(result.travelMinutes + result.dwellMinutes, 9);
      }),
      { numRuns: 300 },
    );
  });

  it('reports candidates that cannot fit even alone and never visits them', () => {
    // start 0; candidate 1 is 10 min away, 2 is 100 min away, 3 has no path; budget 60
    const n = Number.NaN;
    const problem: OrienteeringProblem = {
      size: 4,
      travel: [0, 10, 100, n, 10, 0, 95, n, 100, 95, 0, n, n, n, n, 0],
      value: [0, 1, 5, 5],
      dwell: [0, 30, 30, 30],
      budget: 60,
      returnToStart: false,
    };
    for (const heuristicOnly of [false, true]) {
      const result = solveOrienteering(problem, { heuristicOnly });
      expect(result.route).toEqual([1]);
      expect(result.outOfReach).toEqual([2, 3]);
      expect(result.totalMinutes).toBe(40);
    }
  });

  it('keeps a 60-candidate tour within budget and matches a much longer search closely', () => {
    const size = 61;
    const rng = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const random = rng(3);
    const points = Array.from({ length: size }, () => [random() * 6, random() * 6]);
    const travel = new Float64Array(size * size);
    for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) travel[i * size + j] = Math.hypot(points[i]![0]! - points[j]![0]!, points[i]![1]! - points[j]![1]!) * 12;
    const problem: OrienteeringProblem = { size, travel, value: Array.from({ length: size }, () => 1 + random() * 4), dwell: Array.from({ length: size }, (_, i) => (i ? 30 : 0)), budget: 240, returnToStart: false };
    const quick = solveOrienteering(problem, { seed: 1 });
    within(problem, quick.route);
    const long = Math.max(...[1, 2, 3].map((seed) => solveOrienteering(problem, { seed, iterations: 3000 }).value));
    expect(quick.value).toBeGreaterThanOrEqual(long * 0.95);
  });
});
