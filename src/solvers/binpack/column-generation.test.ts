import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { certifiedBound, generatedUniform, independentL2 } from '../../../test/support/binpack-instances.js';
import { lpBound, sizeClasses, type LpBoundResult } from './column-generation.js';
import { lpDive } from './lp-dive.js';

/** Fewest bins for the items, by trying every bin for every item (tiny instances only). */
function optimum(weights: readonly number[], capacity: number): number {
  let best = weights.length;
  const loads: number[] = [];
  const place = (item: number): void => {
    if (loads.length >= best) return;
    if (item === weights.length) {
      best = loads.length;
      return;
    }
    const w = weights[item]!;
    for (let bin = 0; bin < loads.length; bin++) {
      if (loads[bin]! + w > capacity + 1e-9) continue;
      loads[bin]! += w;
      place(item + 1);
      loads[bin]! -= w;
    }
    loads.push(w);
    place(item + 1);
    loads.pop();
  };
  place(0);
  return best;
}

/** The most one bin can be worth at the certificate's prices, by listing every pattern (small instances). */
function mostOneBinIsWorth(lp: LpBoundResult, capacity: number): number {
  let most = 0;
  const walk = (i: number, room: number, worth: number): void => {
    if (i === lp.sizes.length) {
      most = Math.max(most, worth);
      return;
    }
    for (let count = 0; count <= lp.demands[i]! && count * lp.sizes[i]! <= room + 1e-9; count++) walk(i + 1, room - count * lp.sizes[i]!, worth + count * lp.prices[i]!);
  };
  walk(0, capacity, 0);
  return most;
}

function solveLp(weights: readonly number[], capacity: number, maxWork = 40_000_000): LpBoundResult {
  const { sizes, demands } = sizeClasses(weights);
  return lpBound(sizes, demands, capacity, { maxWork });
}

function pricesBySize(lp: LpBoundResult): Map<number, number> {
  return new Map(lp.sizes.map((size, i) => [size, lp.prices[i]!]));
}

describe('column-generation LP bound', () => {
  it('proves 102 bins for gen-u250-s86, where L2 says 101 (LP 101.02, certificate checked apart)', () => {
    const instance = generatedUniform(250, 86);
    const lp = solveLp(instance.weights, instance.capacity);
    expect(independentL2(instance.weights, instance.capacity)).toBe(101);
    // The LP optimum is 101.0204 (arc-flow, solved apart); the search stops once its bound rounds up to 102.
    expect(lp.bound).toBeGreaterThan(101);
    expect(lp.bound).toBeLessThanOrEqual(101.0205);
    expect(lp.bins).toBe(102);
    expect(certifiedBound(instance.weights, instance.capacity, pricesBySize(lp))).toBe(102);
  });

  it('never exceeds the optimum on small integer instances, and its prices certify it', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 9 }), fc.integer({ min: 30, max: 45 }), (weights, capacity) => {
        const lp = solveLp(weights, capacity);
        const certified = certifiedBound(weights, capacity, pricesBySize(lp));
        expect(lp.bins).toBeLessThanOrEqual(certified);
        expect(certified).toBeLessThanOrEqual(optimum(weights, capacity));
        expect(lp.bound).toBeLessThanOrEqual(lp.value + 1e-6);
      }),
      { numRuns: 150 },
    );
  });

  it('prices fractional sizes by branch and bound, with a certificate every pattern respects', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 5, max: 95 }), { minLength: 1, maxLength: 8 }), (hundredths) => {
        const weights = hundredths.map((h) => h / 100 + 0.003);
        const lp = solveLp(weights, 1);
        expect(mostOneBinIsWorth(lp, 1)).toBeLessThanOrEqual(1 + 1e-9);
        const sum = lp.prices.reduce((total, price, i) => total + price * lp.demands[i]!, 0);
        expect(sum).toBeCloseTo(lp.bound, 9);
        expect(lp.bins).toBeLessThanOrEqual(optimum(weights, 1));
      }),
      { numRuns: 100 },
    );
  });

  it('stops at its work budget with a weaker bound that is still valid, the same on every run', () => {
    const instance = generatedUniform(250, 86);
    const short = solveLp(instance.weights, instance.capacity, 200_000);
    expect(short.complete).toBe(false);
    expect(short.work).toBeLessThanOrEqual(200_000 + 20_000);
    expect(short.bins).toBeLessThanOrEqual(102);
    expect(certifiedBound(instance.weights, instance.capacity, pricesBySize(short))).toBeGreaterThanOrEqual(short.bins);
    expect(solveLp(instance.weights, instance.capacity, 200_000)).toEqual(short);
  });

  it('dives to a packing at the bound on gen-u250-s57, where the pool search alone stalled', () => {
    const instance = generatedUniform(250, 57);
    const { sizes, demands } = sizeClasses(instance.weights);
    const target = independentL2(instance.weights, instance.capacity);
    const dive = lpDive(sizes, demands, instance.capacity, target, 60_000_000);
    expect(dive.bins).not.toBeNull();
    expect(dive.bins!.length).toBe(target);
    for (const bin of dive.bins!) expect(bin.reduce((load, count, i) => load + count * sizes[i]!, 0)).toBeLessThanOrEqual(instance.capacity);
    expect(sizes.map((_, i) => dive.bins!.reduce((total, bin) => total + bin[i]!, 0))).toEqual(demands);
  });
});
