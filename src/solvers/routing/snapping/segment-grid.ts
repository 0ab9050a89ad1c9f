/**
 * A uniform grid over the road segments of a pack (each undirected segment
 * once), for nearest-road queries: snapping locations, map-matching
 * candidates. Cells are about 50 m square; lookups walk rings of cells
 * outwards until nothing nearer can remain.
 */
import { COORDINATE_SCALE, EdgeFlag, NO_INDEX } from '../../../datapack/pack-layout.js';
import type { MapPack } from '../../../datapack/map-pack.js';
import { EARTH_RADIUS_M } from '../../graph/geodesy.js';
import { projectionParameter } from '../../graph/planar.js';

const RAD = Math.PI / 180;
const TARGET_CELL_METERS = 50;
/** Upper bound on cells so a country-sized pack stays within a few tens of MiB. */
const MAX_CELLS = 4_000_000;
/** Slots a `SegmentHits` starts with (grown on demand). */
const INITIAL_SLOTS = 64;

/** One nearby road: the segment's pack edge (in its own direction) and the projection onto it. */
export interface SegmentHit {
  /** The indexed edge (its twin, if any, covers the same segment the other way). */
  edge: number;
  /** Position along `edge` in its travel direction, 0..1. */
  fraction: number;
  distanceMeters: number;
  lat: number;
  lon: number;
  /**
   * Travel bearing of `edge` at the hit (degrees clockwise from north), from the one shape segment
   * the point projects onto: a curved road's end-to-end bearing says little about its middle.
   */
  bearing: number;
}

export class SegmentGrid {
  private readonly minLat: number;
  private readonly minLon: number;
  private readonly cellLat: number;
  private readonly cellLon: number;
  private readonly columns: number;
  private readonly rows: number;
  private readonly cellFirst: Uint32Array;
  /** Per entry: the edge and the index of the segment's first shape point. */
  private readonly entryEdge: Uint32Array;
  private readonly entryPoint: Uint32Array;
  private readonly metersPerDegreeLon: number;
  readonly cellMeters: number;
  /** Shape length (m, planar) of each indexed edge, for fractions. */
  private readonly shapeLength: Float64Array;
  /** Planar metres from its edge's first shape point to each shape point (fractions in O(1)). */
  private readonly shapeOffset: Float64Array;
  /** Per edge: the stamp of the query that found it and its slot there (the query's own edge→hit table). */
  private readonly slotStamp: Uint32Array;
  private readonly slotOf: Int32Array;
  private stamp = 0;
  /** Pack columns read for every projection, held directly (the sections object is a large dictionary). */
  private readonly shapeLat: MapPack['sections']['graph.shapeLat'];
  private readonly shapeLon: MapPack['sections']['graph.shapeLon'];
  private readonly edgeFlags: MapPack['sections']['graph.edgeFlags'];
  /** Scratch of `nearest` (the allocating form, for callers that keep the hits). */
  private ownHits?: SegmentHits;

  constructor(private readonly pack: MapPack) {
    const s = pack.sections;
    const lat = s['graph.shapeLat'];
    const lon = s['graph.shapeLon'];
    let minLat = Infinity, minLon = Infinity, maxLat = -Infinity, maxLon = -Infinity;
    for (let index = 0; index < lat.length; index++) {
      minLat = Math.min(minLat, lat[index]!); maxLat = Math.max(maxLat, lat[index]!);
      minLon = Math.min(minLon, lon[index]!); maxLon = Math.max(maxLon, lon[index]!);
    }
    if (!lat.length) minLat = maxLat = minLon = maxLon = 0;
    this.minLat = minLat / COORDINATE_SCALE;
    this.minLon = minLon / COORDINATE_SCALE;
    const midLat = (minLat + maxLat) / 2 / COORDINATE_SCALE;
    this.metersPerDegreeLon = EARTH_RADIUS_M * RAD * Math.cos(midLat * RAD);
    const spanLatM = ((maxLat - minLat) / COORDINATE_SCALE) * EARTH_RADIUS_M * RAD;
    const spanLonM = ((maxLon - minLon) / COORDINATE_SCALE) * this.metersPerDegreeLon;
    let cell = TARGET_CELL_METERS;
    while ((spanLatM / cell + 1) * (spanLonM / cell + 1) > MAX_CELLS) cell *= 2;
    this.cellMeters = cell;
    this.cellLat = cell / (EARTH_RADIUS_M * RAD);
    this.cellLon = cell / this.metersPerDegreeLon;
    this.rows = Math.floor(spanLatM / cell) + 1;
    this.columns = Math.floor(spanLonM / cell) + 1;

    const edges: number[] = [];
    for (let edge = 0; edge < pack.edgeCount; edge++) {
      const twin = s['graph.edgeTwin'][edge]!;
      if (twin === NO_INDEX || edge < twin) edges.push(edge);
    }
    this.shapeLength = new Float64Array(pack.edgeCount);
    this.slotStamp = new Uint32Array(pack.edgeCount);
    this.shapeLat = s['graph.shapeLat'];
    this.shapeLon = s['graph.shapeLon'];
    this.edgeFlags = s['graph.edgeFlags'];
    this.slotOf = new Int32Array(pack.edgeCount);
    // two passes: count entries per cell, then fill (CSR)
    const counts = new Uint32Array(this.rows * this.columns + 1);
    const visit = (fn: (cell: number, edge: number, point: number) => void) => {
      for (const edge of edges) {
        const first = s['graph.edgeShapeStart'][edge]!;
        const last = first + s['graph.edgeShapeCount'][edge]! - 1;
        for (let point = first; point < last; point++) {
          const [r0, c0] = this.cellOf(lat[point]! / COORDINATE_SCALE, lon[point]! / COORDINATE_SCALE);
          const [r1, c1] = this.cellOf(lat[point + 1]! / COORDINATE_SCALE, lon[point + 1]! / COORDINATE_SCALE);
          for (let r = Math.min(r0, r1); r <= Math.max(r0, r1); r++) for (let c = Math.min(c0, c1); c <= Math.max(c0, c1); c++) fn(r * this.columns + c, edge, point);
        }
      }
    };
    visit((cell) => (counts[cell + 1] = counts[cell + 1]! + 1));
    for (let cell = 0; cell < this.rows * this.columns; cell++) counts[cell + 1] = counts[cell + 1]! + counts[cell]!;
    this.cellFirst = counts;
    const fill = counts.slice(0, this.rows * this.columns);
    this.entryEdge = new Uint32Array(counts[this.rows * this.columns]!);
    this.entryPoint = new Uint32Array(this.entryEdge.length);
    visit((cell, edge, point) => {
      const at = fill[cell]!;
      fill[cell] = at + 1;
      this.entryEdge[at] = edge;
      this.entryPoint[at] = point;
    });
    this.shapeOffset = new Float64Array(lat.length);
    for (const edge of edges) {
      const first = s['graph.edgeShapeStart'][edge]!;
      const last = first + s['graph.edgeShapeCount'][edge]! - 1;
      let total = 0;
      for (let point = first; point < last; point++) {
        total += this.planarDistance(point, point + 1);
        this.shapeOffset[point + 1] = total;
      }
      this.shapeLength[edge] = total;
    }
  }


  /**
   * Nearby segments sorted by distance, at most one per indexed edge, within `radiusMeters`;
   * `accept` filters edges (e.g. usable by the costing in either direction).
   */
  nearest(lat: number, lon: number, radiusMeters: number, limit: number, accept: (edge: number) => boolean): SegmentHit[] {
    const hits = (this.ownHits ??= new SegmentHits());
    this.nearestInto(hits, lat, lon, radiusMeters, limit, accept);
    const answer: SegmentHit[] = [];
    for (let rank = 0; rank < hits.count; rank++) {
      const slot = hits.order[rank]!;
      const edge = hits.edge[slot]!;
      const reversed = (this.pack.sections['graph.edgeFlags'][edge]! & EdgeFlag.reversed) !== 0;
      // the shape is stored in the way's direction; a reversed edge travels it backwards
      const storedBearing = Math.atan2(hits.dx[slot]!, hits.dy[slot]!) / RAD;
      answer.push({
        edge,
        fraction: hits.fraction[slot]!,
        distanceMeters: hits.distanceMeters[slot]!,
        lat: hits.lat[slot]!,
        lon: hits.lon[slot]!,
        bearing: (storedBearing + (reversed ? 180 : 0) + 360) % 360,
      });
    }
    return answer;
  }

  /**
   * `nearest` without allocating (map matching asks for every GPS fix): the hits are written into
   * `hits`, whose arrays are reused; read them in `hits.order[0 .. hits.count)`, nearest first
   * (ties in the order the edges were first met). Edges found are stamped in an array indexed
   * by edge id instead of a per-call Map.
   */
  nearestInto(hits: SegmentHits, lat: number, lon: number, radiusMeters: number, limit: number, accept: (edge: number) => boolean): void {
    const row = Math.min(this.rows - 1, Math.max(0, Math.floor((lat - this.minLat) / this.cellLat)));
    const column = Math.min(this.columns - 1, Math.max(0, Math.floor((lon - this.minLon) / this.cellLon)));
    const stamp = this.nextStamp();
    const { slotStamp, slotOf, cellFirst, entryEdge, entryPoint } = this;
    hits.slots = 0;
    const maxRing = Math.ceil(radiusMeters / this.cellMeters) + 1;
    // the point's offset within its cell (m), to skip cells wholly beyond the reach
    const inCellY = (lat - this.minLat - row * this.cellLat) * EARTH_RADIUS_M * RAD;
    const inCellX = (lon - this.minLon - column * this.cellLon) * this.metersPerDegreeLon;
    for (let ring = 0; ring <= maxRing; ring++) {
      // everything in ring r+1 is at least r cells away
      const reach = Math.min(radiusMeters, hits.slots < limit ? Infinity : hits.kthDistance(limit));
      if ((ring - 1) * this.cellMeters > reach) break;
      for (let r = row - ring; r <= row + ring; r++) {
        if (r < 0 || r >= this.rows) continue;
        const onEdge = r === row - ring || r === row + ring;
        const gapY = r < row ? inCellY + (row - r - 1) * this.cellMeters : r > row ? (r - row) * this.cellMeters - inCellY : 0;
        for (let c = column - ring; c <= column + ring; c += onEdge ? 1 : 2 * ring || 1) {
          if (c < 0 || c >= this.columns) continue;
          const gapX = c < column ? inCellX + (column - c - 1) * this.cellMeters : c > column ? (c - column) * this.cellMeters - inCellX : 0;
          if (gapX * gapX + gapY * gapY > reach * reach) continue;
          const cell = r * this.columns + c;
          for (let entry = cellFirst[cell]!; entry < cellFirst[cell + 1]!; entry++) {
            const edge = entryEdge[entry]!;
            const known = slotStamp[edge] === stamp ? slotOf[edge]! : -1;
            // the filter first: it is cheaper than a projection and rejects whole classes of roads (footways for cars)
            if (known < 0 && !accept(edge)) continue;
            const limitMeters = known >= 0 ? Math.min(radiusMeters, hits.distanceMeters[known]!) : radiusMeters;
            const slot = known >= 0 ? known : hits.slots;
            if (!this.project(hits, slot, lat, lon, edge, entryPoint[entry]!, limitMeters, known >= 0)) continue;
            if (known < 0) {
              slotStamp[edge] = stamp;
              slotOf[edge] = slot;
              hits.slots++;
            }
          }
        }
      }
    }
    hits.sort(limit);
  }

  private nextStamp(): number {
    if (this.stamp === 0xffff_ffff) {
      this.slotStamp.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  private cellOf(lat: number, lon: number): [number, number] {
    const r = Math.min(this.rows - 1, Math.max(0, Math.floor((lat - this.minLat) / this.cellLat)));
    const c = Math.min(this.columns - 1, Math.max(0, Math.floor((lon - this.minLon) / this.cellLon)));
    return [r, c];
  }

  private planarDistance(a: number, b: number): number {
    const s = this.pack.sections;
    const dy = ((s['graph.shapeLat'][b]! - s['graph.shapeLat'][a]!) / COORDINATE_SCALE) * EARTH_RADIUS_M * RAD;
    const dx = ((s['graph.shapeLon'][b]! - s['graph.shapeLon'][a]!) / COORDINATE_SCALE) * this.metersPerDegreeLon;
    return Math.hypot(dx, dy);
  }

  /**
   * Projects a point onto one segment of an edge's shape (local planar approximation) into slot
   * `slot` of `hits`; false (nothing written) when farther than `limitMeters` (or as far, when
   * `strict`), decided before the costlier fraction.
   */
  private project(hits: SegmentHits, slot: number, lat: number, lon: number, edge: number, point: number, limitMeters: number, strict: boolean): boolean {
    const { shapeLat, shapeLon } = this;
    const ax = (shapeLon[point]! / COORDINATE_SCALE - lon) * this.metersPerDegreeLon;
    const ay = (shapeLat[point]! / COORDINATE_SCALE - lat) * EARTH_RADIUS_M * RAD;
    const bx = (shapeLon[point + 1]! / COORDINATE_SCALE - lon) * this.metersPerDegreeLon;
    const by = (shapeLat[point + 1]! / COORDINATE_SCALE - lat) * EARTH_RADIUS_M * RAD;
    const t = projectionParameter(ax, ay, bx, by);
    const dx = bx - ax;
    const dy = by - ay;
    const lengthSquared = dx * dx + dy * dy;
    const px = ax + t * dx;
    const py = ay + t * dy;
    // compared squared first: this runs for every segment near the point, and Math.hypot is slow
    const squared = px * px + py * py;
    if (squared > limitMeters * limitMeters) return false;
    const distanceMeters = Math.sqrt(squared);
    if (strict && distanceMeters >= limitMeters) return false;
    // distance along the shape to the projection, in the shape's stored direction
    const along = this.shapeOffset[point]! + t * Math.sqrt(lengthSquared);
    const total = this.shapeLength[edge]!;
    const shapeFraction = total > 0 ? Math.min(1, along / total) : 0;
    const reversed = (this.edgeFlags[edge]! & EdgeFlag.reversed) !== 0;
    hits.reserve(slot + 1);
    hits.edge[slot] = edge;
    hits.fraction[slot] = reversed ? 1 - shapeFraction : shapeFraction;
    hits.distanceMeters[slot] = distanceMeters;
    hits.lat[slot] = lat + py / (EARTH_RADIUS_M * RAD);
    hits.lon[slot] = lon + px / this.metersPerDegreeLon;
    hits.dx[slot] = dx;
    hits.dy[slot] = dy;
    return true;
  }
}

/**
 * The answer of `SegmentGrid.nearestInto` as a struct of arrays, reused from call to call: one slot
 * per edge found (in the order first met), and `order`, the first `count` slots by distance.
 */
export class SegmentHits {
  /** Slots filled by the last query. */
  slots = 0;
  /** Hits answered: `order[0 .. count)`. */
  count = 0;
  edge = new Int32Array(INITIAL_SLOTS);
  /** Position along `edge` in its travel direction, 0..1. */
  fraction = new Float64Array(INITIAL_SLOTS);
  distanceMeters = new Float64Array(INITIAL_SLOTS);
  lat = new Float64Array(INITIAL_SLOTS);
  lon = new Float64Array(INITIAL_SLOTS);
  /** The projected-on shape segment in the shape's stored direction (planar metres), for bearings. */
  dx = new Float64Array(INITIAL_SLOTS);
  dy = new Float64Array(INITIAL_SLOTS);
  order = new Int32Array(INITIAL_SLOTS);
  /** The k smallest distances so far, for `kthDistance`. */
  private smallest = new Float64Array(INITIAL_SLOTS);
  private readonly byDistance = (a: number, b: number) => this.distanceMeters[a]! - this.distanceMeters[b]! || a - b;

  /** Makes room for `size` slots, keeping what is filled. */
  reserve(size: number): void {
    if (size <= this.edge.length) return;
    const capacity = Math.max(size, 2 * this.edge.length);
    const grow = <T extends Int32Array | Float64Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    this.edge = grow(this.edge, new Int32Array(capacity));
    this.fraction = grow(this.fraction, new Float64Array(capacity));
    this.distanceMeters = grow(this.distanceMeters, new Float64Array(capacity));
    this.lat = grow(this.lat, new Float64Array(capacity));
    this.lon = grow(this.lon, new Float64Array(capacity));
    this.dx = grow(this.dx, new Float64Array(capacity));
    this.dy = grow(this.dy, new Float64Array(capacity));
    this.order = new Int32Array(capacity);
    this.smallest = new Float64Array(capacity);
  }

  /** The k-th smallest distance of the filled slots (1 <= k <= slots). */
  kthDistance(k: number): number {
    const { smallest, distanceMeters } = this;
    let kept = 0;
    for (let slot = 0; slot < this.slots; slot++) {
      const value = distanceMeters[slot]!;
      if (kept === k && value >= smallest[k - 1]!) continue;
      // insertion into the sorted k smallest
      let at = kept < k ? kept++ : k - 1;
      while (at > 0 && smallest[at - 1]! > value) {
        smallest[at] = smallest[at - 1]!;
        at--;
      }
      smallest[at] = value;
    }
    return smallest[k - 1]!;
  }

  /** Orders the slots by distance (ties by slot, the order first met) and keeps the first `limit`. */
  sort(limit: number): void {
    const { order, slots } = this;
    for (let slot = 0; slot < slots; slot++) order[slot] = slot;
    if (slots <= 32) {
      const distance = this.distanceMeters;
      for (let index = 1; index < slots; index++) {
        const slot = order[index]!;
        const value = distance[slot]!;
        let at = index;
        while (at > 0 && distance[order[at - 1]!]! > value) {
          order[at] = order[at - 1]!;
          at--;
        }
        order[at] = slot;
      }
    } else {
      order.subarray(0, slots).sort(this.byDistance);
    }
    this.count = Math.min(limit, slots);
  }
}
