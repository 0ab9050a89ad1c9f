import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solveBinPack } from './solve.js';

/** Fewest bins over every assignment of items (all weights ≥ 1) to bins; Infinity when none fits. */
function exhaustive(weights: number[], capacities: number[]): number {
  let best = Infinity;
  const loads = capacities.map(() => 0);
  const place = (item: number): void => {
    if (item === weights.length) {
      best = Math.min(best, loads.filter((load) => load > 0).length);
      return;
    }
    for (let bin = 0; bin < capacities.length; bin++) {
      if (loads[bin]! + weights[item]! > capacities[bin]!) continue;
      loads[bin]! += weights[item]!;
      place(item + 1);
      loads[bin]! -= weights[item]!;
    }
  };
  place(0);
  return best;
}

function assertValid(weights: number[], capacities: number[], assignment: number[], binsUsed: number): void {
  const loads = new Map<number, number>();
  weights.forEach((weight, item) => loads.set(assignment[item]!, (loads.get(assignment[item]!) ?? 0) + weight));
  expect(loads.size).toBe(binsUsed);
  for (const [bin, load] of loads) expect(load).toBeLessThanOrEqual(capacities[bin]!);
}

describe('bin packing', () => {
  it('matches exhaustive search on small identical-bin instances', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 20, max: 30 }), (weights, capacity) => {
        const capacities = weights.map(() => capacity);
        const result = solveBinPack({ itemWeights: weights, binCapacities: capacities });
        expect(result.feasible).toBe(true);
        expect(result.optimal).toBe(true);
        expect(result.binsUsed).toBe(exhaustive(weights, capacities));
        assertValid(weights, capacities, result.assignment, result.binsUsed);
      }),
      { numRuns: 150 },
    );
  });

  it('matches exhaustive search with bins of different sizes, including too few bins', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 7 }),
        fc.array(fc.integer({ min: 5, max: 30 }), { minLength: 1, maxLength: 4 }),
        (weights, capacities) => {
          const optimum = exhaustive(weights, capacities);
          const result = solveBinPack({ itemWeights: weights, binCapacities: capacities });
          expect(result.feasible).toBe(Number.isFinite(optimum));
          if (!result.feasible) return;
          expect(result.binsUsed).toBe(optimum);
          assertValid(weights, capacities, result.assignment, result.binsUsed);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reports items that fit no bin', () => {
    const result = solveBinPack({ itemWeights: [3, 12, 4, 15], binCapacities: [10, 10, 10] });
    expect(result).toMatchObject({ feasible: false, oversized: [1, 3], binsUsed: 0 });
  });

  it('proves a count the simple bound misses: three items over half a bin need three bins', () => {
    const result = solveBinPack({ itemWeights: [6, 6, 6, 1, 1], binCapacities: [10, 10, 10, 10] });
    expect(result).toMatchObject({ feasible: true, binsUsed: 3, optimal: true, lowerBound: 3 });
  });
});
