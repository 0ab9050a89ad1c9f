import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBbox, parseTileAddress, tileBbox, tileRange } from './overlay-queries.js';

const bboxArbitrary = fc
  .tuple(fc.double({ min: -179, max: 179, noNaN: true }), fc.double({ min: -80, max: 80, noNaN: true }), fc.double({ min: 0.0001, max: 1, noNaN: true }), fc.double({ min: 0.0001, max: 1, noNaN: true }))
  .map(([west, south, width, height]) => [west, south, west + width, south + height] as [number, number, number, number]);

describe('overlay tile geometry', () => {
  it('the tile range covers every corner of the bbox, and each tile of it meets the bbox', () => {
    fc.assert(
      fc.property(bboxArbitrary, fc.integer({ min: 0, max: 18 }), (bbox, z) => {
        const range = tileRange(bbox, z);
        for (let x = range.minX; x <= range.maxX; x++) {
          for (let y = range.minY; y <= range.maxY; y++) {
            const [west, south, east, north] = tileBbox({ z, x, y });
            expect(west <= bbox[2] + 1e-9 && east >= bbox[0] - 1e-9 && south <= bbox[3] + 1e-9 && north >= bbox[1] - 1e-9).toBe(true);
          }
        }
        expect(range.count).toBe((range.maxX - range.minX + 1) * (range.maxY - range.minY + 1));
      }),
    );
  });

  it('zooming out never needs more tiles', () => {
    fc.assert(
      fc.property(bboxArbitrary, fc.integer({ min: 1, max: 18 }), (bbox, z) => {
        expect(tileRange(bbox, z - 1).count).toBeLessThanOrEqual(tileRange(bbox, z).count);
      }),
    );
  });

  it('refuses what is no bbox or no tile instead of throwing', () => {
    expect(parseBbox('1,2,3')).toMatchObject({ ok: false });
    expect(parseBbox('3,2,1,4')).toMatchObject({ ok: false });
    expect(parseBbox(undefined)).toEqual({ ok: true, value: undefined });
    expect(parseTileAddress('23', '0', '0')).toBeUndefined();
    expect(parseTileAddress('2', '4', '0')).toBeUndefined();
    expect(parseTileAddress('2', '3', '3.pbf')).toEqual({ z: 2, x: 3, y: 3 });
  });
});
