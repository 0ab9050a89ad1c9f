import { describe, expect, it } from 'vitest';
import { GrowableArray } from './growable-array.js';
import { RELEASE_MIN_BYTES, releaseBuffer } from './release-buffer.js';

describe('releaseBuffer', () => {
  it('detaches a large buffer viewed whole: its views read as empty', () => {
    const view = new Float64Array(RELEASE_MIN_BYTES / 8);
    const other = new Uint8Array(view.buffer);
    expect(releaseBuffer(view)).toBe(true);
    expect(view.length).toBe(0);
    expect(other.length).toBe(0);
    expect(view.buffer.byteLength).toBe(0);
    expect(releaseBuffer(view)).toBe(false); // detached already
  });

  it('detaches a view that leaves only the unused tail it names (zlib output: one spare byte)', () => {
    const buffer = new ArrayBuffer(RELEASE_MIN_BYTES + 1);
    expect(releaseBuffer(new Uint8Array(buffer, 0, RELEASE_MIN_BYTES))).toBe(false);
    expect(releaseBuffer(new Uint8Array(buffer, 0, RELEASE_MIN_BYTES), 1)).toBe(true);
    expect(buffer.byteLength).toBe(0);
  });

  it('refuses a view of part of its buffer: the rest may be another view (a pack section)', () => {
    const whole = new Uint32Array(RELEASE_MIN_BYTES);
    const section = whole.subarray(0, 10);
    const tail = whole.subarray(10);
    section[0] = 7;
    expect(releaseBuffer(section)).toBe(false);
    expect(releaseBuffer(tail)).toBe(false);
    expect(section[0]).toBe(7);
    expect(whole.length).toBe(RELEASE_MIN_BYTES);
  });

  it("refuses Node's Buffer pool, small buffers and shared memory", () => {
    const pooled = Buffer.allocUnsafe(100);
    const neighbour = Buffer.allocUnsafe(100).fill(1);
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length); // a slice of the 8 KiB pool
    expect(releaseBuffer(pooled)).toBe(false);
    expect(releaseBuffer(new Uint8Array(pooled.buffer))).toBe(false); // the whole pool: below the size, and untransferable
    expect(neighbour[99]).toBe(1);
    expect(releaseBuffer(new Uint8Array(RELEASE_MIN_BYTES - 1))).toBe(false);
    const shared = new Uint8Array(new SharedArrayBuffer(RELEASE_MIN_BYTES));
    expect(releaseBuffer(shared)).toBe(false);
    expect(shared.length).toBe(RELEASE_MIN_BYTES);
  });
});

describe('GrowableArray releasing what it outgrows', () => {
  it('releases the old backing array when it grows, keeping the values', () => {
    const list = new GrowableArray(Float64Array, RELEASE_MIN_BYTES / 8);
    const before = list.array;
    for (let index = 0; index <= RELEASE_MIN_BYTES / 8; index++) list.push(index);
    expect(before.length).toBe(0);
    expect(list.array[RELEASE_MIN_BYTES / 8]).toBe(RELEASE_MIN_BYTES / 8);
    expect(list.array[1]).toBe(1);
  });

  it('never releases an array that toArray handed out as a view (a pack section)', () => {
    const list = new GrowableArray(Uint32Array, RELEASE_MIN_BYTES / 4);
    list.push(42);
    const section = list.toArray();
    list.reserve(RELEASE_MIN_BYTES);
    list.release();
    expect(Array.from(section)).toEqual([42]);
  });

  it('release() frees the backing array and leaves the list empty and usable', () => {
    const list = new GrowableArray(Int32Array, RELEASE_MIN_BYTES / 4);
    const before = list.array;
    list.push(1);
    list.release();
    expect(before.length).toBe(0);
    expect(list.length).toBe(0);
    list.push(5);
    expect(Array.from(list.toArray())).toEqual([5]);
  });
});
