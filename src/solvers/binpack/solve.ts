import { binCompletion, type SearchOutcome } from './bin-completion.js';
import { Random } from '../random.js';
import { poolSearch, type PoolSearchOutcome } from './pool-search.js';
import { bestFitDecreasing } from './heuristics.js';
import { itemSearch } from './item-search.js';
import { lpBound, sizeClasses, type LpBoundResult } from './column-generation.js';
import { lpDive } from './lp-dive.js';
import { heterogeneousBound, martelloTothL2 } from './lower-bounds.js';
import type { BinPackOptions, BinPackProblem, BinPackResult } from './model.js';

const DEFAULT_NODE_LIMIT = 2_000_000;

/**
 * Fewest bins holding every item. Lower bound (Martello–Toth L2 for identical
 * bins; capacity and large-item counts otherwise), upper bound by best-fit
 * decreasing, then each bin count from the bound up. Identical bins: a short
 * bin completion, a short pool search, then the column-generation LP bound
 * (once: a count below its ceiling is proven too few and skipped), a dive on
 * the LP solution, more pool-search runs from the dive's packing, and — while
 * every smaller count is proven too few — Korf's bin completion, whose
 * exhaustion proves the count too few; once a search gives up, larger counts
 * get the heuristics only and the answer is marked unproven. Bins of different
 * sizes: item search (k bins are best taken as the k largest). Effort is
 * bounded by work (search nodes, subset-search nodes, simplex operations and
 * knapsack cells), never by the clock, so an answer does not depend on load.
 */
export function solveBinPack(problem: BinPackProblem, options: BinPackOptions = {}): BinPackResult {
  const nodeLimit = options.nodeLimit ?? DEFAULT_NODE_LIMIT;
  const weights = problem.itemWeights;
  const largest = Math.max(...problem.binCapacities);
  const oversized = weights.flatMap((weight, item) => (weight > largest + 1e-9 ? [item] : []));
  const empty = { assignment: weights.map(() => -1), binsUsed: 0, nodes: 0, work: 0, lpWork: 0 };
  if (oversized.length) return { feasible: false, ...empty, optimal: true, lowerBound: 0, oversized };
  if (!weights.length) return { feasible: true, assignment: [], binsUsed: 0, optimal: true, lowerBound: 0, oversized, nodes: 0, work: 0, lpWork: 0 };

  // Bins by decreasing capacity; byCapacity[k] is the original index of the k-th largest bin.
  const byCapacity = problem.binCapacities.map((_, bin) => bin).sort((a, b) => problem.binCapacities[b]! - problem.binCapacities[a]! || a - b);
  const capacities = byCapacity.map((bin) => problem.binCapacities[bin]!);
  const uniform = capacities.every((capacity) => capacity === capacities[0]);
  const order = weights.map((_, item) => item).sort((a, b) => weights[b]! - weights[a]!);
  const sorted = order.map((item) => weights[item]!);
  let lowerBound = Math.min(capacities.length, uniform ? martelloTothL2(sorted, capacities[0]!) : heterogeneousBound(sorted, capacities));

  let best: number[] | null = null;
  let bestBins = Infinity;
  const greedy = bestFitDecreasing(sorted, capacities);
  if (greedy) {
    best = new Array<number>(weights.length);
    greedy.forEach((bin, k) => (best![order[k]!] = bin));
    bestBins = new Set(greedy).size;
  }
  let nodes = 0;
  let work = 0;
  let lpWork = 0;
  /** The column-generation LP bound, computed the first time the quick searches fail (null: not applicable). */
  let lp: LpBoundResult | null | undefined;
  let proven = true;
  for (let bins = lowerBound; bins < Math.min(bestBins, capacities.length + 1); bins++) {
    let packing: number[][] | null = null;
    if (uniform) {
      // A short complete search settles small instances; then the pool search (a packing at the lower bound is
      // optimal); then, while every smaller count is proven too few, the complete search with the full budget.
      const limit = options.nodeLimit ?? IDENTICAL_NODE_LIMIT;
      const quick = proven ? binCompletion(weights, capacities[0]!, bins, Math.min(QUICK_NODE_LIMIT, limit)) : null;
      nodes += quick?.nodes ?? 0;
      packing = quick?.packing ?? null;
      if (!packing && !quick?.complete) {
        const start = greedy ? fromAssignment(greedy, order) : null;
        let diveStart: number[][] | null = null;
        const first = identicalBinsHeuristic(weights, capacities[0]!, bins, start, 0, 1, POOL_WORK_BEFORE_LP);
        work += first.work;
        packing = first.packing;
        if (!packing && lp === undefined) {
          lp = lpBoundFor(weights, capacities[0]!, start);
          lpWork += lp?.work ?? 0;
          if (lp && lp.bins > lowerBound) lowerBound = lp.bins;
        }
        if (!packing && lp && lp.bins > bins) {
          // The LP proves this count (and every one below its bound) too few.
          bins = lowerBound - 1;
          continue;
        }
        if (!packing && lp) {
          const dive = lpDive(lp.sizes, lp.demands, capacities[0]!, bins, LP_DIVE_WORK, lp);
          lpWork += dive.work;
          packing = dive.bins ? itemsOf(dive.bins, weights) : null;
          if (dive.packed) diveStart = itemsOf(dive.packed, weights);
        }
        if (!packing) {
          // More pool-search runs, from the dive's packing when there is one (one bin over, typically).
          const rest = identicalBinsHeuristic(weights, capacities[0]!, bins, diveStart ?? start, 1, POOL_RUNS, POOL_WORK_PER_RUN);
          work += rest.work;
          packing = rest.packing;
        }
        if (!packing && proven && limit > QUICK_NODE_LIMIT) {
          const outcome = binCompletion(weights, capacities[0]!, bins, limit);
          nodes += outcome.nodes;
          packing = outcome.packing;
          if (!outcome.complete) proven = false;
        } else if (!packing) proven = false;
      }
    } else {
      const outcome: SearchOutcome = itemSearch(weights, capacities.slice(0, bins), nodeLimit);
      nodes += outcome.nodes;
      packing = outcome.packing;
      if (!outcome.complete) proven = false;
      if (!packing && !proven) break;
    }
    if (packing) {
      best = new Array<number>(weights.length);
      packing.forEach((items, bin) => items.forEach((item) => (best![item] = bin)));
      bestBins = packing.filter((items) => items.length).length;
      break;
    }
  }
  lowerBound = Math.min(lowerBound, capacities.length);
  // When the search exhausted every smaller count, the count found is itself the bound proven.
  if (best && proven) lowerBound = Math.max(lowerBound, bestBins);
  if (!best) return { feasible: false, ...empty, optimal: proven, lowerBound, oversized, nodes, work, lpWork };
  return {
    feasible: true,
    assignment: best.map((bin) => byCapacity[bin]!),
    binsUsed: bestBins,
    optimal: proven,
    lowerBound,
    oversized,
    nodes,
    work,
    lpWork,
  };
}

/** Item lists per bin from a bin index per item of `order`. */
function fromAssignment(binOfSorted: readonly number[], order: readonly number[]): number[][] {
  const packing: number[][] = [];
  binOfSorted.forEach((bin, k) => (packing[bin] ??= []).push(order[k]!));
  return packing.filter(Boolean);
}

/**
 * The pool search from the best-fit packing, restarted with fresh seeds: a run
 * either finds a packing within a few tens of thousands of work units or
 * wanders, so several short runs beat one long one. Deterministic: the seeds
 * and budgets are fixed, so the answer does not depend on machine load.
 */
function identicalBinsHeuristic(weights: readonly number[], capacity: number, bins: number, start: number[][] | null, fromRun: number, toRun: number, workPerRun: number): PoolSearchOutcome {
  let work = 0;
  if (!start) return { packing: null, work };
  for (let run = fromRun; run < toRun; run++) {
    const found = poolSearch(weights, capacity, bins, start, new Random(0x2545f491 + run * 0x9e3779b9), workPerRun);
    work += found.work;
    if (found.packing) return { packing: found.packing, work };
  }
  return { packing: null, work };
}

/** Pool-search runs per bin count, and the work (subset-search nodes) each may spend; the LP comes after the first ones. */
const POOL_RUNS = 6;
/** The first run is shorter: past it, the LP (bound, then dive) is the cheaper way on. */
const POOL_WORK_BEFORE_LP = 20_000;
const POOL_WORK_PER_RUN = 100_000;
/** Bin-completion nodes per bin count for identical bins (~10–40 µs each), unless the caller sets `nodeLimit`. */
const IDENTICAL_NODE_LIMIT = 30_000;
/** Bin-completion nodes tried before the pool search (settles small instances at once). */
const QUICK_NODE_LIMIT = 2_000;

/** The LP bound over the distinct sizes, when they are few enough for the dense simplex (null otherwise). */
function lpBoundFor(weights: readonly number[], capacity: number, packing: readonly (readonly number[])[] | null): LpBoundResult | null {
  const { sizes, demands, classOf } = sizeClasses(weights);
  if (sizes.length > LP_MAX_SIZES) return null;
  // The bins of a packing are good first patterns (distinct ones only).
  const start = new Map<string, number[]>();
  for (const bin of packing ?? []) {
    const counts = new Array<number>(sizes.length).fill(0);
    for (const item of bin) counts[classOf[item]!]!++;
    start.set(counts.join(','), counts);
  }
  return lpBound(sizes, demands, capacity, { maxWork: LP_BOUND_WORK, start: [...start.values()] });
}

/** Item indices per bin from counts per distinct size (sizes as `sizeClasses` orders them). */
function itemsOf(bins: readonly (readonly number[])[], weights: readonly number[]): number[][] {
  const { classOf } = sizeClasses(weights);
  const pools: number[][] = [];
  classOf.forEach((size, item) => (pools[size] ??= []).push(item));
  return bins.map((counts) => counts.flatMap((count, size) => pools[size]!.splice(0, count)));
}

/** Distinct sizes the LP takes on (its basis inverse is dense: sizes² numbers). */
const LP_MAX_SIZES = 200;
/** Work (simplex operations + knapsack cells) for the LP bound, and for the LP dive to a packing. */
const LP_BOUND_WORK = 40_000_000;
const LP_DIVE_WORK = 60_000_000;
