/**
 * A typed array that grows by doubling: the ingest stages what it keeps in
 * these instead of JS objects and number[] lists, so the kept data costs its
 * bytes (no per-object headers, no boxed doubles) and the GC has almost
 * nothing to trace or copy.
 *
 * Hot loops call `reserve(n)` once and write `array[length++]` themselves: the
 * call site then sees one concrete typed-array type and stays monomorphic.
 */
/**
 * Four element types only, so `push` sees at most four array kinds and its
 * store stays a fast polymorphic one (six kinds made it megamorphic: 16 % of
 * the ingest). Float32 and Uint16 sections are staged as Float64 and Uint32
 * and converted by `toArray` (one rounding either way, so the same values).
 */
export type NumericArray = Float64Array | Int32Array | Uint32Array | Uint8Array;

export class GrowableArray<T extends NumericArray> {
  array: T;
  length = 0;

  constructor(
    private readonly Type: new (length: number) => T,
    capacity = 256,
  ) {
    this.array = new Type(capacity);
  }

  /** Makes room for `extra` more values; returns the (possibly new) backing array. */
  reserve(extra: number): T {
    const needed = this.length + extra;
    if (needed > this.array.length) {
      const grown = new this.Type(Math.max(needed, this.array.length * 2));
      grown.set(this.array.subarray(0, this.length) as never);
      this.array = grown;
    }
    return this.array;
  }

  push(value: number): number {
    if (this.length === this.array.length) this.reserve(1);
    this.array[this.length] = value;
    return this.length++;
  }

  /**
   * The values as an exact-length array (the section written to the pack),
   * converted to `As` if given. Unconverted, it is a view of the backing array,
   * not a copy: called when staging is done, and a copy would add its size to
   * the peak memory while the backing array waits for a full GC anyway.
   */
  toArray(): T;
  toArray<U extends Float32Array | Uint16Array>(As: new (length: number) => U): U;
  toArray(As?: new (length: number) => Float32Array | Uint16Array): T | Float32Array | Uint16Array {
    if (!As) return this.array.subarray(0, this.length) as T;
    const converted = new As(this.length);
    converted.set(this.array.subarray(0, this.length));
    return converted;
  }

  clear(): void {
    this.length = 0;
  }
}
