/**
 * Protobuf wire-format reading for the PBF block decoder, over one inflated
 * block. The hot paths (a dense node block's id, lat and lon columns, a way's
 * node references) are packed varint runs: `readDeltaSVarints` decodes a run
 * in one loop with the position in a local variable, into a reused array,
 * where a general reader (the `pbf` package) pays a method call and a field
 * store per varint and a callback per field.
 *
 * Varints decode to JS numbers, exact up to 2^53 (OSM ids and coordinates are
 * far below); a 64-bit varint with its top bit set is a negative int64.
 * Format: https://protobuf.dev/programming-guides/encoding/
 */
import { IngestError } from '../ingest-error.js';

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

const TWO_POW_28 = 0x10000000;
const TWO_POW_32 = 0x100000000;

/**
 * The varint at `pos` whose first four bytes all have their continuation bit
 * (the rare long case), as a signed int64. `low28` holds those bytes' 28 bits.
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
  // `high | 0` reads the high word as two's complement: a negative int64
  return (high | 0) * TWO_POW_32 + low;
}

/** The number of bytes of the varint at `pos`. */
function varintLength(buf: Uint8Array, pos: number): number {
  let length = 1;
  while (buf[pos + length - 1]! >= 0x80) length++;
  return length;
}

/** Zigzag decoding (sint32/sint64): 0, -1, 1, -2, … */
function unzigzag(value: number): number {
  return value < 0x80000000 ? (value >>> 1) ^ -(value & 1) : value % 2 === 1 ? (value + 1) / -2 : value / 2;
}

/** `array` if it holds at least `length` values, else a larger one (contents not kept). */
export function withCapacity(array: Float64Array, length: number): Float64Array {
  return array.length >= length ? array : new Float64Array(Math.max(length, array.length * 2));
}

/**
 * Decodes the packed zigzag varints in [start, end) as running sums (PBF's
 * delta coding of ids, coordinates and way references) into `out` from index
 * 0; returns how many. `out` must hold `end - start` values (a varint takes at
 * least a byte): see `withCapacity`.
 */
export function readDeltaSVarints(buf: Uint8Array, start: number, end: number, out: Float64Array): number {
  let pos = start;
  let count = 0;
  let sum = 0;
  while (pos < end) {
    let byte = buf[pos]!;
    let value = byte & 0x7f;
    if (byte < 0x80) pos += 1;
    else {
      byte = buf[pos + 1]!;
      value |= (byte & 0x7f) << 7;
      if (byte < 0x80) pos += 2;
      else {
        byte = buf[pos + 2]!;
        value |= (byte & 0x7f) << 14;
        if (byte < 0x80) pos += 3;
        else {
          byte = buf[pos + 3]!;
          value |= (byte & 0x7f) << 21;
          if (byte < 0x80) pos += 4;
          else {
            value = longVarint(buf, pos, value);
            // a zigzag value is unsigned: undo longVarint's signed reading
            if (value < 0) value += 2 ** 64;
            pos += varintLength(buf, pos);
          }
        }
      }
    }
    sum += unzigzag(value);
    out[count++] = sum;
  }
  if (pos !== end) throw new IngestError('corrupt', 'a packed varint runs past its field');
  return count;
}

/** A cursor over a protobuf message (or part of one) for the decoder's field-by-field reading. */
export class WireReader {
  buf: Uint8Array = new Uint8Array(0);
  pos = 0;
  end = 0;

  /** Reads `buf[start, end)`. */
  reset(buf: Uint8Array, start: number, end: number): this {
    if (end > buf.length) throw new IngestError('corrupt', 'a field runs past the end of its block');
    this.buf = buf;
    this.pos = start;
    this.end = end;
    return this;
  }

  get more(): boolean {
    return this.pos < this.end;
  }

  /** A varint: uint32/uint64, or int64 (a 10-byte varint with the top bit set is negative). */
  varint(): number {
    const buf = this.buf;
    const pos = this.pos;
    let byte = buf[pos]!;
    let value = byte & 0x7f;
    if (byte < 0x80) {
      this.pos = pos + 1;
      return value;
    }
    byte = buf[pos + 1]!;
    value |= (byte & 0x7f) << 7;
    if (byte < 0x80) {
      this.pos = pos + 2;
      return value;
    }
    byte = buf[pos + 2]!;
    value |= (byte & 0x7f) << 14;
    if (byte < 0x80) {
      this.pos = pos + 3;
      return value;
    }
    byte = buf[pos + 3]!;
    value |= (byte & 0x7f) << 21;
    if (byte < 0x80) {
      this.pos = pos + 4;
      return value;
    }
    value = longVarint(buf, pos, value);
    this.pos = pos + varintLength(buf, pos);
    if (this.pos > this.end) throw new IngestError('corrupt', 'a varint runs past the end of its message');
    return value;
  }

  /** A zigzag varint (sint32/sint64). */
  svarint(): number {
    const value = this.varint();
    return unzigzag(value < 0 ? value + 2 ** 64 : value);
  }

  /** A length-delimited field's length, checked against the message's end; the cursor is then at its start. */
  length(): number {
    const length = this.varint();
    if (length < 0 || this.pos + length > this.end) throw new IngestError('corrupt', 'a length-delimited field runs past the end of its message');
    return length;
  }

  /** Skips a field of the given wire type (the tag already read). */
  skip(wireType: number): void {
    if (wireType === WIRE_VARINT) this.pos += varintLength(this.buf, this.pos);
    else if (wireType === WIRE_BYTES) {
      const length = this.length(); // (not `pos += length()`: that would add to the position before the length's varint)
      this.pos += length;
    }
    else if (wireType === WIRE_FIXED64) this.pos += 8;
    else if (wireType === WIRE_FIXED32) this.pos += 4;
    else throw new IngestError('corrupt', `unsupported protobuf wire type ${wireType}`);
    if (this.pos > this.end) throw new IngestError('corrupt', 'a field runs past the end of its message');
  }
}
