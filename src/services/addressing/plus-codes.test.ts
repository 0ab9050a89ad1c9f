import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePlusCode, encodePlusCode } from './plus-codes.js';

describe('plus codes', () => {
  it('encodes Nasr City at the default length and decodes back to the cell', () => {
    const code = encodePlusCode(30.0626, 31.3219);
    expect(code).toBe('8G2H387C+2Q');
    const decoded = decodePlusCode(code);
    expect(decoded.bounds.south).toBeLessThanOrEqual(30.0626);
    expect(decoded.bounds.north).toBeGreaterThan(30.0626);
  });

  it('gives 10 digits for a requested length of 9, and the lengths asked for otherwise', () => {
    expect(encodePlusCode(30.0626, 31.3219, 8)).toBe('8G2H387C+');
    expect(encodePlusCode(30.0626, 31.3219, 9)).toBe('8G2H387C+2Q');
    expect(encodePlusCode(30.0626, 31.3219, 11).replace('+', '')).toHaveLength(11);
  });

  it('recovers a short code near a reference point', () => {
    expect(decodePlusCode('387C+2Q', { lat: 30.05, lng: 31.3 }).code).toBe('8G2H387C+2Q');
    expect(() => decodePlusCode('387C+2Q')).toThrow(/reference/);
    expect(() => decodePlusCode('not-a-code')).toThrow(/not a valid/);
  });

  it('round-trips: every point lies in the cell of its own code (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: -89.99, max: 89.99, noNaN: true }), fc.double({ min: -179.99, max: 179.99, noNaN: true }), fc.integer({ min: 8, max: 11 }), (lat, lng, length) => {
        const { bounds } = decodePlusCode(encodePlusCode(lat, lng, length));
        expect(lat).toBeGreaterThanOrEqual(bounds.south - 1e-7);
        expect(lat).toBeLessThanOrEqual(bounds.north + 1e-7);
        expect(lng).toBeGreaterThanOrEqual(bounds.west - 1e-7);
        expect(lng).toBeLessThanOrEqual(bounds.east + 1e-7);
      }),
    );
  });
});
