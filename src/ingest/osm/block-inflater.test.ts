import { randomBytes } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BlockInflater } from './block-inflater.js';

const MAX_RAW_BYTES = 32 * 1024 * 1024;

/** Compressible bytes of a given size (text-like, with some noise). */
function block(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  const noise = randomBytes(size >> 4);
  for (let index = 0; index < size; index++) bytes[index] = (index * seed) % 61 ^ noise[index >> 4]! % 3;
  return bytes;
}

describe('BlockInflater', () => {
  it('inflates block after block into one reused buffer on this Node (no fresh buffer per block)', () => {
    const inflater = new BlockInflater();
    const first = block(300_000, 7);
    const second = block(200_000, 13);
    const a = inflater.inflate(deflateSync(first), first.length, MAX_RAW_BYTES);
    expect(Buffer.from(a).equals(first)).toBe(true);
    const b = inflater.inflate(deflateSync(second), second.length, MAX_RAW_BYTES);
    expect(Buffer.from(b).equals(second)).toBe(true);
    expect(b.buffer).toBe(a.buffer);
    expect(inflater.reusedBlocks).toBe(2); // fails if a Node upgrade removed the native handle this relies on
    inflater.close();
  });

  it('gives what inflateSync gives when the declared size is wrong or absent', () => {
    const inflater = new BlockInflater();
    const bytes = block(100_000, 5);
    const compressed = deflateSync(bytes);
    for (const declared of [0, 1_000, 99_999, 100_000, 150_000]) {
      expect(Buffer.from(inflater.inflate(compressed, declared, MAX_RAW_BYTES)).equals(bytes)).toBe(true);
    }
    // and it still reuses its buffer afterwards
    expect(Buffer.from(inflater.inflate(compressed, bytes.length, MAX_RAW_BYTES)).equals(bytes)).toBe(true);
  });

  it('throws inflateSync’s error for a corrupt or truncated block, and inflates the next one', () => {
    const inflater = new BlockInflater();
    const bytes = block(50_000, 3);
    const compressed = deflateSync(bytes);
    const corrupt = Buffer.from(compressed);
    corrupt[10]! ^= 0xff;
    corrupt[11]! ^= 0xff;
    const expected = (() => {
      try {
        inflateSync(corrupt);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(() => inflater.inflate(corrupt, bytes.length, MAX_RAW_BYTES)).toThrow(expected);
    expect(() => inflater.inflate(compressed.subarray(0, 1000), bytes.length, MAX_RAW_BYTES)).toThrow(/unexpected end of file/);
    expect(Buffer.from(inflater.inflate(compressed, bytes.length, MAX_RAW_BYTES)).equals(bytes)).toBe(true);
    expect(inflater.reusedBlocks).toBe(1);
  });
});
