/**
 * Marching squares over a cost grid: the closed rings bounding the region
 * where cost ≤ level, with crossing points interpolated along cell sides.
 * Segments are oriented with the inside on their left, so outer rings come out
 * counter-clockwise and holes clockwise (the RFC 7946 winding). Saddle cells
 * are resolved by the cell's mean (mean inside: the two inside corners join).
 * The grid's border nodes must be outside, so every ring closes.
 */
import type { CostGrid } from './cost-grid.js';

/** A ring as [lon, lat] positions, first = last. */
export type Ring = [number, number][];

export function contourRings(grid: CostGrid, level: number): Ring[] {
  const { columns, rows, values } = grid;
  const inside = (x: number, y: number) => values[y * columns + x]! <= level;
  // segment from one crossing (keyed by its cell side) to the next
  const next = new Map<number, number>();
  // cell sides: horizontal side from node (x, y) to (x+1, y) = 2k, vertical from (x, y) to (x, y+1) = 2k+1
  const side = (x: number, y: number, vertical: boolean) => 2 * (y * columns + x) + (vertical ? 1 : 0);
  const sides = [0, 0, 0, 0];
  const corner = [false, false, false, false];
  for (let y = 0; y < rows - 1; y++) {
    for (let x = 0; x < columns - 1; x++) {
      // corners counter-clockwise: bottom-left, bottom-right, top-right, top-left
      corner[0] = inside(x, y);
      corner[1] = inside(x + 1, y);
      corner[2] = inside(x + 1, y + 1);
      corner[3] = inside(x, y + 1);
      const insideCount = +corner[0] + +corner[1] + +corner[2] + +corner[3];
      if (insideCount === 0 || insideCount === 4) continue;
      // sides counter-clockwise: bottom (corner 0→1), right (1→2), top (2→3), left (3→0)
      sides[0] = side(x, y, false);
      sides[1] = side(x + 1, y, true);
      sides[2] = side(x, y + 1, false);
      sides[3] = side(x, y, true);
      let exits = 0;
      let firstExit = -1;
      let firstEntry = -1;
      for (let k = 0; k < 4; k++) {
        const here = corner[k]!;
        const after = corner[(k + 1) % 4]!;
        if (here && !after) {
          exits++;
          if (firstExit < 0) firstExit = k;
        }
        if (!here && after && firstEntry < 0) firstEntry = k;
      }
      if (exits === 1) {
        next.set(sides[firstExit]!, sides[firstEntry]!);
        continue;
      }
      // saddle: corners 0 and 2 inside (exits 0 and 2), or 1 and 3 (exits 1 and 3)
      const mean = (values[y * columns + x]! + values[y * columns + x + 1]! + values[(y + 1) * columns + x + 1]! + values[(y + 1) * columns + x]!) / 4;
      const joined = mean <= level;
      for (const exit of [firstExit, firstExit + 2]) {
        // joined: the inside runs on to the next side counter-clockwise; apart: it is cut off at this corner
        const entry = joined ? (exit + 1) % 4 : (exit + 3) % 4;
        next.set(sides[exit]!, sides[entry]!);
      }
    }
  }
  const rings: Ring[] = [];
  const used = new Set<number>();
  for (const start of next.keys()) {
    if (used.has(start)) continue;
    const ring: Ring = [];
    let at: number | undefined = start;
    while (at !== undefined && !used.has(at)) {
      used.add(at);
      ring.push(crossingPoint(grid, at, level));
      at = next.get(at);
    }
    if (ring.length >= 3) {
      ring.push([ring[0]![0], ring[0]![1]]);
      rings.push(ring);
    }
  }
  return rings;
}

/** Where the level crosses a cell side, by linear interpolation between its two nodes. */
function crossingPoint(grid: CostGrid, key: number, level: number): [number, number] {
  const { columns, values } = grid;
  const node = key >> 1;
  const x = node % columns;
  const y = Math.floor(node / columns);
  const vertical = (key & 1) === 1;
  const a = values[node]!;
  const b = values[vertical ? node + columns : node + 1]!;
  const finite = (value: number) => (Number.isFinite(value) ? value : level * 2 + 1e6);
  const va = finite(a);
  const vb = finite(b);
  const t = vb === va ? 0.5 : Math.min(1, Math.max(0, (level - va) / (vb - va)));
  const gx = x + (vertical ? 0 : t);
  const gy = y + (vertical ? t : 0);
  return [grid.originLon + gx * grid.cellLon, grid.originLat + gy * grid.cellLat];
}
