import { describe, expect, it } from 'vitest';
import { ChunkedColumn } from './chunked-column.js';

const concat = (chunks: Int32Array[]) => chunks.flatMap((chunk) => Array.from(chunk));

describe('ChunkedColumn', () => {
  it('keeps pushed and reserved values in order across chunks, without copying filled chunks', () => {
    const column = new ChunkedColumn(Int32Array, 4);
    const expected: number[] = [];
    for (let value = 0; value < 200_000; value++) {
      if (value % 1000 === 0) {
        // a run of 300 that must sit in one chunk (a feature's points)
        const array = column.reserve(300);
        for (let index = 0; index < 300; index++) array[column.end + index] = -(value + index + 1);
        column.advance(300);
        for (let index = 0; index < 300; index++) expected.push(-(value + index + 1));
      }
      column.push(value);
      expected.push(value);
    }
    const chunks = column.chunks();
    expect(column.length).toBe(expected.length);
    expect(concat(chunks)).toEqual(expected);
    // chunks grow like a doubling array's capacity, up to 64 Ki values each
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThanOrEqual(1 << 16);
    expect(chunks[0]!.length).toBe(300); // the first reserve did not fit the empty 4-value chunk, which is dropped
    // views, not copies: later pushes leave the filled chunks where they are
    const buffers = chunks.slice(0, -1).map((chunk) => chunk.buffer);
    for (let value = 0; value < 100_000; value++) column.push(value);
    expect(column.chunks().slice(0, buffers.length).map((chunk) => chunk.buffer)).toEqual(buffers);
  });

  it('gives no chunks when empty', () => {
    expect(new ChunkedColumn(Uint8Array).chunks()).toEqual([]);
  });
});
