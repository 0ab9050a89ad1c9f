/**
 * A JSON answer written straight into bytes: text parts (keys, numbers, ASCII) are gathered into a
 * string and encoded once per run, while parts kept already encoded (a place's names, often Arabic)
 * are copied in. `JSON.stringify` of an answer with Arabic names makes a two-byte string that then
 * has to be encoded to UTF-8 whole; here only the small dynamic parts are encoded.
 */
export class JsonBytes {
  private buffer: Buffer;
  private length = 0;
  private pending = '';

  constructor(capacityBytes: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(256, capacityBytes));
  }

  /** Appends text that is already JSON (a key, a number, punctuation). */
  text(json: string): this {
    this.pending += json;
    return this;
  }

  /** Appends bytes that are already JSON in UTF-8. */
  bytes(json: Uint8Array): this {
    this.flush();
    this.reserve(json.length);
    this.buffer.set(json, this.length);
    this.length += json.length;
    return this;
  }

  /** The bytes written (a view of the internal buffer: the writer is not used after). */
  finish(): Buffer {
    this.flush();
    return this.buffer.subarray(0, this.length);
  }

  private flush(): void {
    if (this.pending === '') return;
    // UTF-8 takes at most 3 bytes per UTF-16 code unit
    this.reserve(this.pending.length * 3);
    this.length += this.buffer.write(this.pending, this.length, 'utf8');
    this.pending = '';
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

/** A number as JSON.stringify writes it (non-finite numbers are null). */
export function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

const TENTHS = ['.0', '.1', '.2', '.3', '.4', '.5', '.6', '.7', '.8', '.9'];

/**
 * `jsonNumber(Math.round(value * 10) / 10)`, from integers: V8 finds the shortest digits of a double
 * such as 92.7 slowly (~3× an integer's), and screen positions are most of an answer's numbers. The
 * shortest digits of q + d/10 are "q.d" (or "q" when d is 0), so the integer parts give the same text.
 */
export function jsonTenths(value: number): string {
  let tenths = Math.round(value * 10);
  const negative = tenths < 0;
  if (negative) tenths = -tenths;
  if (!(tenths < 2_147_483_647)) return jsonNumber(Math.round(value * 10) / 10);
  const whole = (tenths / 10) | 0;
  const digit = tenths - whole * 10;
  const text = digit === 0 ? String(whole) : whole + TENTHS[digit]!;
  return negative ? `-${text}` : text;
}
