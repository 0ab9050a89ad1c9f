/**
 * Korf's bin completion for identical bins: bins are filled one at a time, each
 * with the largest remaining item plus an undominated (maximal) set of other
 * items, best-filled first, under a total-waste budget (bins × capacity − total
 * weight). Failed states are remembered. Decides whether `bins` bins suffice.
 */
export interface SearchOutcome {
  /** Item indices (into `sizes`) per bin, when a packing was found. */
  packing: number[][] | null;
  /** True when the search space was exhausted (so "no packing" is a proof). */
  complete: boolean;
  nodes: number;
}

const EPSILON = 1e-9;
const MAX_MEMO = 2_000_000;
/** Completion-listing steps allowed per search node, on average over the search. */
const STEPS_PER_NODE = 1_000;

export function binCompletion(sizes: readonly number[], capacity: number, bins: number, nodeLimit: number): SearchOutcome {
  const values: number[] = [];
  const pools: number[][] = [];
  sizes
    .map((size, index) => ({ size, index }))
    .sort((a, b) => b.size - a.size)
    .forEach(({ size, index }) => {
      if (values.length && Math.abs(values[values.length - 1]! - size) < EPSILON) pools[pools.length - 1]!.push(index);
      else {
        values.push(size);
        pools.push([index]);
      }
    });
  const count = pools.map((pool) => pool.length);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const waste = bins * capacity - total;
  const chosen: number[][] = [];
  const failed = new Set<string>();
  let nodes = 0;
  let aborted = false;
  // Listing the completions of one bin can itself be exponential (many small sizes): its steps count too.
  const budget = { steps: 0, limit: nodeLimit * STEPS_PER_NODE };
  const stepLimit = budget.limit;

  const search = (binsLeft: number, wasteLeft: number): boolean => {
    if (++nodes > nodeLimit) {
      aborted = true;
      return false;
    }
    let largest = 0;
    while (largest < values.length && count[largest] === 0) largest++;
    if (largest === values.length) return true;
    if (binsLeft === 0 || wasteLeft < -EPSILON) return false;
    let half = 0;
    for (let i = largest; i < values.length && values[i]! > capacity / 2 + EPSILON; i++) half += count[i]!;
    if (half > binsLeft) return false;
    const key = `${binsLeft}|${count.join(',')}`;
    if (failed.has(key)) return false;
    count[largest]!--;
    const room = capacity - values[largest]!;
    const completions = enumerateCompletions(values, count, largest, room, wasteLeft, budget);
    if (budget.steps > stepLimit) {
      aborted = true;
      count[largest]!++;
      return false;
    }
    for (const completion of completions) {
      for (let i = 0; i < completion.taken.length; i++) count[completion.from + i]! -= completion.taken[i]!;
      chosen.push([largest, ...completion.taken.flatMap((times, i) => Array<number>(times).fill(completion.from + i))]);
      const done = search(binsLeft - 1, wasteLeft - (room - completion.sum));
      if (done) return true;
      chosen.pop();
      for (let i = 0; i < completion.taken.length; i++) count[completion.from + i]! += completion.taken[i]!;
      if (aborted) break;
    }
    count[largest]!++;
    if (!aborted && failed.size < MAX_MEMO) failed.add(key);
    return false;
  };

  const found = search(bins, waste);
  if (!found) return { packing: null, complete: !aborted, nodes };
  const next = pools.map(() => 0);
  const packing = chosen.map((bin) => bin.map((sizeIndex) => pools[sizeIndex]![next[sizeIndex]!++]!));
  return { packing, complete: true, nodes };
}

interface Completion {
  /** First size index of `taken`. */
  from: number;
  /** How many items of each size (from `from` on) join the bin. */
  taken: number[];
  sum: number;
}

/**
 * Martello–Toth dominance in Korf's practical form: a set is dominated when a
 * leftover item fits its slack (not maximal), or can replace one of its items or
 * a pair of them while still fitting (a ≤ y ≤ a + slack): the other set packs at
 * least as well, so its subtree need not be searched.
 */
function dominated(values: readonly number[], count: readonly number[], from: number, taken: readonly number[], slack: number): boolean {
  const inSet: number[] = [];
  for (let k = 0; k < taken.length; k++) for (let t = 0; t < taken[k]!; t++) inSet.push(values[from + k]!);
  const leftover = (k: number): number => count[k]! - (k >= from ? taken[k - from]! : 0);
  for (let k = from; k < values.length; k++) {
    if (leftover(k) <= 0) continue;
    const y = values[k]!;
    if (y <= slack + EPSILON) return true;
    for (let a = 0; a < inSet.length; a++) {
      const single = inSet[a]!;
      if (single < y - EPSILON && y <= single + slack + EPSILON) return true;
      for (let b = a + 1; b < inSet.length; b++) {
        const pair = single + inSet[b]!;
        if (pair <= y + EPSILON && y <= pair + slack + EPSILON) return true;
      }
    }
  }
  return false;
}

/**
 * Maximal sets of remaining items that fit in `room` and waste at most `wasteLeft`, fullest first; stops (with a
 * partial list the caller discards) once `budget.steps` passes `budget.limit`.
 */
function enumerateCompletions(values: readonly number[], count: readonly number[], from: number, room: number, wasteLeft: number, budget: { steps: number; limit: number }): Completion[] {
  const out: Completion[] = [];
  const taken = new Array<number>(values.length - from).fill(0);
  const walk = (i: number, sum: number): void => {
    if (++budget.steps > budget.limit) return;
    if (i === values.length) {
      const slack = room - sum;
      if (slack > wasteLeft + EPSILON) return;
      if (dominated(values, count, from, taken, slack)) return;
      out.push({ from, taken: taken.slice(), sum });
      return;
    }
    const size = values[i]!;
    const most = Math.min(count[i]!, size > 0 ? Math.floor((room - sum + EPSILON) / size) : count[i]!);
    for (let times = most; times >= 0 && budget.steps <= budget.limit; times--) {
      taken[i - from] = times;
      walk(i + 1, sum + times * size);
    }
    taken[i - from] = 0;
  };
  walk(from, 0);
  return out.sort((a, b) => b.sum - a.sum);
}
