/**
 * A JSON answer written straight into bytes: punctuation, keys and numbers are written as ASCII
 * bytes where they are made (no string is built for them), text that may be non-ASCII is encoded as
 * it comes, and parts kept already encoded (a place's names, often Arabic) are copied in. The
 * buffer is kept across answers (`finish` hands out a copy of the exact size and starts over), so a
 * 67 KB answer leaves one allocation behind it, not the strings and buffers it was made of.
 */
export class JsonBytes {
  private buffer: Buffer;
  private length = 0;

  constructor(capacityBytes: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(256, capacityBytes));
  }

  /** Appends text that is already JSON (any characters). */
  text(json: string): this {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit
    this.reserve(json.length * 3);
    this.length += this.buffer.write(json, this.length, 'utf8');
    return this;
  }

  /** Appends JSON text known to be ASCII (keys, numbers), a byte per character. */
  ascii(json: string): this {
    this.reserve(json.length);
    const buffer = this.buffer;
    let at = this.length;
    for (let index = 0; index < json.length; index++) buffer[at++] = json.charCodeAt(index);
    this.length = at;
    return this;
  }

  /** Appends bytes that are already JSON in UTF-8. */
  bytes(json: Uint8Array): this {
    this.reserve(json.length);
    const buffer = this.buffer;
    let at = this.length;
    // short constants are copied faster by hand than through `set`
    if (json.length < 32) for (let index = 0; index < json.length; index++) buffer[at++] = json[index]!;
    else {
      buffer.set(json, at);
      at += json.length;
    }
    this.length = at;
    return this;
  }

  /** Appends `jsonTenths(value)`, its digits written straight from the integer tenths. */
  tenths(value: number): this {
    let tenths = Math.round(value * 10);
    if (!(tenths < 2_147_483_647 && tenths > -2_147_483_647)) return this.ascii(jsonTenths(value));
    this.reserve(14);
    const buffer = this.buffer;
    // -0 (a value rounding to zero from below) is written 0, as JSON.stringify does
    if (tenths < 0) {
      buffer[this.length++] = 0x2d;
      tenths = -tenths;
    }
    const whole = (tenths / 10) | 0;
    const digit = tenths - whole * 10;
    this.digits(whole);
    if (digit !== 0) {
      buffer[this.length++] = 0x2e;
      buffer[this.length++] = 0x30 + digit;
    }
    return this;
  }

  /**
   * Appends a number as JSON.stringify writes it. Digits straight from the integer when it is one below 2^31;
   * otherwise through `JSON.stringify`, never `String(value)`: see JsonNumberList.
   */
  number(value: number): this {
    if (!(value >= 0 && value < 2_147_483_647 && (value | 0) === value)) return this.ascii(JSON.stringify(value));
    this.reserve(10);
    this.digits(value);
    return this;
  }

  /** Appends `text.slice(start, end)`, text known to be ASCII, with no string made for the slice. */
  asciiRange(text: string, start: number, end: number): this {
    this.reserve(end - start);
    const buffer = this.buffer;
    let at = this.length;
    for (let index = start; index < end; index++) buffer[at++] = text.charCodeAt(index);
    this.length = at;
    return this;
  }

  /** The bytes written, as a buffer of their own; the writer starts over empty. */
  finish(): Buffer {
    const answer = Buffer.allocUnsafe(this.length);
    this.buffer.copy(answer, 0, 0, this.length);
    this.length = 0;
    return answer;
  }

  /** A non-negative integer below 2^31 in decimal. */
  private digits(value: number): void {
    let width = 1;
    for (let rest = value; rest >= 10; rest = (rest / 10) | 0) width++;
    const buffer = this.buffer;
    let at = this.length + width;
    this.length = at;
    let rest = value;
    do {
      const next = (rest / 10) | 0;
      buffer[--at] = 0x30 + rest - next * 10;
      rest = next;
    } while (rest > 0);
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

/**
 * Many numbers as JSON.stringify writes them, from one `JSON.stringify` of them all, handed out in turn.
 *
 * Not `String(value)` per number: V8 keeps every number it turns into a string that way in its number-string
 * cache, which lives in the old generation and is emptied only by a mark-compact. Each new double then leaves its
 * string (and the number) reachable from the old generation: they survive the scavenges, get promoted, and fill
 * the old generation until a mark-compact, whose marking steps stall requests. `/map/poi` wrote ~400 cluster means a
 * request that way: ~2.7 MB promoted a scavenge, and each scavenge had the cache's thousands of old-to-new slots to
 * visit (docs/map-data.md). JSON.stringify formats numbers without the cache, and one call for all of them costs
 * less than a call each.
 */
export class JsonNumberList {
  private json = '[]';
  private at = 1;

  /** Starts over with `values`. */
  reset(values: readonly number[]): this {
    this.json = JSON.stringify(values);
    this.at = 1;
    return this;
  }

  /** Appends the next number to `out`. */
  writeNext(out: JsonBytes): void {
    const json = this.json;
    let end = this.at;
    // the numbers are ASCII without commas or brackets: the next one ends at a comma or the closing bracket
    while (end < json.length - 1 && json.charCodeAt(end) !== 0x2c) end++;
    out.asciiRange(json, this.at, end);
    this.at = end + 1;
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
