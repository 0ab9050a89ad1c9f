import { binCompletion } from './bin-completion.js';
import type { Random } from '../random.js';

const EPSILON = 1e-9;
/** Subset-search nodes allowed when refilling one bin (each counts as work). */
const REFILL_NODES = 4_000;

export interface PoolSearchOutcome {
  /** Item lists of the `bins` bins holding every item, or null when the budget ran out first. */
  packing: number[][] | null;
  /** Work spent: subset-search nodes of the bin refills. */
  work: number;
}

/**
 * Dominance-driven pool search for a packing into `bins` identical bins
 * (Falkenauer's dominance criterion, applied as in the consistent-neighbourhood
 * search of Buljubašić & Vasquez and the minimum-bin-slack refill of Gupta & Ho):
 * the bins always fit; items that do not fit yet wait in a pool. Each bin in
 * turn is refilled with the fullest subset of its own items and the pool's
 * (ties: the one with the heaviest items, Σ weight² largest), kept when it fills
 * the bin more or, at the same fill, leaves the pool more, smaller items — big
 * items settle in bins, small ones stay in the pool, where they are easier to
 * place. Every accepted refill lowers (pool weight, −Σ bin weight²)
 * lexicographically, so the descent cannot cycle. When a sweep changes nothing,
 * a random bin among the emptier half is emptied into the pool (a kick). Work,
 * not time, bounds it: `maxWork` subset-search nodes.
 */
export function poolSearch(sizes: readonly number[], capacity: number, target: number, start: readonly (readonly number[])[], random: Random, maxWork: number): PoolSearchOutcome {
  const spare = Math.min(SPARE_BINS, target);
  const bins = target - spare;
  const weightOf = (bin: readonly number[]): number => bin.reduce((sum, item) => sum + sizes[item]!, 0);
  const squaresOf = (bin: readonly number[]): number => bin.reduce((sum, item) => sum + sizes[item]! * sizes[item]!, 0);
  const ordered = start.map((bin) => bin.slice()).sort((a, b) => weightOf(b) - weightOf(a));
  const packed: number[][] = ordered.slice(0, bins);
  while (packed.length < bins) packed.push([]);
  let pool: number[] = ordered.slice(bins).flat();
  const loads = packed.map(weightOf);
  const squares = packed.map(squaresOf);
  const refill = new Refill(sizes, capacity);
  let work = 0;
  let idle = 0;
  let b = 0;
  let poolWeight = weightOf(pool);
  for (;;) {
    if (poolWeight <= spare * capacity + EPSILON) {
      // Repair exactly: the pool and the items of the slackest bins into those bins plus the spare ones.
      const slackest = loads.map((_, k) => k).sort((x, y) => loads[x]! - loads[y]!).slice(0, REPAIR_BINS);
      const items = pool.concat(slackest.flatMap((k) => packed[k]!));
      const last = lastBins(items, spare + slackest.length, capacity, sizes);
      work += last.nodes;
      if (last.bins) {
        const kept = packed.filter((_, k) => !slackest.includes(k));
        return { packing: kept.concat(last.bins), work };
      }
    }
    if (work > maxWork || !bins) return { packing: null, work };
    const bin = packed[b]!;
    const candidates = bin.concat(pool);
    const chosen = refill.fullest(candidates, Math.min(REFILL_NODES, maxWork - work + 1));
    work += refill.nodes;
    const improves =
      chosen && (refill.bestSum > loads[b]! + EPSILON || (refill.bestSum > loads[b]! - EPSILON && refill.bestSquares > squares[b]! + EPSILON));
    if (improves) {
      const keep = new Set(chosen);
      packed[b] = chosen;
      loads[b] = refill.bestSum;
      squares[b] = refill.bestSquares;
      pool = candidates.filter((item) => !keep.has(item));
      poolWeight = weightOf(pool);
      idle = 0;
    } else if (++idle >= bins) {
      // A whole sweep without a change: kick random bins into the pool.
      for (let kick = 0; kick < KICKS; kick++) {
        const kicked = random.int(bins);
        pool = pool.concat(packed[kicked]!);
        poolWeight += loads[kicked]!;
        packed[kicked] = [];
        loads[kicked] = 0;
        squares[kicked] = 0;
      }
      idle = 0;
    }
    b = (b + 1) % bins;
  }
}

/** Bins emptied into the pool per kick. */
const KICKS = 1;
/** Bins kept out of the descent: the pool must end up fitting them (Buljubašić & Vasquez use two). */
const SPARE_BINS = 2;
/** Slackest bins whose items join the pool in the exact repair. */
const REPAIR_BINS = 4;

/** The pool packed into the `spare` bins by the exact search (small: a few bins' worth of items), or null. */
function lastBins(pool: readonly number[], spare: number, capacity: number, sizes: readonly number[]): { bins: number[][] | null; nodes: number } {
  if (!pool.length) return { bins: Array.from({ length: spare }, () => []), nodes: 0 };
  const outcome = binCompletion(pool.map((item) => sizes[item]!), capacity, spare, REFILL_NODES);
  return { bins: outcome.packing ? outcome.packing.map((bin) => bin.map((k) => pool[k]!)) : null, nodes: outcome.nodes };
}

/** Fullest subset of candidate items within the capacity (depth-first, equal weights deduplicated, bounded). */
class Refill {
  nodes = 0;
  bestSum = -1;
  bestSquares = 0;
  private best: number[] = [];
  private items: number[] = [];
  private suffix: number[] = [];
  private stack: number[] = [];
  private limit = 0;
  private room = 0;

  constructor(
    private readonly sizes: readonly number[],
    private readonly capacity: number,
  ) {}

  /** The chosen items (heaviest-first search, so among equal fills the heavier items come first), or null if none fits. */
  fullest(candidates: readonly number[], limit: number, capacity = this.capacity): number[] | null {
    this.room = capacity;
    const sizes = this.sizes;
    this.items = candidates.slice().sort((x, y) => sizes[y]! - sizes[x]!);
    this.suffix = new Array<number>(this.items.length + 1).fill(0);
    for (let k = this.items.length - 1; k >= 0; k--) this.suffix[k] = this.suffix[k + 1]! + sizes[this.items[k]!]!;
    this.nodes = 0;
    this.bestSum = -1;
    this.bestSquares = 0;
    this.best = [];
    this.stack = [];
    this.limit = limit;
    this.walk(0, 0, 0);
    return this.bestSum >= 0 ? this.best.slice() : null;
  }

  private walk(from: number, sum: number, squares: number): boolean {
    if (++this.nodes > this.limit) return true;
    if (sum > this.bestSum + EPSILON || (sum > this.bestSum - EPSILON && squares > this.bestSquares + EPSILON)) {
      this.bestSum = sum;
      this.bestSquares = squares;
      this.best = this.stack.slice();
      if (sum >= this.room - EPSILON) return true;
    }
    if (sum + this.suffix[from]! < this.bestSum - EPSILON) return false;
    const sizes = this.sizes;
    for (let j = from; j < this.items.length; j++) {
      const w = sizes[this.items[j]!]!;
      if (j > from && Math.abs(w - sizes[this.items[j - 1]!]!) < EPSILON) continue;
      if (sum + w > this.room + EPSILON) continue;
      this.stack.push(this.items[j]!);
      const stop = this.walk(j + 1, sum + w, squares + w * w);
      this.stack.pop();
      if (stop) return true;
    }
    return false;
  }
}
