import { binCompletion, type SearchOutcome } from './bin-completion.js';
import { Random } from '../random.js';
import { poolSearch } from './pool-search.js';
import { bestFitDecreasing } from './heuristics.js';
import { itemSearch } from './item-search.js';
import { heterogeneousBound, martelloTothL2 } from './lower-bounds.js';
import type { BinPackOptions, BinPackProblem, BinPackResult } from './model.js';

const DEFAULT_NODE_LIMIT = 2_000_000;

/**
 * Fewest bins holding every item. Lower bound (Martello–Toth L2 for identical
 * bins; capacity and large-item counts otherwise), upper bound by best-fit
 * decreasing, then an exact search for each bin count from the bound up (bin
 * completion for identical bins, item search otherwise; k bins of different
 * sizes are best taken as the k largest). The first count that packs is optimal.
 */
export function solveBinPack(problem: BinPackProblem, options: BinPackOptions = {}): BinPackResult {
  const nodeLimit = options.nodeLimit ?? DEFAULT_NODE_LIMIT;
  const weights = problem.itemWeights;
  const largest = Math.max(...problem.binCapacities);
  const oversized = weights.flatMap((weight, item) => (weight > largest + 1e-9 ? [item] : []));
  const empty = { assignment: weights.map(() => -1), binsUsed: 0, nodes: 0 };
  if (oversized.length) return { feasible: false, ...empty, optimal: true, lowerBound: 0, oversized };
  if (!weights.length) return { feasible: true, assignment: [], binsUsed: 0, optimal: true, lowerBound: 0, oversized, nodes: 0 };

  // Bins by decreasing capacity; byCapacity[k] is the original index of the k-th largest bin.
  const byCapacity = problem.binCapacities.map((_, bin) => bin).sort((a, b) => problem.binCapacities[b]! - problem.binCapacities[a]! || a - b);
  const capacities = byCapacity.map((bin) => problem.binCapacities[bin]!);
  const uniform = capacities.every((capacity) => capacity === capacities[0]);
  const order = weights.map((_, item) => item).sort((a, b) => weights[b]! - weights[a]!);
  const sorted = order.map((item) => weights[item]!);
  const lowerBound = Math.min(capacities.length, uniform ? martelloTothL2(sorted, capacities[0]!) : heterogeneousBound(sorted, capacities));

  let best: number[] | null = null;
  let bestBins = Infinity;
  const greedy = bestFitDecreasing(sorted, capacities);
  if (greedy) {
    best = new Array<number>(weights.length);
    greedy.forEach((bin, k) => (best![order[k]!] = bin));
    bestBins = new Set(greedy).size;
  }
  let nodes = 0;
  let proven = true;
  for (let bins = lowerBound; bins < Math.min(bestBins, capacities.length + 1); bins++) {
    const outcome: SearchOutcome = uniform
      ? identicalBinsSearch(weights, capacities[0]!, bins, nodeLimit)
      : itemSearch(weights, capacities.slice(0, bins), nodeLimit);
    nodes += outcome.nodes;
    if (outcome.packing) {
      best = new Array<number>(weights.length);
      outcome.packing.forEach((items, bin) => items.forEach((item) => (best![item] = bin)));
      bestBins = outcome.packing.filter((items) => items.length).length;
      break;
    }
    if (!outcome.complete) {
      proven = false;
      break;
    }
  }
  if (!best) return { feasible: false, ...empty, optimal: proven, lowerBound, oversized, nodes };
  return {
    feasible: true,
    assignment: best.map((bin) => byCapacity[bin]!),
    binsUsed: bestBins,
    optimal: proven,
    lowerBound,
    oversized,
    nodes,
  };
}

/**
 * Two phases: Falkenauer-style pool improvement from the best-fit packing
 * (finds packings fast when they are plentiful), then the complete bin
 * completion search with the node budget, whose exhaustion proves that `bins`
 * bins are too few.
 */
function identicalBinsSearch(weights: readonly number[], capacity: number, bins: number, nodeLimit: number): SearchOutcome {
  const start = bestFitDecreasing(weights.map((weight) => weight).sort((a, b) => b - a), weights.map(() => capacity));
  if (start) {
    const order = weights.map((_, item) => item).sort((a, b) => weights[b]! - weights[a]!);
    const packing: number[][] = [];
    start.forEach((bin, k) => (packing[bin] ??= []).push(order[k]!));
    const found = poolSearch(weights, capacity, bins, packing.filter(Boolean), new Random(0x2545f491), POOL_PASSES);
    if (found) return { packing: found, complete: true, nodes: 0 };
  }
  return binCompletion(weights, capacity, bins, nodeLimit);
}

const POOL_PASSES = 2_000;
