/**
 * A route as a measured line for tracking positions along it: points,
 * distance from the start at every point, the time left at every point, and
 * a grid of its segments for finding the nearest one anywhere on the route.
 * Built once per route (a session keeps it); every fix then costs a local
 * search of a few segments.
 */
import polyline from '@mapbox/polyline';
import { EARTH_RADIUS_M, haversineMeters } from '../graph/geodesy.js';
import { projectionParameter } from '../graph/planar.js';

const RAD = Math.PI / 180;
const CELL_METERS = 100;
const MAX_REACH_CELLS = 20;
/** A cell's key is row × stride + column: rows never overlap while columns stay within ± half the stride (50 000 km of 100 m cells). */
const ROW_KEY_STRIDE = 1_000_003;

export interface RouteManeuverMark {
  /** Metres from the route start where the maneuver begins. */
  cumulativeMeters: number;
  /** Seconds the maneuver takes (to the next one), when known. */
  timeSeconds?: number;
}

export interface RouteLineOptions {
  maneuvers?: readonly RouteManeuverMark[];
  /** Travel time of the whole route without traffic (s); spread by distance where maneuvers give no times. */
  baseSeconds?: number;
  /** Overrides the measured length (m): remaining distances are scaled to it. */
  totalMeters?: number;
}

export class RouteLine {
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  /** Metres from the start to each point. */
  readonly along: Float64Array;
  /** Seconds from each point to the end. */
  readonly secondsLeft: Float64Array;
  readonly lengthMeters: number;
  readonly maneuvers: readonly RouteManeuverMark[];
  private readonly metersPerDegreeLng: number;
  /**
   * The grid as three flat arrays (sorted cell keys, where each cell's segments start, the
   * segments): a few objects per route instead of one array per cell, because thousands of
   * sessions keep their route lines alive and every object is work for each full GC.
   */
  private readonly cellKeys: Float64Array;
  private readonly cellStart: Int32Array;
  private readonly cellSegments: Int32Array;
  /**
   * Each segment's lowest grid row and column (the corner of its box; row at 2s, column at 2s + 1), for
   * `segmentsNear`'s once-only rule: worked out per segment and fix, they were most of its cost.
   */
  private readonly segmentCorners: Int32Array;
  private readonly originLat: number;
  private readonly originLng: number;

  private constructor(points: [number, number][], options: RouteLineOptions) {
    const count = points.length;
    this.lat = new Float64Array(count);
    this.lng = new Float64Array(count);
    this.along = new Float64Array(count);
    for (let index = 0; index < count; index++) {
      this.lat[index] = points[index]![0];
      this.lng[index] = points[index]![1];
      if (index > 0) this.along[index] = this.along[index - 1]! + haversineMeters(this.lat[index - 1]!, this.lng[index - 1]!, this.lat[index]!, this.lng[index]!);
    }
    const measured = this.along[count - 1]!;
    if (options.totalMeters && measured > 0) {
      const scale = options.totalMeters / measured;
      for (let index = 0; index < count; index++) this.along[index] = this.along[index]! * scale;
    }
    this.lengthMeters = this.along[count - 1]!;
    this.maneuvers = options.maneuvers ?? [];
    this.secondsLeft = secondsLeftAlong(this.along, this.maneuvers, options.baseSeconds);
    this.originLat = this.lat[0]!;
    this.originLng = this.lng[0]!;
    this.metersPerDegreeLng = EARTH_RADIUS_M * RAD * Math.cos(this.originLat * RAD);
    const entries: { key: number; segment: number }[] = [];
    this.segmentCorners = new Int32Array(2 * (count - 1));
    for (let segment = 0; segment + 1 < count; segment++) {
      const [r0, c0] = this.cell(this.lat[segment]!, this.lng[segment]!);
      const [r1, c1] = this.cell(this.lat[segment + 1]!, this.lng[segment + 1]!);
      this.segmentCorners[2 * segment] = Math.min(r0, r1);
      this.segmentCorners[2 * segment + 1] = Math.min(c0, c1);
      for (let r = Math.min(r0, r1); r <= Math.max(r0, r1); r++) {
        for (let c = Math.min(c0, c1); c <= Math.max(c0, c1); c++) entries.push({ key: r * ROW_KEY_STRIDE + c, segment });
      }
    }
    entries.sort((a, b) => a.key - b.key || a.segment - b.segment);
    const keys: number[] = [];
    const starts: number[] = [];
    entries.forEach((entry, index) => {
      if (index === 0 || entry.key !== entries[index - 1]!.key) {
        keys.push(entry.key);
        starts.push(index);
      }
    });
    starts.push(entries.length);
    this.cellKeys = Float64Array.from(keys);
    this.cellStart = Int32Array.from(starts);
    this.cellSegments = Int32Array.from(entries, (entry) => entry.segment);
  }

  /** From a polyline6 shape; undefined when it has fewer than 2 distinct points. */
  static fromShape(shape: string, options: RouteLineOptions = {}): RouteLine | undefined {
    let points: [number, number][];
    try {
      points = polyline.decode(shape, 6);
    } catch {
      return undefined;
    }
    return RouteLine.fromPoints(points, options);
  }

  /** From [lat, lng] points; undefined when fewer than 2 distinct, finite points. */
  static fromPoints(points: [number, number][], options: RouteLineOptions = {}): RouteLine | undefined {
    const clean = points.filter(([lat, lng], index) => Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && (index === 0 || lat !== points[index - 1]![0] || lng !== points[index - 1]![1]));
    if (clean.length < 2) return undefined;
    return new RouteLine(clean, options);
  }

  get pointCount(): number {
    return this.lat.length;
  }

  /**
   * Segments whose grid cells lie within `radiusMeters` of the position, each once, in the order the cells are
   * scanned (row by row, then by segment). A segment sits in every cell of its bounding box, so instead of a
   * `Set` (a hash table per fix, the tracker's main allocation) a segment is taken only in the first scanned
   * cell of its box: the same segments in the same order, as a plain array of small integers.
   */
  segmentsNear(lat: number, lng: number, radiusMeters: number): number[] {
    const row = this.rowOf(lat);
    const column = this.columnOf(lng);
    // bounded: the grid is sparse, a radius of kilometres is a few hundred lookups at most
    const reach = Math.min(Math.ceil(radiusMeters / CELL_METERS), MAX_REACH_CELLS);
    const firstRow = row - reach;
    const firstColumn = column - reach;
    const keys = this.cellKeys;
    const found: number[] = [];
    for (let r = firstRow; r <= row + reach; r++) {
      // a row's cells have consecutive keys: one search for the row's first, then the occupied cells in order
      // (a search per cell of the window, occupied or not, was the tracker's largest cost)
      const rowKey = r * ROW_KEY_STRIDE;
      const lastKey = rowKey + column + reach;
      for (let cell = this.firstCellFrom(rowKey + firstColumn); cell < keys.length && keys[cell]! <= lastKey; cell++) {
        const c = keys[cell]! - rowKey;
        for (let at = this.cellStart[cell]!; at < this.cellStart[cell + 1]!; at++) {
          const segment = this.cellSegments[at]!;
          // the first scanned cell of the segment's box: its lowest row and column inside the search window
          const boxRow = this.segmentCorners[2 * segment]!;
          if (r !== (boxRow > firstRow ? boxRow : firstRow)) continue;
          const boxColumn = this.segmentCorners[2 * segment + 1]!;
          if (c === (boxColumn > firstColumn ? boxColumn : firstColumn)) found.push(segment);
        }
      }
    }
    return found;
  }

  /**
   * A lower bound of `project(segment, lat, lng).distanceMeters` (the same planar arithmetic, without
   * `Math.hypot`, the bearing or an answer object): lets the tracker skip the full projection of candidates
   * that cannot win. `Math.hypot` and `Math.sqrt` of the same squares may differ in the last bit, hence the
   * margin of one part in 10^9.
   */
  distanceLowerBound(segment: number, lat: number, lng: number): number {
    const ax = (this.lng[segment]! - lng) * this.metersPerDegreeLng;
    const ay = (this.lat[segment]! - lat) * EARTH_RADIUS_M * RAD;
    const bx = (this.lng[segment + 1]! - lng) * this.metersPerDegreeLng;
    const by = (this.lat[segment + 1]! - lat) * EARTH_RADIUS_M * RAD;
    const t = projectionParameter(ax, ay, bx, by);
    const px = ax + t * (bx - ax);
    const py = ay + t * (by - ay);
    return Math.sqrt(px * px + py * py) * (1 - 1e-9);
  }

  /** The first segment that ends at or after `meters` along the route. */
  segmentAt(meters: number): number {
    let low = 0;
    let high = this.pointCount - 2;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.along[middle + 1]! < meters) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Projects a position onto one segment (local planar approximation, metres). */
  project(segment: number, lat: number, lng: number): { t: number; distanceMeters: number; lat: number; lng: number; alongMeters: number; bearing: number } {
    const ax = (this.lng[segment]! - lng) * this.metersPerDegreeLng;
    const ay = (this.lat[segment]! - lat) * EARTH_RADIUS_M * RAD;
    const bx = (this.lng[segment + 1]! - lng) * this.metersPerDegreeLng;
    const by = (this.lat[segment + 1]! - lat) * EARTH_RADIUS_M * RAD;
    const t = projectionParameter(ax, ay, bx, by);
    const dx = bx - ax;
    const dy = by - ay;
    const px = ax + t * dx;
    const py = ay + t * dy;
    const start = this.along[segment]!;
    return {
      t,
      distanceMeters: Math.hypot(px, py),
      lat: lat + py / (EARTH_RADIUS_M * RAD),
      lng: lng + px / this.metersPerDegreeLng,
      alongMeters: start + t * (this.along[segment + 1]! - start),
      bearing: (Math.atan2(dx, dy) / RAD + 360) % 360,
    };
  }

  /** Seconds left from a distance along the route (interpolated between points). */
  secondsLeftAt(meters: number): number {
    const segment = this.segmentAt(meters);
    const start = this.along[segment]!;
    const end = this.along[segment + 1]!;
    const t = end > start ? Math.min(1, Math.max(0, (meters - start) / (end - start))) : 0;
    return this.secondsLeft[segment]! + t * (this.secondsLeft[segment + 1]! - this.secondsLeft[segment]!);
  }

  /** Position of the first cell key at or above `key` (the number of keys when there is none). */
  private firstCellFrom(key: number): number {
    const keys = this.cellKeys;
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (keys[middle]! < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private cell(lat: number, lng: number): [number, number] {
    return [this.rowOf(lat), this.columnOf(lng)];
  }

  private rowOf(lat: number): number {
    return Math.floor(((lat - this.originLat) * EARTH_RADIUS_M * RAD) / CELL_METERS);
  }

  private columnOf(lng: number): number {
    return Math.floor(((lng - this.originLng) * (this.metersPerDegreeLng || 1)) / CELL_METERS);
  }
}

/**
 * Seconds from each point to the end: maneuver times spread over their stretch by distance; without
 * maneuver times, the base time spread over the whole route; without either, 0.
 */
function secondsLeftAlong(along: Float64Array, maneuvers: readonly RouteManeuverMark[], baseSeconds: number | undefined): Float64Array {
  const count = along.length;
  const total = along[count - 1]!;
  const left = new Float64Array(count);
  const timed = maneuvers.length > 0 && maneuvers.every((maneuver) => maneuver.timeSeconds !== undefined);
  if (!timed) {
    const seconds = baseSeconds ?? 0;
    for (let index = 0; index < count; index++) left[index] = total > 0 ? seconds * (1 - along[index]! / total) : 0;
    return left;
  }
  // seconds from the start at each maneuver boundary, then interpolate per point
  const marks = maneuvers.map((maneuver) => maneuver.cumulativeMeters);
  const cumulative: number[] = [0];
  for (const maneuver of maneuvers) cumulative.push(cumulative[cumulative.length - 1]! + maneuver.timeSeconds!);
  const totalSeconds = cumulative[cumulative.length - 1]!;
  let m = 0;
  for (let index = 0; index < count; index++) {
    const meters = along[index]!;
    while (m + 1 < marks.length && marks[m + 1]! <= meters) m++;
    const start = marks[m] ?? 0;
    const end = m + 1 < marks.length ? marks[m + 1]! : total;
    const share = end > start ? Math.min(1, Math.max(0, (meters - start) / (end - start))) : 1;
    const fromStart = cumulative[m]! + share * (maneuvers[m]?.timeSeconds ?? 0);
    left[index] = Math.max(0, totalSeconds - fromStart);
  }
  return left;
}
