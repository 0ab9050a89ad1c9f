import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderStops } from './stop-order.js';

/** Every order of the middle stops, first and last fixed: the reference for small cases. */
function bruteForce(cost: number[], n: number): number {
  const middle = [...Array(n - 2).keys()].map((index) => index + 1);
  let best = Infinity;
  const permute = (prefix: number[], left: number[]) => {
    if (!left.length) {
      const order = [0, ...prefix, n - 1];
      let total = 0;
      for (let index = 1; index < order.length; index++) total += cost[order[index - 1]! * n + order[index]!]!;
      best = Math.min(best, total);
      return;
    }
    left.forEach((stop, index) => permute([...prefix, stop], [...left.slice(0, index), ...left.slice(index + 1)]));
  };
  permute([], middle);
  return best;
}

const matrixOf = (n: number) => fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: n * n, maxLength: n * n });

describe('stop order', () => {
  it('keeps the first and last stop and visits every stop once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 20 }).chain((n) => fc.tuple(fc.constant(n), matrixOf(n))), ([n, cost]) => {
        const { order } = orderStops(cost, n);
        expect(order[0]).toBe(0);
        expect(order[order.length - 1]).toBe(n - 1);
        expect([...order].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
      }),
      { numRuns: 200 },
    );
  });

  it('is optimal up to the exact limit: equal to brute force on asymmetric matrices', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 8 }).chain((n) => fc.tuple(fc.constant(n), matrixOf(n))), ([n, cost]) => {
        const result = orderStops(cost, n);
        expect(result.exact).toBe(true);
        expect(result.cost).toBe(bruteForce(cost, n));
      }),
      { numRuns: 150 },
    );
  });

  it('improves on the given order above the exact limit (2-opt and or-opt)', () => {
    const n = 30;
    const points = [...Array(n).keys()].map((index) => [Math.sin(index * 7.3) * 100, Math.cos(index * 3.1) * 100] as const);
    const cost = points.flatMap(([x1, y1]) => points.map(([x2, y2]) => Math.hypot(x2 - x1, y2 - y1)));
    const result = orderStops(cost, n);
    expect(result.exact).toBe(false);
    const given = [...Array(n).keys()].slice(1).reduce((sum, stop) => sum + cost[(stop - 1) * n + stop]!, 0);
    expect(result.cost).toBeLessThan(given);
  });
});
