/**
 * The in-memory marker set behind `GET /map/poi`: the catalogue's marker columns laid out for the
 * request's hot loops. Columns are kept in priority order (rank order: priority descending, then the
 * rows' id order), so a viewport that holds a large share of the catalogue is found by one scan that
 * stops at the zoom's least priority and needs no sort; a small one is found through the Flatbush
 * index and its ranks sorted. Positions are kept as Web Mercator at zoom 0 (`x`, `y` in 0–1), so a
 * request multiplies instead of taking a logarithm per point; per-row label sizes and the answer's
 * JSON of each place are made the first time a place is drawn and kept with the snapshot.
 */
import Flatbush from 'flatbush';
import type { PlaceMarkerRow } from '../../store/pg/place-markers.js';
import type { LabelLocale } from './label-metrics.js';
import { markerPriority } from './marker-priority.js';

export interface PoiSnapshot {
  rows: PlaceMarkerRow[];
  /** Row → rank, and rank → row. */
  ranks: Uint32Array;
  order: Uint32Array;
  /** By rank: priority, degrees, Web Mercator at zoom 0. */
  priorities: Float64Array;
  lngs: Float64Array;
  lats: Float64Array;
  mercatorXs: Float64Array;
  mercatorYs: Float64Array;
  /** Over rows (not ranks). */
  index: Flatbush | undefined;
  /** The rows' bounding box, degrees; undefined without rows. */
  extent: readonly [number, number, number, number] | undefined;
  /** By row and locale, made on a place's first drawing: label size (NaN until measured) and the start of its item's JSON. */
  labelWidths: Record<LabelLocale, Float64Array>;
  labelHeights: Record<LabelLocale, Float64Array>;
  itemHeads: Record<LabelLocale, (Uint8Array | undefined)[]>;
}

/** Web Mercator at zoom 0, as MapLibre projects (× the world's size in pixels gives screen pixels). */
export const unitMercatorX = (lng: number) => (lng + 180) / 360;
export const unitMercatorY = (lat: number) => {
  const sin = Math.sin((lat * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
};

/** Builds the snapshot of rows ordered by id (ties in priority keep that order). */
export function buildPoiSnapshot(rows: PlaceMarkerRow[]): PoiSnapshot {
  const rowPriorities = Float64Array.from(rows, (row) => markerPriority(row));
  const order = Uint32Array.from(Array.from(rows.keys()).sort((a, b) => rowPriorities[b]! - rowPriorities[a]! || a - b));
  const ranks = new Uint32Array(rows.length);
  order.forEach((row, rank) => (ranks[row] = rank));
  const byRank = (value: (row: PlaceMarkerRow, at: number) => number) => Float64Array.from(order, (at) => value(rows[at]!, at));
  let index: Flatbush | undefined;
  let extent: PoiSnapshot['extent'];
  if (rows.length > 0) {
    index = new Flatbush(rows.length);
    for (const row of rows) index.add(row.lng, row.lat, row.lng, row.lat);
    index.finish();
    extent = [index.minX, index.minY, index.maxX, index.maxY];
  }
  const perLocale = <T>(make: () => T): Record<LabelLocale, T> => ({ en: make(), ar: make() });
  return {
    rows,
    ranks,
    order,
    priorities: byRank((_, at) => rowPriorities[at]!),
    lngs: byRank((row) => row.lng),
    lats: byRank((row) => row.lat),
    mercatorXs: byRank((row) => unitMercatorX(row.lng)),
    mercatorYs: byRank((row) => unitMercatorY(row.lat)),
    index,
    extent,
    labelWidths: perLocale(() => new Float64Array(rows.length).fill(Number.NaN)),
    labelHeights: perLocale(() => new Float64Array(rows.length)),
    itemHeads: perLocale(() => new Array<Uint8Array | undefined>(rows.length)),
  };
}

/**
 * Below this share of the rows' extent a viewport's places are found through the index; at or
 * above it, by scanning the ranks (a scan of 10 000 ranks costs less than collecting and sorting the
 * thousands of places such a viewport holds).
 */
const SCAN_SHARE = 0.1;

/**
 * Ranks of the places in `bbox` (inclusive, as Flatbush) with at least `minPriority` that `accept`
 * takes, in rank order.
 */
export function viewportRanks(snapshot: PoiSnapshot, bbox: readonly [number, number, number, number], minPriority: number, accept: ((row: number) => boolean) | undefined): Uint32Array {
  const { index, extent, priorities, lngs, lats, ranks, order } = snapshot;
  if (!index || !extent) return new Uint32Array(0);
  const [west, south, east, north] = bbox;
  if (coveredShare(extent, bbox) >= SCAN_SHARE) {
    const found = new Uint32Array(order.length);
    let count = 0;
    for (let rank = 0; rank < order.length; rank++) {
      // ranks are in descending priority: the rest are below the zoom's least priority
      if (priorities[rank]! < minPriority) break;
      const lng = lngs[rank]!;
      const lat = lats[rank]!;
      if (lng < west || lng > east || lat < south || lat > north) continue;
      if (accept && !accept(order[rank]!)) continue;
      found[count++] = rank;
    }
    return found.subarray(0, count);
  }
  const rows = index.search(west, south, east, north);
  const found = new Uint32Array(rows.length);
  let count = 0;
  for (const row of rows) {
    const rank = ranks[row]!;
    if (priorities[rank]! < minPriority) continue;
    if (accept && !accept(row)) continue;
    found[count++] = rank;
  }
  // a native numeric sort of ranks: priority first, then the id
  return found.subarray(0, count).sort();
}

/** Share of `extent`'s area that `bbox` covers (1 when the extent is a point or a line inside it). */
function coveredShare(extent: readonly [number, number, number, number], bbox: readonly [number, number, number, number]): number {
  const width = Math.min(extent[2], bbox[2]) - Math.max(extent[0], bbox[0]);
  const height = Math.min(extent[3], bbox[3]) - Math.max(extent[1], bbox[1]);
  if (width < 0 || height < 0) return 0;
  const area = (extent[2] - extent[0]) * (extent[3] - extent[1]);
  return area > 0 ? (width * height) / area : 1;
}
