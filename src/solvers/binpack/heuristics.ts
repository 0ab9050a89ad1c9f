/**
 * Best-fit decreasing into the given bins in order (an upper bound): each item
 * (heaviest first) goes to the open bin it fills most tightly, else opens the
 * next bin. Returns the bin of each item in `order`, or null if some item fits nowhere.
 */
export function bestFitDecreasing(sizes: readonly number[], capacities: readonly number[]): number[] | null {
  const residual: number[] = [];
  const bins: number[] = [];
  for (const size of sizes) {
    let chosen = -1;
    for (let b = 0; b < residual.length; b++) {
      if (residual[b]! >= size && (chosen < 0 || residual[b]! < residual[chosen]!)) chosen = b;
    }
    if (chosen < 0) {
      let opened = residual.length;
      while (opened < capacities.length && capacities[opened]! < size) {
        residual.push(capacities[opened]!);
        opened++;
      }
      if (opened >= capacities.length) return null;
      residual.push(capacities[opened]! - size);
      chosen = opened;
    } else residual[chosen]! -= size;
    bins.push(chosen);
  }
  return bins;
}
