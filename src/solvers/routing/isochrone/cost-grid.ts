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
import { EdgeLineBuffer } from '../edge-geometry.js';
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
  const line = new EdgeLineBuffer(pack);
  let minLat = Infinity, maxLat = -Infinity, minLon = Infinity, maxLon = -Infinity;
  for (const edge of reach.edges) {
    line.load(edge);
    for (let index = 0; index < line.count; index++) {
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
    const at = cy * columns + cx;
    if (cost < values[at]!) values[at] = cost;
    if (cost < values[at + 1]!) values[at + 1] = cost;
    if (cost < values[at + columns]!) values[at + columns] = cost;
    if (cost < values[at + columns + 1]!) values[at + columns + 1] = cost;
  };
  const step = cellMeters / 3;
  for (const edge of reach.edges) {
    line.load(edge);
    // sample fractions in order: even steps, plus where each level is crossed and the origin
    const pieces = Math.max(1, Math.ceil(line.length / step));
    const extra = levels.flatMap((level) => crossings(reach, edge, level));
    const origin = reach.originFraction[edge]!;
    if (!Number.isNaN(origin)) extra.push(origin);
    const fractions = new Float64Array(pieces + 1 + extra.length);
    for (let index = 0; index <= pieces; index++) fractions[index] = index / pieces;
    extra.forEach((fraction, index) => (fractions[pieces + 1 + index] = fraction));
    fractions.sort();
    let segment = 1;
    let previousX = -1;
    let previousY = -1;
    let previousCost = 0;
    for (const fraction of fractions) {
      const cost = costAt(reach, edge, fraction);
      if (!(cost <= top)) {
        previousX = -1;
        continue;
      }
      // the point at this fraction: segments are walked forwards only, as fractions ascend
      const target = fraction * line.length;
      while (segment < line.count - 1 && line.along[segment]! < target) segment++;
      const span = line.along[segment]! - line.along[segment - 1]!;
      const t = span > 0 ? Math.min(1, Math.max(0, (target - line.along[segment - 1]!) / span)) : 0;
      const lat = line.lat[segment - 1]! + t * (line.lat[segment]! - line.lat[segment - 1]!);
      const lon = line.lon[segment - 1]! + t * (line.lon[segment]! - line.lon[segment - 1]!);
      const cx = Math.floor((lon - originLon) / cellLon);
      const cy = Math.floor((lat - originLat) / cellLat);
      mark(cx, cy, cost);
      // a diagonal step between samples: also mark a shared neighbour, so the cells stay edge-connected
      if (previousX >= 0 && previousX !== cx && previousY !== cy) mark(previousX, cy, Math.max(cost, previousCost));
      previousX = cx;
      previousY = cy;
      previousCost = cost;
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
