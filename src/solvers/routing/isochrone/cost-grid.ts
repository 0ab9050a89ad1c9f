/**
 * The cost surface isochrones are contoured from: a regular grid (local
 * metres) whose nodes hold the least cost of the reached road points nearby.
 * Every sampled road point writes its cost to the four corners of its cell, so
 * a contour at level L encloses every cell holding a road point of cost ≤ L
 * (marching squares treats a cell whose corners are all ≤ L as inside); the
 * cost then spreads a few cells off the road at a walking pace, which rounds
 * the shapes and closes slivers between parallel roads.
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import { EARTH_RADIUS_M } from '../../graph/geodesy.js';
import { edgeLine, pointAt } from '../edge-geometry.js';
import { costAt, crossings, type Reach } from './reach-search.js';

const RAD = Math.PI / 180;
/** Cells the cost spreads off the road. */
const SPREAD_CELLS = 2;
/** Off-road pace for the spread: walking (s per m), or metres per metre for distance contours. */
const OFF_ROAD_SECONDS_PER_METER = 1 / 1.4;
/** Grid resolution: about this many cells across the reached area, within the cell size bounds. */
const CELLS_ACROSS = 240;
const MIN_CELL_METERS = 10;
const MAX_CELL_METERS = 2_000;

export interface CostGrid {
  /** Nodes per row (x, eastwards) and rows (y, northwards). */
  columns: number;
  rows: number;
  /** values[y * columns + x]; Infinity where nothing is reached. */
  values: Float64Array;
  /** Degrees of the node (0, 0) and per cell. */
  originLat: number;
  originLon: number;
  cellLat: number;
  cellLon: number;
  cellMeters: number;
}

export function buildCostGrid(pack: MapPack, reach: Reach, levels: readonly number[]): CostGrid {
  // the reached road points, sampled later at the grid's resolution; first the extent
  const lines = reach.edges.map((edge) => ({ edge, line: edgeLine(pack, edge) }));
  let minLat = Infinity, maxLat = -Infinity, minLon = Infinity, maxLon = -Infinity;
  for (const { line } of lines) {
    for (let index = 0; index < line.lat.length; index++) {
      minLat = Math.min(minLat, line.lat[index]!); maxLat = Math.max(maxLat, line.lat[index]!);
      minLon = Math.min(minLon, line.lon[index]!); maxLon = Math.max(maxLon, line.lon[index]!);
    }
  }
  const metersPerDegreeLat = EARTH_RADIUS_M * RAD;
  const metersPerDegreeLon = metersPerDegreeLat * Math.cos(((minLat + maxLat) / 2) * RAD);
  const span = Math.max((maxLat - minLat) * metersPerDegreeLat, (maxLon - minLon) * metersPerDegreeLon);
  const cellMeters = Math.min(MAX_CELL_METERS, Math.max(MIN_CELL_METERS, span / CELLS_ACROSS));
  const cellLat = cellMeters / metersPerDegreeLat;
  const cellLon = cellMeters / metersPerDegreeLon;
  const margin = SPREAD_CELLS + 2;
  const originLat = minLat - margin * cellLat;
  const originLon = minLon - margin * cellLon;
  const columns = Math.ceil((maxLon - originLon) / cellLon) + margin + 1;
  const rows = Math.ceil((maxLat - originLat) / cellLat) + margin + 1;
  const values = new Float64Array(columns * rows).fill(Infinity);
  const grid: CostGrid = { columns, rows, values, originLat, originLon, cellLat, cellLon, cellMeters };

  const top = Math.max(...levels);
  const mark = (cx: number, cy: number, cost: number) => {
    for (const at of [cy * columns + cx, cy * columns + cx + 1, (cy + 1) * columns + cx, (cy + 1) * columns + cx + 1]) {
      if (cost < values[at]!) values[at] = cost;
    }
  };
  const step = cellMeters / 3;
  for (const { edge, line } of lines) {
    const fractions = new Set<number>();
    const pieces = Math.max(1, Math.ceil(line.length / step));
    for (let index = 0; index <= pieces; index++) fractions.add(index / pieces);
    for (const level of levels) for (const fraction of crossings(reach, edge, level)) fractions.add(fraction);
    const origin = reach.originFraction[edge]!;
    if (!Number.isNaN(origin)) fractions.add(origin);
    let previous: { cx: number; cy: number; cost: number } | undefined;
    for (const fraction of [...fractions].sort((a, b) => a - b)) {
      const cost = costAt(reach, edge, fraction);
      if (!(cost <= top)) {
        previous = undefined;
        continue;
      }
      const [lat, lon] = pointAt(line, fraction);
      const cx = Math.floor((lon - originLon) / cellLon);
      const cy = Math.floor((lat - originLat) / cellLat);
      mark(cx, cy, cost);
      // a diagonal step between samples: also mark a shared neighbour, so the cells stay edge-connected
      if (previous && previous.cx !== cx && previous.cy !== cy) mark(previous.cx, cy, Math.max(cost, previous.cost));
      previous = { cx, cy, cost };
    }
  }
  spread(grid, reach.metric === 'time' ? OFF_ROAD_SECONDS_PER_METER : 1);
  return grid;
}

/** Lowers each node to min(own, neighbour + off-road cost) within SPREAD_CELLS (from the road values only). */
function spread(grid: CostGrid, costPerMeter: number): void {
  const { columns, rows, values, cellMeters } = grid;
  const source = values.slice();
  const offsets: { dx: number; dy: number; cost: number }[] = [];
  for (let dy = -SPREAD_CELLS; dy <= SPREAD_CELLS; dy++) {
    for (let dx = -SPREAD_CELLS; dx <= SPREAD_CELLS; dx++) {
      const meters = Math.hypot(dx, dy) * cellMeters;
      if ((dx || dy) && meters <= SPREAD_CELLS * cellMeters) offsets.push({ dx, dy, cost: meters * costPerMeter });
    }
  }
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      const value = source[y * columns + x]!;
      if (value === Infinity) continue;
      for (const { dx, dy, cost } of offsets) {
        const nx = x + dx;
        const ny = y + dy;
        // the outermost nodes stay unreached so every contour closes inside the grid
        if (nx < 1 || ny < 1 || nx >= columns - 1 || ny >= rows - 1) continue;
        const at = ny * columns + nx;
        if (value + cost < values[at]!) values[at] = value + cost;
      }
    }
  }
}
