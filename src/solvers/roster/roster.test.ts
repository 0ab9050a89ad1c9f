import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RosterProblem, RosterResult } from './model.js';
import { solveRoster } from './solve.js';

/** Least peak load over every way to give each driver, each day, one shift or none; null when no way meets demand. */
function exhaustive(problem: RosterProblem): number | null {
  const { numDrivers: D, numDays: N, shiftsPerDay: S } = problem;
  const forbidden = new Set((problem.forbidden ?? []).map(([driver, day]) => `${driver}:${day}`));
  const choice = new Array<number>(D * N).fill(-1);
  let best: number | null = null;
  const visit = (cell: number): void => {
    if (cell === D * N) {
      const loads = new Array<number>(D).fill(0);
      const cover = new Map<string, number>();
      choice.forEach((shift, k) => {
        if (shift < 0) return;
        loads[Math.floor(k / N)]!++;
        cover.set(`${k % N}:${shift}`, (cover.get(`${k % N}:${shift}`) ?? 0) + 1);
      });
      for (let day = 0; day < N; day++) for (let shift = 0; shift < S; shift++) if ((cover.get(`${day}:${shift}`) ?? 0) < problem.demand[day]![shift]!) return;
      if (loads.some((load) => load > (problem.maxShiftsPerDriver ?? N) || N - load < (problem.minRestDays ?? 0))) return;
      const peak = Math.max(...loads);
      if (best === null || peak < best) best = peak;
      return;
    }
    const driver = Math.floor(cell / N);
    const day = cell % N;
    for (let shift = -1; shift < S; shift++) {
      if (shift >= 0 && forbidden.has(`${driver}:${day}`)) continue;
      choice[cell] = shift;
      visit(cell + 1);
    }
    choice[cell] = -1;
  };
  visit(0);
  return best;
}

function assertValid(problem: RosterProblem, result: RosterResult): void {
  const seen = new Set<string>();
  const cover = new Map<string, number>();
  const loads = new Array<number>(problem.numDrivers).fill(0);
  const forbidden = new Set((problem.forbidden ?? []).map(([driver, day]) => `${driver}:${day}`));
  for (const { driver, day, shift } of result.shifts) {
    expect(seen.has(`${driver}:${day}`)).toBe(false);
    expect(forbidden.has(`${driver}:${day}`)).toBe(false);
    seen.add(`${driver}:${day}`);
    loads[driver]!++;
    cover.set(`${day}:${shift}`, (cover.get(`${day}:${shift}`) ?? 0) + 1);
  }
  problem.demand.forEach((day, d) => day.forEach((need, s) => expect(cover.get(`${d}:${s}`) ?? 0).toBeGreaterThanOrEqual(need)));
  expect(result.perDriver).toEqual(loads);
  expect(result.peakLoad).toBe(Math.max(...loads));
}

const smallRoster = fc
  .record({
    numDrivers: fc.integer({ min: 1, max: 3 }),
    numDays: fc.integer({ min: 1, max: 3 }),
    shiftsPerDay: fc.integer({ min: 1, max: 2 }),
    maxShiftsPerDriver: fc.option(fc.integer({ min: 0, max: 3 })),
    minRestDays: fc.option(fc.integer({ min: 0, max: 2 })),
    seed: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 6, maxLength: 6 }),
    forbidden: fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })), { maxLength: 3 }),
  })
  .map(
    (draw): RosterProblem => ({
      numDrivers: draw.numDrivers,
      numDays: draw.numDays,
      shiftsPerDay: draw.shiftsPerDay,
      demand: Array.from({ length: draw.numDays }, (_, day) => Array.from({ length: draw.shiftsPerDay }, (_, shift) => draw.seed[day * 2 + shift]!)),
      ...(draw.maxShiftsPerDriver !== null ? { maxShiftsPerDriver: draw.maxShiftsPerDriver } : {}),
      ...(draw.minRestDays !== null ? { minRestDays: draw.minRestDays } : {}),
      forbidden: draw.forbidden.filter(([driver, day]) => driver < draw.numDrivers && day < draw.numDays),
    }),
  );

describe('rostering', () => {
  it('finds the least peak load, or proves there is none, exactly as exhaustive search', () => {
    fc.assert(
      fc.property(smallRoster, (problem) => {
        const expected = exhaustive(problem);
        const result = solveRoster(problem);
        expect(result.feasible).toBe(expected !== null);
        if (expected === null) {
          expect(result.unmet.length + result.reasons.length).toBeGreaterThan(0);
          return;
        }
        expect(result.peakLoad).toBe(expected);
        assertValid(problem, result);
      }),
      { numRuns: 300 },
    );
  });

  it('names the day that has more demand than drivers allowed to work it', () => {
    const result = solveRoster({ numDrivers: 3, numDays: 2, shiftsPerDay: 2, demand: [[1, 1], [2, 1]], forbidden: [[0, 1]] });
    expect(result.feasible).toBe(false);
    expect(result.reasons).toEqual(['day 1 needs 3 drivers but only 2 may work that day (one shift per driver per day)']);
    expect(result.unmet.reduce((sum, entry) => sum + entry.missing, 0)).toBe(1);
  });

  it('spreads a week of two-shift demand evenly', () => {
    const demand = Array.from({ length: 7 }, () => [3, 2]);
    const result = solveRoster({ numDrivers: 7, numDays: 7, shiftsPerDay: 2, demand, minRestDays: 2 });
    expect(result.peakLoad).toBe(5);
    // 35 shifts over 7 drivers: spread evenly, not piled on the first drivers.
    expect(result.perDriver).toEqual([5, 5, 5, 5, 5, 5, 5]);
    assertValid({ numDrivers: 7, numDays: 7, shiftsPerDay: 2, demand }, result);
  });
});
