/**
 * An append-only typed column that grows by adding chunks instead of
 * doubling into a copy.
 *
 * Why: a doubling array leaves its outgrown arrays behind as garbage, and an
 * ArrayBuffer that lived long enough to be promoted is freed only by a
 * mark-compact, which the ingest's small heap rarely runs: the outgrown arrays
 * add to the peak RSS. The feature layers are staged at the very end of the
 * ingest, when the peak is reached (Monaco: 3.8 MiB of outgrown feature
 * columns). The pack writer takes a section as chunks, so a column never needs
 * to be made contiguous. Chunks grow like a doubling array's capacity (each as
 * long as the column so far), up to `MAX_CHUNK_ELEMENTS`, so a small layer
 * costs as little as it did.
 */
import type { NumericArray } from './growable-array.js';

const MAX_CHUNK_ELEMENTS = 1 << 16;

export class ChunkedColumn<T extends NumericArray> {
  /** The chunk being filled; values go in from `end`. */
  array: T;
  end = 0;
  /** Values in the whole column. */
  length = 0;
  /** Filled chunks, as views of exactly their values. */
  private readonly filled: T[] = [];

  constructor(
    private readonly Type: new (length: number) => T,
    firstChunk = 16,
  ) {
    this.array = new Type(firstChunk);
  }

  push(value: number): void {
    if (this.end === this.array.length) this.reserve(1);
    this.array[this.end++] = value;
    this.length++;
  }

  /**
   * Makes room for `extra` values one after the other in the current chunk
   * (starting a new one when it has not) and returns it: write them from
   * `end`, then call `advance(extra)`.
   */
  reserve(extra: number): T {
    if (this.end + extra > this.array.length) {
      if (this.end > 0) this.filled.push(this.array.subarray(0, this.end) as T);
      this.array = new this.Type(Math.max(extra, Math.min(MAX_CHUNK_ELEMENTS, Math.max(this.length, this.array.length))));
      this.end = 0;
    }
    return this.array;
  }

  advance(count: number): void {
    this.end += count;
    this.length += count;
  }

  /** The values in order, as views of the chunks (no copy): the pack writer writes them one after the other. */
  chunks(): T[] {
    return this.end > 0 ? [...this.filled, this.array.subarray(0, this.end) as T] : [...this.filled];
  }
}
