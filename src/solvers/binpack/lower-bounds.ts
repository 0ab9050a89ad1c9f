/**
 * Martello–Toth L2 lower bound for identical bins: for every threshold K, items
 * larger than C−K each need a bin, items in (C/2, C−K] too, and items in
 * [K, C/2] must fill what those leave. `sizes` sorted in decreasing order.
 */
export function martelloTothL2(sizes: readonly number[], capacity: number): number {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  // at least one bin for any item: the tolerance would round a total far below 1e-9 of a bin down to none
  let best = Math.max(sizes.length ? 1 : 0, Math.ceil(total / capacity - 1e-9));
  const thresholds = new Set<number>([0]);
  for (const size of sizes) if (size <= capacity / 2) thresholds.add(size);
  for (const k of thresholds) {
    let big = 0;
    let medium = 0;
    let mediumSum = 0;
    let smallSum = 0;
    for (const size of sizes) {
      if (size > capacity - k) big++;
      else if (size > capacity / 2) {
        medium++;
        mediumSum += size;
      } else if (size >= k) smallSum += size;
    }
    const spill = Math.max(0, Math.ceil((smallSum - (medium * capacity - mediumSum)) / capacity - 1e-9));
    best = Math.max(best, big + medium + spill);
  }
  return best;
}

/** Fewest of the given bins whose capacities could hold the total weight and the items that need a bin of their own. */
export function heterogeneousBound(sizes: readonly number[], capacities: readonly number[]): number {
  const sorted = capacities.slice().sort((a, b) => b - a);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  let room = 0;
  let k = 0;
  while (k < sorted.length && room < total - 1e-9) room += sorted[k++]!;
  // at least one bin for any item (a total below the tolerance needs no room by the loop's measure)
  if (sizes.length && sorted.length) k = Math.max(k, 1);
  // Items larger than half the largest bin cannot share a bin with each other.
  const large = sizes.filter((size) => size > sorted[0]! / 2).length;
  return Math.max(k, Math.min(large, sorted.length));
}
