/**
 * The order to visit stops in for the shortest tour (engine `optimized_route`):
 * the first and last location stay where they are, the ones between are
 * reordered. Exact (Held–Karp dynamic programme) up to 12 movable stops;
 * above that, nearest neighbour improved by 2-opt and or-opt moves until no
 * move helps. Costs are a row-major n × n matrix; NaN or Infinity = no path.
 */

/** Movable stops up to which the order is provably optimal. */
export const EXACT_STOP_LIMIT = 12;

export interface StopOrder {
  /** Indexes into the input locations, first and last fixed. */
  order: number[];
  cost: number;
  exact: boolean;
}

export function orderStops(cost: Float64Array | number[], n: number): StopOrder {
  const c = (from: number, to: number) => {
    const value = cost[from * n + to]!;
    return Number.isFinite(value) ? value : Number.POSITIVE_INFINITY;
  };
  if (n <= 3) {
    const order = [...Array(n).keys()];
    return { order, cost: tourCost(order, c), exact: true };
  }
  const middle = [...Array(n - 2).keys()].map((index) => index + 1);
  if (middle.length <= EXACT_STOP_LIMIT) return heldKarp(middle, n, c);
  return improveOrder(nearestNeighbour(middle, n, c), c);
}

function tourCost(order: number[], c: (from: number, to: number) => number): number {
  let total = 0;
  for (let index = 1; index < order.length; index++) total += c(order[index - 1]!, order[index]!);
  return total;
}

function heldKarp(middle: number[], n: number, c: (from: number, to: number) => number): StopOrder {
  const m = middle.length;
  const last = n - 1;
  const size = 1 << m;
  // best[mask * m + j]: cheapest path from 0 through the stops in mask, ending at middle[j]
  const best = new Float64Array(size * m).fill(Infinity);
  const parent = new Int8Array(size * m).fill(-1);
  for (let j = 0; j < m; j++) best[(1 << j) * m + j] = c(0, middle[j]!);
  for (let mask = 1; mask < size; mask++) {
    for (let j = 0; j < m; j++) {
      if (!(mask & (1 << j))) continue;
      const here = best[mask * m + j]!;
      if (here === Infinity) continue;
      for (let k = 0; k < m; k++) {
        if (mask & (1 << k)) continue;
        const next = mask | (1 << k);
        const candidate = here + c(middle[j]!, middle[k]!);
        if (candidate < best[next * m + k]!) {
          best[next * m + k] = candidate;
          parent[next * m + k] = j;
        }
      }
    }
  }
  const full = size - 1;
  let end = -1;
  let total = Infinity;
  for (let j = 0; j < m; j++) {
    const candidate = best[full * m + j]! + c(middle[j]!, last);
    if (candidate < total) {
      total = candidate;
      end = j;
    }
  }
  if (end < 0) return { order: [0, ...middle, last], cost: Infinity, exact: true };
  const reversed: number[] = [];
  for (let mask = full, j = end; j >= 0; ) {
    reversed.push(middle[j]!);
    const previous = parent[mask * m + j]!;
    mask &= ~(1 << j);
    j = previous;
  }
  return { order: [0, ...reversed.reverse(), last], cost: total, exact: true };
}

function nearestNeighbour(middle: number[], n: number, c: (from: number, to: number) => number): number[] {
  const left = new Set(middle);
  const order = [0];
  let at = 0;
  while (left.size) {
    let next = -1;
    let nearest = Infinity;
    for (const candidate of left) {
      if (c(at, candidate) < nearest || next < 0) {
        nearest = c(at, candidate);
        next = candidate;
      }
    }
    order.push(next);
    left.delete(next);
    at = next;
  }
  order.push(n - 1);
  return order;
}

/** 2-opt (reverse a stretch) and or-opt (move a run of 1–3 stops) until neither improves the tour. */
function improveOrder(order: number[], c: (from: number, to: number) => number): StopOrder {
  let best = tourCost(order, c);
  let improved = true;
  while (improved) {
    improved = false;
    for (let i = 1; i < order.length - 2 && !improved; i++) {
      for (let j = i + 1; j < order.length - 1 && !improved; j++) {
        const candidate = [...order.slice(0, i), ...order.slice(i, j + 1).reverse(), ...order.slice(j + 1)];
        const value = tourCost(candidate, c);
        if (value < best - 1e-9) {
          order = candidate;
          best = value;
          improved = true;
        }
      }
    }
    for (let run = 1; run <= 3 && !improved; run++) {
      for (let i = 1; i + run < order.length && !improved; i++) {
        const segment = order.slice(i, i + run);
        const rest = [...order.slice(0, i), ...order.slice(i + run)];
        for (let at = 1; at < rest.length && !improved; at++) {
          if (at === i) continue;
          const candidate = [...rest.slice(0, at), ...segment, ...rest.slice(at)];
          const value = tourCost(candidate, c);
          if (value < best - 1e-9) {
            order = candidate;
            best = value;
            improved = true;
          }
        }
      }
    }
  }
  return { order, cost: best, exact: false };
}
