import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonString } from './json-text.js';

describe('jsonString', () => {
  it('is JSON.stringify of any text', () => {
    for (const text of ['', 'GET', '127.0.0.1', '/geo?q=%D8%B4&lat=30.1', 'شارع عباس', 'a"b', 'a\\b', '\u0000', '\u001f', '\u007f', '\u2028', '😀', '\ud83d', 'x\ude00', '\ud83d\ude00\ud83d']) {
      expect(jsonString(text)).toBe(JSON.stringify(text));
    }
    fc.assert(fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\ud800', '\udc00', 'ب') })), (text) => jsonString(text) === JSON.stringify(text)), { numRuns: 5_000 });
  });
});
