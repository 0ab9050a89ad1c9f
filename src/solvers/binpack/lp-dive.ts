import { lpBound, type LpBoundResult } from './column-generation.js';

/**
 * A packing read off the column-generation LP (residual rounding with diving,
 * Belov & Scheithauer's heuristic): take every pattern as many times as its LP
 * value rounds down, or — when none reaches 1 — the pattern with the largest
 * value once, then solve the LP again over the items left, until every item is
 * in a bin. `bins`: the packing when it needs at most `target` bins; `packed`:
 * the packing however many bins it needs (a start for the local search). `first`: the LP already solved for all the
 * items, if any (the first step then starts from it). Work: the LP work of
 * every step.
 */
export function lpDive(
  sizes: readonly number[],
  demands: readonly number[],
  capacity: number,
  target: number,
  maxWork: number,
  first?: LpBoundResult,
): { bins: number[][] | null; packed: number[][] | null; work: number } {
  const m = sizes.length;
  const residual = demands.slice();
  const taken: number[][] = [];
  let work = 0;
  let start: number[][] = [];
  while (residual.some((d) => d > 0)) {
    const active = residual.flatMap((d, i) => (d > 0 ? [i] : []));
    const lp = first && !taken.length ? first : lpBound(
      active.map((i) => sizes[i]!),
      active.map((i) => residual[i]!),
      capacity,
      { maxWork: Math.max(1, maxWork - work), start: start.map((counts) => active.map((i) => Math.min(counts[i]!, residual[i]!))) },
    );
    if (lp !== first) work += lp.work;
    if (work >= maxWork) return { bins: null, packed: null, work };
    const patterns = lp.patterns
      .map((pattern) => ({ counts: expand(pattern.counts, active, m), value: pattern.value }))
      .sort((a, b) => b.value - a.value);
    let progress = false;
    for (const pattern of patterns) {
      for (let copy = 0; copy < Math.floor(pattern.value + 1e-9); copy++) progress = take(pattern.counts, residual, taken) || progress;
    }
    if (!progress && patterns.length) take(patterns[0]!.counts, residual, taken);
    else if (!patterns.length) return { bins: null, packed: null, work };
    start = patterns.map((pattern) => pattern.counts);
  }
  return { bins: taken.length <= target ? taken : null, packed: taken, work };
}

function expand(counts: readonly number[], active: readonly number[], m: number): number[] {
  const full = new Array<number>(m).fill(0);
  active.forEach((i, k) => (full[i] = counts[k]!));
  return full;
}

/** One bin with the pattern's items that are still to be packed; false when none is. */
function take(counts: readonly number[], residual: number[], taken: number[][]): boolean {
  const bin = counts.map((count, i) => Math.min(count, residual[i]!));
  if (!bin.some((count) => count > 0)) return false;
  bin.forEach((count, i) => (residual[i]! -= count));
  taken.push(bin);
  return true;
}
