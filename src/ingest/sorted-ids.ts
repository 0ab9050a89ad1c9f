/**
 * Sorted-id helpers of the ingest (node and way ids kept as Float64Array: ids
 * exceed 2^32). Sorting is an LSD radix sort on the id's two 32-bit halves
 * (11-bit digits; a pass whose digit is the same for every id is skipped): linear,
 * no comparator calls, no BigInt. OSM ids are integers; anything else (or a
 * span of 2^53 or more) falls back to a comparison sort.
 */
const DIGIT_BITS = 11;
const RADIX = 1 << DIGIT_BITS;
const MASK = RADIX - 1;
const TWO_POW_32 = 4294967296;

/**
 * The permutation that sorts `values` ascending (stable), or undefined when
 * they are not integers spanning less than 2^53. Only the permutation and its
 * double buffer are allocated (8 bytes per value): each pass reads its digit
 * from the value itself.
 */
export function argsortIds(values: Float64Array): Uint32Array | undefined {
  return radixArgsort(values)?.order;
}

/** The sorting permutation and the sort's other buffer (free scratch of the same length afterwards). */
function radixArgsort(values: Float64Array): { order: Uint32Array; spare: Uint32Array } | undefined {
  const count = values.length;
  let min = Infinity;
  let max = -Infinity;
  for (let index = 0; index < count; index++) {
    const value = values[index]!;
    if (value < min) min = value;
    if (value > max) max = value;
    if (!Number.isInteger(value)) return undefined;
  }
  const span = max - min;
  if (count >= 2 && !(span < 2 ** 53)) return undefined;
  let order = new Uint32Array(count);
  for (let index = 0; index < count; index++) order[index] = index;
  let next = new Uint32Array(count);
  if (count < 2) return { order, spare: next };
  const histogram = new Uint32Array(RADIX);
  const highBits = span >= TWO_POW_32 ? Math.ceil(Math.log2(Math.floor(span / TWO_POW_32) + 1)) : 0;
  // digits of the key value - min: three of its low 32 bits, then as many of its high bits as the span needs
  const lowPasses = Math.ceil(32 / DIGIT_BITS);
  const passes = lowPasses + Math.ceil(highBits / DIGIT_BITS);
  for (let pass = 0; pass < passes; pass++) {
    const high = pass >= lowPasses;
    const shift = (high ? pass - lowPasses : pass) * DIGIT_BITS;
    // ToUint32 (>>> 0) of a key below 2^53 is its low 32 bits; of key / 2^32, its high ones
    const scale = high ? 1 / TWO_POW_32 : 1;
    histogram.fill(0);
    for (let index = 0; index < count; index++) histogram[(((values[index]! - min) * scale) >>> shift) & MASK]!++;
    if (histogram[(((values[0]! - min) * scale) >>> shift) & MASK] === count) continue; // every id has this digit
    let sum = 0;
    for (let digit = 0; digit < RADIX; digit++) {
      const size = histogram[digit]!;
      histogram[digit] = sum;
      sum += size;
    }
    for (let index = 0; index < count; index++) {
      const position = order[index]!;
      next[histogram[(((values[position]! - min) * scale) >>> shift) & MASK]!++] = position;
    }
    const swap = order;
    order = next;
    next = swap;
  }
  return { order, spare: next };
}

/** Sorts and removes duplicates; returns the unique prefix (of `values` itself, or of a new array). */
export function sortUnique(values: Float64Array): Float64Array {
  const order = argsortIds(values);
  let sorted: Float64Array;
  if (order) {
    sorted = new Float64Array(values.length);
    for (let index = 0; index < order.length; index++) sorted[index] = values[order[index]!]!;
  } else sorted = values.sort();
  let write = 0;
  for (let read = 0; read < sorted.length; read++) {
    if (read === 0 || sorted[read] !== sorted[write - 1]) sorted[write++] = sorted[read]!;
  }
  return sorted.subarray(0, write);
}

/**
 * The distinct ids of `values`, sorted, and for each value its index among
 * them: one radix sort instead of a sort plus a binary search per value. The
 * slots are written into the sort's spare buffer and the ids into an array of
 * their exact count, so nothing the size of `values` is allocated beyond the
 * sort's two permutation buffers (this runs on every node reference of the
 * kept ways: Monaco 239 k).
 */
export function indexIds(values: Float64Array): { ids: Float64Array; slotOf: Int32Array } {
  const sorted = radixArgsort(values);
  if (!sorted) {
    const slotOf = new Int32Array(values.length);
    const ids = sortUnique(values.slice());
    for (let index = 0; index < values.length; index++) slotOf[index] = binarySearch(ids, values[index]!);
    return { ids, slotOf };
  }
  const { order } = sorted;
  let distinct = 0;
  for (let index = 0; index < order.length; index++) {
    if (index === 0 || values[order[index]!] !== values[order[index - 1]!]) distinct++;
  }
  const ids = new Float64Array(distinct);
  const slotOf = new Int32Array(sorted.spare.buffer, sorted.spare.byteOffset, values.length);
  let slot = -1;
  for (let index = 0; index < order.length; index++) {
    const position = order[index]!;
    const value = values[position]!;
    if (slot < 0 || ids[slot] !== value) ids[++slot] = value;
    slotOf[position] = slot;
  }
  return { ids, slotOf };
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
