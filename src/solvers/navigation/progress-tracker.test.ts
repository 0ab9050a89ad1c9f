/**
 * The per-fix snap (candidates without a Set, candidates that cannot win not projected) must pick exactly
 * what the plain version picks — the same segment, the same numbers, ties included — so clients see the
 * same progress. The plain version is kept here as the reference.
 */
import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_M } from '../graph/geodesy.js';
import { bestCandidate, locateOnRoute, type Fix, type Located } from './progress-tracker.js';
import { RouteLine } from './route-line.js';
import { Random } from '../random.js';

const RAD = Math.PI / 180;
const CELL_METERS = 100;

/** Seeded uniform numbers in [0, 1) (the solvers' mulberry32): the same inputs on every run. */
function uniform(seed: number): () => number {
  const generator = new Random(seed);
  return () => generator.next();
}

/** The grid's segments near a position as a Set collects them: cells row by row, each cell's segments ascending. */
function referenceSegmentsNear(line: RouteLine, lat: number, lng: number, radiusMeters: number): Set<number> {
  const originLat = line.lat[0]!;
  const originLng = line.lng[0]!;
  const metersPerDegreeLng = EARTH_RADIUS_M * RAD * Math.cos(originLat * RAD);
  const rowOf = (value: number) => Math.floor(((value - originLat) * EARTH_RADIUS_M * RAD) / CELL_METERS);
  const columnOf = (value: number) => Math.floor(((value - originLng) * (metersPerDegreeLng || 1)) / CELL_METERS);
  const reach = Math.min(Math.ceil(radiusMeters / CELL_METERS), 20);
  const [row, column] = [rowOf(lat), columnOf(lng)];
  const found = new Set<number>();
  for (let r = row - reach; r <= row + reach; r++) {
    for (let c = column - reach; c <= column + reach; c++) {
      for (let segment = 0; segment + 1 < line.pointCount; segment++) {
        const rows = [rowOf(line.lat[segment]!), rowOf(line.lat[segment + 1]!)];
        const columns = [columnOf(line.lng[segment]!), columnOf(line.lng[segment + 1]!)];
        if (r >= Math.min(...rows) && r <= Math.max(...rows) && c >= Math.min(...columns) && c <= Math.max(...columns)) found.add(segment);
      }
    }
  }
  return found;
}

/** locateOnRoute as it was: every candidate projected, in Set order (the scoring loop is shared; the choice of candidates and the skipping are what changed). */
function referenceLocate(line: RouteLine, fix: Fix, previousAlong: number | undefined, corridorMeters: number): Located {
  const near = [...referenceSegmentsNear(line, fix.lat, fix.lng, Math.min(Math.max(corridorMeters * 3, 150), 1_500))];
  return (bestCandidate(line, fix, previousAlong, corridorMeters, near) ?? bestCandidate(line, fix, previousAlong, corridorMeters, undefined))!;
}

/** A winding route that doubles back on itself and passes the same streets twice (a grid of 60 m blocks). */
function windingLine(random: () => number): RouteLine {
  const points: [number, number][] = [[30.06, 31.33]];
  const step = 60 / (EARTH_RADIUS_M * RAD);
  const directions = [
    [1, 0],
    [0, 1],
    [-1, 0],
    [0, -1],
  ] as const;
  for (let index = 0; index < 120; index++) {
    const [dLat, dLng] = directions[Math.floor(random() * 4)]!;
    const last = points[points.length - 1]!;
    // exact grid coordinates (shared vertices, overlapping segments) and, now and then, a diagonal shortcut
    const skew = index % 7 === 0 ? step * 0.37 : 0;
    points.push([last[0] + dLat * step + skew, last[1] + (dLng * step) / Math.cos(30.06 * RAD)]);
  }
  return RouteLine.fromPoints(points)!;
}

describe('locateOnRoute', () => {
  it('lists the same segments near a position, in the same order, as a Set of the grid cells', () => {
    const random = uniform(7);
    const line = windingLine(random);
    for (let trial = 0; trial < 300; trial++) {
      const lat = line.lat[0]! + (random() - 0.5) * 0.02;
      const lng = line.lng[0]! + (random() - 0.5) * 0.02;
      const radius = [150, 120, 450, 1_500][trial % 4]!;
      expect(line.segmentsNear(lat, lng, radius)).toEqual([...referenceSegmentsNear(line, lat, lng, radius)]);
    }
  });

  it('picks exactly what projecting every candidate picks: on, near and far from the route, with and without heading', () => {
    const random = uniform(11);
    for (let route = 0; route < 4; route++) {
      const line = windingLine(random);
      for (let trial = 0; trial < 500; trial++) {
        const point = Math.floor(random() * line.pointCount);
        // on a vertex exactly, near the route (GPS noise) or well away from it
        const spread = [0, 0.0002, 0.003, 0.03][trial % 4]!;
        const fix: Fix = {
          lat: line.lat[point]! + (random() - 0.5) * spread,
          lng: line.lng[point]! + (random() - 0.5) * spread,
          ...(trial % 3 === 0 ? {} : { heading: Math.floor(random() * 4) * 90 }),
          ...(trial % 5 === 0 ? { speed: 0.5 } : {}),
        };
        const previousAlong = trial % 2 === 0 ? undefined : random() * line.lengthMeters;
        const corridor = trial % 7 === 0 ? 15 : 40;
        expect(locateOnRoute(line, fix, previousAlong, corridor)).toEqual(referenceLocate(line, fix, previousAlong, corridor));
      }
    }
  });
});
