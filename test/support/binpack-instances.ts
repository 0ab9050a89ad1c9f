/**
 * Generated bin-packing instances in the style of Falkenauer's uniform class
 * (items uniform integers in [20, 100], capacity 150), from a seeded generator
 * of its own, so tests and the bench get the same instances for a seed without
 * shipping data files. They are labelled "generated": they are not the
 * OR-Library u250/u500 instances. Also the Martello–Toth L2 lower bound, written
 * apart from the solver's (src/solvers/binpack/lower-bounds.ts) so the check
 * "bins used = L2" does not trust the code it checks.
 */

export const UNIFORM_CAPACITY = 150;

export interface GeneratedInstance {
  name: string;
  capacity: number;
  weights: number[];
}

/** SplitMix32-style generator (not the solver's mulberry32), uniform integers in [lo, hi]. */
function seeded(seed: number): (lo: number, hi: number) => number {
  let state = seed >>> 0;
  return (lo, hi) => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    return lo + Math.floor((z / 4294967296) * (hi - lo + 1));
  };
}

/** `items` weights uniform in [20, 100], capacity 150 (Falkenauer's "u" class recipe), for a seed. */
export function generatedUniform(items: number, seed: number): GeneratedInstance {
  const next = seeded(seed);
  return { name: `gen-u${items}-s${seed}`, capacity: UNIFORM_CAPACITY, weights: Array.from({ length: items }, () => next(20, 100)) };
}

/**
 * Martello–Toth L2 for integer weights: max over 0 ≤ K ≤ C/2 of
 * |J1| + |J2| + max(0, ⌈(Σ J3 − (|J2|·C − Σ J2)) / C⌉), with J1 = {w > C − K},
 * J2 = {C/2 < w ≤ C − K}, J3 = {K ≤ w ≤ C/2}. Every integer K is tried (no
 * shortcut over the distinct weights), so it shares nothing with the solver's.
 */
export function independentL2(weights: readonly number[], capacity: number): number {
  let best = 0;
  for (let k = 0; 2 * k <= capacity; k++) {
    let j1 = 0;
    let j2 = 0;
    let j2Sum = 0;
    let j3Sum = 0;
    for (const w of weights) {
      if (w > capacity - k) j1++;
      else if (2 * w > capacity) {
        j2++;
        j2Sum += w;
      } else if (w >= k) j3Sum += w;
    }
    best = Math.max(best, j1 + j2 + Math.max(0, Math.ceil((j3Sum - (j2 * capacity - j2Sum)) / capacity)));
  }
  return best;
}

/** Throws unless every item sits in one bin, no bin is over capacity and `binsUsed` bins hold items. */
export function verifyPacking(weights: readonly number[], capacity: number, assignment: readonly number[], binsUsed: number, name: string): void {
  if (assignment.length !== weights.length) throw new Error(`${name}: ${assignment.length} assignments for ${weights.length} items`);
  const loads = new Map<number, number>();
  weights.forEach((weight, item) => {
    const bin = assignment[item]!;
    if (!(Number.isInteger(bin) && bin >= 0)) throw new Error(`${name}: item ${item} not packed`);
    loads.set(bin, (loads.get(bin) ?? 0) + weight);
  });
  if (loads.size !== binsUsed) throw new Error(`${name}: ${loads.size} bins hold items, ${binsUsed} reported`);
  for (const [bin, load] of loads) if (load > capacity) throw new Error(`${name}: bin ${bin} holds ${load} > ${capacity}`);
}

/**
 * The bin-count lower bound certified by dual prices (one per distinct weight), checked here apart from the
 * solver: any prices p ≥ 0 give a bound, Σ over the items of p(w) / K, where K ≥ 1 is the most a single bin's
 * contents can be worth (found by a knapsack over integer weights, each weight at most as often as it occurs).
 * Dividing by K makes every bin worth at most 1, so n bins are worth at most n and every packing needs ≥ the sum.
 */
export function certifiedBound(weights: readonly number[], capacity: number, prices: ReadonlyMap<number, number>): number {
  const counts = new Map<number, number>();
  for (const w of weights) counts.set(w, (counts.get(w) ?? 0) + 1);
  // best[r]: most a set of items of total weight ≤ r is worth (bounded knapsack, one copy at a time).
  const best = new Array<number>(capacity + 1).fill(0);
  for (const [w, count] of counts) {
    const price = Math.max(0, prices.get(w) ?? 0);
    if (!Number.isInteger(w)) throw new Error('certifiedBound takes integer weights');
    for (let copy = 0; copy < Math.min(count, Math.floor(capacity / w)); copy++) {
      for (let r = capacity; r >= w; r--) best[r] = Math.max(best[r]!, best[r - w]! + price);
    }
  }
  const worth = Math.max(1, best[capacity]!);
  const total = weights.reduce((sum, w) => sum + Math.max(0, prices.get(w) ?? 0), 0);
  return Math.ceil(total / worth - 1e-6);
}
