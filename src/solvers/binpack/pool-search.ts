import type { Random } from '../random.js';

const EPSILON = 1e-9;

/**
 * Falkenauer's dominance-driven improvement, used to find a packing into
 * `bins` identical bins: the items of the emptiest bins beyond the target form
 * a pool; each bin repeatedly trades up to two of its items for up to two pool
 * items whenever that fills it more (big items settle in bins, small ones in
 * the pool, where they are easier to place). When no trade helps, a random bin
 * is emptied into the pool (a kick). Returns the bins' item lists, or null
 * within the iteration budget.
 */
export function poolSearch(sizes: readonly number[], capacity: number, bins: number, start: number[][], random: Random, passes: number): number[][] | null {
  const load = (bin: readonly number[]): number => bin.reduce((sum, item) => sum + sizes[item]!, 0);
  const packed = start.map((bin) => bin.slice()).sort((a, b) => load(b) - load(a));
  const pool: number[] = packed.splice(bins).flat();
  while (packed.length < bins) packed.push([]);
  const loads = packed.map(load);
  for (let pass = 0; pass < passes; pass++) {
    if (!pool.length) return packed;
    let improved = false;
    for (let b = 0; b < bins; b++) {
      if (tradeUp(sizes, capacity, packed[b]!, loads, b, pool)) improved = true;
      if (!pool.length) return packed;
    }
    if (!improved) {
      const b = random.int(bins);
      pool.push(...packed[b]!);
      packed[b] = [];
      loads[b] = 0;
      pool.sort((x, y) => sizes[y]! - sizes[x]!);
    }
  }
  return null;
}

/** The best trade of ≤ 2 bin items for ≤ 2 pool items that fills bin b more; applied in place. */
function tradeUp(sizes: readonly number[], capacity: number, bin: number[], loads: number[], b: number, pool: number[]): boolean {
  const room = capacity - loads[b]!;
  const outs: number[][] = [[]];
  for (let i = 0; i < bin.length; i++) {
    outs.push([i]);
    for (let j = i + 1; j < bin.length; j++) outs.push([i, j]);
  }
  const ins: number[][] = [];
  for (let i = 0; i < pool.length; i++) {
    ins.push([i]);
    for (let j = i + 1; j < pool.length; j++) ins.push([i, j]);
  }
  let bestGain = EPSILON;
  let bestOut: number[] | undefined;
  let bestIn: number[] | undefined;
  for (const out of outs) {
    const freed = out.reduce((sum, k) => sum + sizes[bin[k]!]!, 0);
    for (const taken of ins) {
      const added = taken.reduce((sum, k) => sum + sizes[pool[k]!]!, 0);
      const gain = added - freed;
      if (gain > bestGain && gain <= room + EPSILON) {
        bestGain = gain;
        bestOut = out;
        bestIn = taken;
      }
    }
  }
  if (!bestOut || !bestIn) return false;
  const leaving = bestOut.map((k) => bin[k]!);
  const arriving = bestIn.map((k) => pool[k]!);
  for (const k of [...bestOut].sort((x, y) => y - x)) bin.splice(k, 1);
  for (const k of [...bestIn].sort((x, y) => y - x)) pool.splice(k, 1);
  bin.push(...arriving);
  pool.push(...leaving);
  pool.sort((x, y) => sizes[y]! - sizes[x]!);
  loads[b] = loads[b]! + bestGain;
  return true;
}
