/**
 * isoOf's fast path for Postgres's UTC JSON timestamps gives what parsing them into a Date gives, for every
 * number of fraction digits Postgres writes (none to microseconds), and other texts still go through Date.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoOf } from './row-mapping.js';

describe('isoOf', () => {
  it('slices a UTC timestamp text as Date would print it', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }), fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 6 }), (ms, micros, digits) => {
        // as Postgres writes it: trailing zeros of the fraction dropped, no fraction for a whole second
        const fraction = `${String(((ms % 1000) + 1000) % 1000).padStart(3, '0')}${String(micros).padStart(3, '0')}`.slice(0, digits).replace(/0+$/, '');
        const text = `${new Date(ms).toISOString().slice(0, 19)}${fraction ? `.${fraction}` : ''}+00:00`;
        expect(isoOf(text)).toBe(new Date(text).toISOString());
      }),
      { numRuns: 500, seed: 25 },
    );
  });

  it('leaves other offsets, Dates and Postgres text output to Date', () => {
    expect(isoOf('2026-11-29T21:43:46.957191+02:00')).toBe('2026-11-29T19:43:46.957Z');
    expect(isoOf('2026-11-29 19:43:46.5+00')).toBe('2026-11-29T19:43:46.500Z');
    expect(isoOf(new Date(Date.UTC(2026, 10, 29, 19, 43, 46, 957)))).toBe('2026-11-29T19:43:46.957Z');
    expect(() => isoOf('yesterday')).toThrow(RangeError);
  });
});
