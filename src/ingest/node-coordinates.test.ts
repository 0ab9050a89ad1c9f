import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeCoordinates } from './node-coordinates.js';

/** Coordinates as OSM publishes them: PBF's (granularity 100 nanodegrees) and XML's 7-decimal text. */
const fixedLat = fc.integer({ min: -900_000_000, max: 900_000_000 });
const fixedLon = fc.integer({ min: -1_800_000_000, max: 1_800_000_000 });
const pbfDegrees = (fixed: number) => (100 * fixed) / 1e9;
const xmlDegrees = (fixed: number) => Number((fixed / 1e7).toFixed(7));

describe('NodeCoordinates', () => {
  it('gives back the very doubles PBF and XML readers produce, kept as Int32 fixed point, with their pack values', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fixedLat, fixedLon, fc.boolean()), { minLength: 1, maxLength: 50 }), (points) => {
        const store = new NodeCoordinates(points.length + 1);
        const degrees = points.map(([lat, lon, xml]) => (xml ? [xmlDegrees(lat), xmlDegrees(lon)] : [pbfDegrees(lat), pbfDegrees(lon)]) as [number, number]);
        degrees.forEach(([lat, lon], slot) => store.set(slot, lat, lon));
        expect(store.isFloat64).toBe(false);
        degrees.forEach(([lat, lon], slot) => {
          expect([store.lat(slot), store.lon(slot)]).toEqual([lat, lon]);
          expect([store.fixedLat(slot), store.fixedLon(slot)]).toEqual([Math.round(lat * 1e7), Math.round(lon * 1e7)]);
        });
        expect(store.has(points.length)).toBe(false);
      }),
    );
  });

  it('moves to Float64 at a coordinate with more than 7 decimals, keeping what it held', () => {
    const store = new NodeCoordinates(3);
    store.set(0, 43.7384176, 7.4246158);
    store.set(1, 43.73841765432, -7.42461589);
    expect(store.isFloat64).toBe(true);
    expect([store.lat(0), store.lon(0), store.lat(1), store.lon(1)]).toEqual([43.7384176, 7.4246158, 43.73841765432, -7.42461589]);
    expect([store.fixedLat(1), store.fixedLon(1)]).toEqual([437384177, -74246159]);
    expect([store.has(0), store.has(1), store.has(2)]).toEqual([true, true, false]);
  });
});
