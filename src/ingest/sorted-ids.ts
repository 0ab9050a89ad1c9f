/** Sorted-id helpers of the ingest (node and way ids kept as Float64Array: ids exceed 2^32). */
/** Sorts and removes duplicates in place; returns the unique prefix. */
export function sortUnique(values: Float64Array): Float64Array {
  values.sort();
  let write = 0;
  for (let read = 0; read < values.length; read++) {
    if (read === 0 || values[read] !== values[write - 1]) values[write++] = values[read]!;
  }
  return values.subarray(0, write);
}

/** Index of `value` in a sorted array, or -1. */
export function binarySearch(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const current = sorted[middle]!;
    if (current < value) low = middle + 1;
    else if (current > value) high = middle - 1;
    else return middle;
  }
  return -1;
}
