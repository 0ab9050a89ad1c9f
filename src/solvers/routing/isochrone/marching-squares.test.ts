import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CostGrid } from './cost-grid.js';
import { contourRings, type Ring } from './marching-squares.js';

/** A grid of unit cells at the origin (so positions are node indexes), from rows listed north to south. */
function gridOf(rows: number[][]): CostGrid {
  const height = rows.length;
  const width = rows[0]!.length;
  const values = new Float64Array(width * height);
  rows.forEach((row, index) => row.forEach((value, x) => (values[(height - 1 - index) * width + x] = value)));
  return { columns: width, rows: height, values, originLat: 0, originLon: 0, cellLat: 1, cellLon: 1, cellMeters: 1 };
}

const signedArea = (ring: Ring) => ring.slice(0, -1).reduce((sum, [x, y], index) => sum + x * ring[index + 1]![1] - ring[index + 1]![0] * y, 0) / 2;

/** Even-odd rule over all rings. */
function enclosed(rings: Ring[], x: number, y: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let index = 0, previous = ring.length - 2; index < ring.length - 1; previous = index++) {
      const [xi, yi] = ring[index]!;
      const [xj, yj] = ring[previous]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

describe('marching squares', () => {
  it('draws one counter-clockwise ring around a single low node, crossing midway', () => {
    const rings = contourRings(gridOf([[9, 9, 9], [9, 0, 9], [9, 9, 9]]), 4.5);
    expect(rings).toHaveLength(1);
    expect(signedArea(rings[0]!)).toBeGreaterThan(0);
    expect(rings[0]![0]).toEqual(rings[0]![rings[0]!.length - 1]);
    for (const [x, y] of rings[0]!) expect(Math.abs(x - 1) + Math.abs(y - 1)).toBeCloseTo(0.5);
  });

  it('gives a hole as a clockwise ring inside the outer one', () => {
    const rings = contourRings(
      gridOf([
        [9, 9, 9, 9, 9],
        [9, 0, 0, 0, 9],
        [9, 0, 9, 0, 9],
        [9, 0, 0, 0, 9],
        [9, 9, 9, 9, 9],
      ]),
      1,
    );
    expect(rings).toHaveLength(2);
    const areas = rings.map(signedArea).sort((a, b) => a - b);
    expect(areas[0]).toBeLessThan(0);
    expect(areas[1]).toBeGreaterThan(0);
  });

  it('encloses exactly the nodes at or under the level (property, random grids)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 9 }), fc.integer({ min: 3, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 81, maxLength: 81 }), (width, height, cells) => {
        // border nodes stay above every level, as the cost grid guarantees
        const rows = Array.from({ length: height + 2 }, (_, y) => Array.from({ length: width + 2 }, (_, x) => (x === 0 || y === 0 || x === width + 1 || y === height + 1 ? 99 : cells[(y - 1) * 9 + (x - 1)]!)));
        const grid = gridOf(rows);
        const rings = contourRings(grid, 4.5);
        for (const ring of rings) expect(ring[0]).toEqual(ring[ring.length - 1]);
        for (let y = 0; y < grid.rows; y++) {
          for (let x = 0; x < grid.columns; x++) expect(enclosed(rings, x, y)).toBe(grid.values[y * grid.columns + x]! <= 4.5);
        }
        // the area inside is the sum of signed areas: outer rings count, holes subtract
        expect(rings.reduce((sum, ring) => sum + signedArea(ring), 0)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
});
