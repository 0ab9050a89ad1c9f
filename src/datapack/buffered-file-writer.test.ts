import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BufferedFileWriter } from './buffered-file-writer.js';

describe('BufferedFileWriter', () => {
  it('writes small and large chunks with alignment gaps as one positioned write each would', () => {
    const directory = mkdtempSync(join(tmpdir(), 'buffered-writer-'));
    try {
      const path = join(directory, 'out.bin');
      const fd = openSync(path, 'w');
      const writer = new BufferedFileWriter(fd);
      const expected: number[] = [];
      let position = 0;
      // sizes around the buffer's and the direct-write threshold's edges
      for (const [index, size] of [5, 3000, 200_000, 1, 131_072, 262_143, 7, 70_000, 0, 300_000, 13].entries()) {
        const chunk = Uint8Array.from({ length: size }, (_, at) => (at * 31 + index + 1) % 251 || 1);
        const gap = index % 3 === 0 ? 0 : 8 - (size % 8 || 8);
        position += gap;
        for (let at = 0; at < gap; at++) expected.push(0);
        writer.writeAt(position, chunk);
        for (const byte of chunk) expected.push(byte);
        position += size;
      }
      writer.writeAt(position + 3, new Uint8Array(0));
      expected.push(0, 0, 0);
      writer.flush();
      closeSync(fd);
      expect(readFileSync(path).equals(Buffer.from(expected))).toBe(true);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
