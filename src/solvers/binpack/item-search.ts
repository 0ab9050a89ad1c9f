import type { SearchOutcome } from './bin-completion.js';

/**
 * Item-by-item depth-first search for bins of different sizes: each item
 * (heaviest first) tries every bin it fits, skipping bins whose remaining room
 * equals one already tried (interchangeable), pruned when the usable room left
 * cannot hold the weight left. Decides whether these bins can hold all items.
 */
export function itemSearch(sizes: readonly number[], capacities: readonly number[], nodeLimit: number): SearchOutcome {
  const order = sizes.map((_, index) => index).sort((a, b) => sizes[b]! - sizes[a]!);
  const residual = capacities.slice();
  const bin = new Array<number>(sizes.length).fill(-1);
  const suffix = new Array<number>(order.length + 1).fill(0);
  for (let k = order.length - 1; k >= 0; k--) suffix[k] = suffix[k + 1]! + sizes[order[k]!]!;
  let nodes = 0;
  let aborted = false;
  const search = (k: number): boolean => {
    if (k === order.length) return true;
    if (++nodes > nodeLimit) {
      aborted = true;
      return false;
    }
    const smallest = sizes[order[order.length - 1]!]!;
    let usable = 0;
    for (const room of residual) if (room >= smallest - 1e-9) usable += room;
    if (usable < suffix[k]! - 1e-9) return false;
    const item = order[k]!;
    const size = sizes[item]!;
    const tried = new Set<number>();
    for (let b = 0; b < residual.length; b++) {
      const room = residual[b]!;
      if (room < size - 1e-9 || tried.has(room)) continue;
      tried.add(room);
      residual[b] = room - size;
      bin[item] = b;
      if (search(k + 1)) return true;
      residual[b] = room;
      if (aborted) return false;
    }
    return false;
  };
  if (!search(0)) return { packing: null, complete: !aborted, nodes };
  const packing: number[][] = capacities.map(() => []);
  bin.forEach((b, item) => packing[b]!.push(item));
  return { packing, complete: true, nodes };
}
