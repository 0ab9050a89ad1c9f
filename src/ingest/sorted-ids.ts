/**
 * Sorted-id helpers of the ingest (node and way ids kept as Float64Array: ids
 * exceed 2^32). Sorting is an LSD radix sort on the id's offset from the
 * smallest one, in as few passes as its span allows with digits of at most 13
 * bits (a digit the same for every id skips its pass): linear, no comparator
 * calls, no BigInt. A country's node ids span 34–37 bits: 3 passes of 12–13-bit
 * digits where 11-bit digits took 4. OSM ids are integers; anything else (or a
 * span of 2^53 or more) falls back to a comparison sort.
 */
const MAX_DIGIT_BITS = 13;

/**
 * The permutation that sorts `values` ascending (stable), or undefined when
 * they are not integers spanning less than 2^53.
 */
export function argsortIds(values: Float64Array): Uint32Array | undefined {
  return radixSort(values.slice())?.positions;
}

interface RadixPlan {
  /** Keys are value - min: integers below 2^53. */
  min: number;
  passes: number;
  digitBits: number;
}

/** How to radix-sort `values`, or undefined when they are not integers spanning less than 2^53. */
function radixPlan(values: Float64Array): RadixPlan | undefined {
  const count = values.length;
  let min = Infinity;
  let max = -Infinity;
  for (let index = 0; index < count; index++) {
    const value = values[index]!;
    if (value < min) min = value;
    if (value > max) max = value;
    if (!Number.isInteger(value)) return undefined;
  }
  if (count < 2) return { min: 0, passes: 0, digitBits: 0 };
  const span = max - min;
  if (!(span < 2 ** 53)) return undefined;
  let bits = 0;
  while (2 ** bits <= span) bits++;
  const passes = Math.max(1, Math.ceil(bits / MAX_DIGIT_BITS));
  return { min, passes, digitBits: Math.ceil(bits / passes) };
}

/**
 * Sorts `keys` (in place or into a buffer of its own: **their order is lost**)
 * with each key's position in the input, or undefined when they are not
 * integers spanning less than 2^53. The keys move with their positions, so each
 * pass reads both in order and writes them to their digit's place, where an
 * argsort would read every key through the permutation (a cache miss per key
 * per pass: 2–3× slower for a country's 4.3 M node references). Returns the
 * sorted keys and positions and the sort's other position buffer, free scratch.
 */
function radixSort(keys: Float64Array): { keys: Float64Array; positions: Uint32Array; sparePositions: Uint32Array } | undefined {
  const plan = radixPlan(keys);
  if (!plan) return undefined;
  const { min, passes, digitBits } = plan;
  const count = keys.length;
  let nextKeys: Float64Array = new Float64Array(count);
  let positions = new Uint32Array(count);
  for (let index = 0; index < count; index++) positions[index] = index;
  let nextPositions = new Uint32Array(count);
  const mask = 2 ** digitBits - 1;
  const histogram = new Uint32Array(mask + 1);
  for (let pass = 0; pass < passes; pass++) {
    // the digit of key - min (an integer below 2^53) at 2^shift: ToUint32 (>>> 0) of (key - min) / 2^shift keeps
    // its integer part modulo 2^32, whose low bits are the digit's
    const scale = 2 ** -(pass * digitBits);
    if (!digitStarts(histogram, keys, min, scale, mask)) continue; // every id has this digit
    for (let index = 0; index < count; index++) {
      const key = keys[index]!;
      const at = histogram[(((key - min) * scale) >>> 0) & mask]!++;
      nextKeys[at] = key;
      nextPositions[at] = positions[index]!;
    }
    [keys, nextKeys] = [nextKeys, keys];
    [positions, nextPositions] = [nextPositions, positions];
  }
  return { keys, positions, sparePositions: nextPositions };
}

/**
 * Counts the keys per digit, then makes each count the number of keys with a smaller digit (where that digit's
 * keys start in the pass's output); false, with nothing to do, when every key has the same digit.
 */
function digitStarts(histogram: Uint32Array, keys: Float64Array, min: number, scale: number, mask: number): boolean {
  const count = keys.length;
  histogram.fill(0);
  for (let index = 0; index < count; index++) histogram[(((keys[index]! - min) * scale) >>> 0) & mask]!++;
  if (histogram[(((keys[0]! - min) * scale) >>> 0) & mask] === count) return false;
  let sum = 0;
  for (let digit = 0; digit < histogram.length; digit++) {
    const size = histogram[digit]!;
    histogram[digit] = sum;
    sum += size;
  }
  return true;
}

/** Sorts and removes duplicates; returns the unique prefix (of `values` itself, or of a new array). */
export function sortUnique(values: Float64Array): Float64Array {
  const sorted = radixSort(values)?.keys ?? values.sort();
  let write = 0;
  for (let read = 0; read < sorted.length; read++) {
    if (read === 0 || sorted[read] !== sorted[write - 1]) sorted[write++] = sorted[read]!;
  }
  return sorted.subarray(0, write);
}

/**
 * The distinct ids of `values`, sorted, and for each value its index among
 * them: one radix sort instead of a sort plus a binary search per value.
 * `values` becomes the sort's key buffer: **its content is lost**. Besides it
 * the sort allocates a second key buffer and two position buffers (this runs on
 * every node reference of the kept ways: a 31 MB country file has 4.3 M); the
 * slots are written into the position buffer the sort no longer needs and the
 * distinct ids compacted in the sorted key buffer.
 */
export function indexIds(values: Float64Array): { ids: Float64Array; slotOf: Int32Array } {
  const count = values.length;
  const sorted = radixSort(values);
  if (!sorted) {
    const slotOf = new Int32Array(count);
    const ids = sortUnique(values.slice());
    for (let index = 0; index < count; index++) slotOf[index] = binarySearch(ids, values[index]!);
    return { ids, slotOf };
  }
  const { keys, positions, sparePositions } = sorted;
  // the distinct keys compacted at the front of `keys` (a write never passes the read), each value's slot
  const slotOf = new Int32Array(sparePositions.buffer, sparePositions.byteOffset, count);
  let slot = -1;
  for (let index = 0; index < count; index++) {
    const key = keys[index]!;
    if (slot < 0 || keys[slot] !== key) keys[++slot] = key;
    slotOf[positions[index]!] = slot;
  }
  // the sort's own buffer (an odd number of passes: a country's 3) holds exactly `count` keys: the ids stay a view
  // of it, as a copy would add their size to the peak while the sort's buffers wait for a full GC; the caller's
  // buffer may be far longer than `values` (a growable list's capacity) and must not stay alive with them
  const ids = keys.buffer === values.buffer ? keys.slice(0, slot + 1) : keys.subarray(0, slot + 1);
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
