/**
 * The hot loop of PBF decoding: a packed run of delta-coded zigzag varints (a
 * dense node block's id, lat and lon columns, a way's node references)
 * decoded in one loop with the position in a local
 * variable, into a reused Float64Array. A general protobuf reader (the `pbf`
 * package) pays a method call and a field store per varint, and a push onto a
 * number[] that then needs its own pass for the running sums.
 *
 * Varints decode to JS numbers, exact up to 2^53 (OSM ids and coordinates are
 * far below). Format: https://protobuf.dev/programming-guides/encoding/
 */
import { IngestError } from '../ingest-error.js';

const TWO_POW_28 = 0x10000000;
const TWO_POW_32 = 0x100000000;

/** `array` if it holds at least `length` values, else a larger one (contents not kept). */
export function withCapacity(array: Float64Array, length: number): Float64Array {
  return array.length >= length ? array : new Float64Array(Math.max(length, array.length * 2));
}

/**
 * The unsigned value of the varint at `pos` whose first four bytes all have
 * their continuation bit (rare: a block's first coordinate or id); `low28`
 * holds those bytes' 28 bits.
 */
function longVarint(buf: Uint8Array, pos: number, low28: number): number {
  // bits 28..31 come from the fifth byte's low nibble, the high word from the rest
  let byte = buf[pos + 4]!;
  const low = low28 + (byte & 0x0f) * TWO_POW_28;
  let high = (byte & 0x70) >> 4;
  let shift = 3;
  for (let index = 5; byte >= 0x80; index++) {
    if (index >= 10) throw new IngestError('corrupt', 'a varint is longer than 10 bytes');
    byte = buf[pos + index]!;
    high |= (byte & 0x7f) << shift;
    shift += 7;
  }
  return (high >>> 0) * TWO_POW_32 + low;
}

/** The number of bytes of the varint at `pos`. */
function varintLength(buf: Uint8Array, pos: number): number {
  let length = 1;
  while (buf[pos + length - 1]! >= 0x80) length++;
  return length;
}

/** Where the decoding of a packed run stands: the next byte, the run's end, and the running sum so far. */
export interface DeltaRun {
  pos: number;
  end: number;
  sum: number;
}

/** Points `run` at the packed field in [start, end), from its first value. */
export function startDeltaRun(run: DeltaRun, start: number, end: number): DeltaRun {
  run.pos = start;
  run.end = end;
  run.sum = 0;
  return run;
}

/**
 * Decodes the next packed zigzag varints of `run` as running sums (PBF's delta
 * coding) into `out` from index 0, at most `out.length` of them, and advances
 * `run`; returns how many (0 at the run's end). A run decoded whole needs
 * `out` to hold `end - start` values (a varint takes at least a byte): see
 * `withCapacity`; a long run (a dense node column) can be decoded in chunks.
 */
export function readDeltaSVarints(buf: Uint8Array, run: DeltaRun, out: Float64Array): number {
  const end = run.end;
  const max = out.length;
  let pos = run.pos;
  let count = 0;
  let sum = run.sum;
  while (pos < end && count < max) {
    // a loop rather than unrolled: optimized code then has type feedback for every site once any multi-byte varint was seen
    const first = pos;
    let byte = buf[pos++]!;
    let value = byte & 0x7f;
    for (let shift = 7; byte >= 0x80 && shift < 28; shift += 7) {
      byte = buf[pos++]!;
      value |= (byte & 0x7f) << shift;
    }
    if (byte >= 0x80) {
      value = longVarint(buf, first, value);
      pos = first + varintLength(buf, first);
    }
    // zigzag: 0, -1, 1, -2, …
    sum += value < 0x80000000 ? (value >>> 1) ^ -(value & 1) : value % 2 === 1 ? (value + 1) / -2 : value / 2;
    out[count++] = sum;
  }
  if (pos > end) throw new IngestError('corrupt', 'a packed varint runs past its field');
  run.pos = pos;
  run.sum = sum;
  return count;
}
