import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTimeAt } from './iso-time.js';

describe('isoTimeAt', () => {
  it('is toISOString of the instant, whatever instants came before', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -8.64e15, max: 8.64e15 }), { minLength: 1, maxLength: 20 }), (instants) => {
        for (const ms of instants) expect(isoTimeAt(ms)).toBe(new Date(ms).toISOString());
      }),
    );
  });

  it('refuses an instant that is not a time, as toISOString does', () => {
    isoTimeAt(0);
    expect(() => isoTimeAt(Number.NaN)).toThrow(RangeError);
    expect(() => isoTimeAt(Number.NaN)).toThrow(RangeError);
  });
});
