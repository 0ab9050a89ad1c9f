/**
 * `GET /map/poi` (spec part 2 §4.8): a priority-ordered, label-budgeted set of catalogue places for a
 * viewport. The places' marker columns are held in memory with a Flatbush index (10 000 places are
 * ~2 MB), re-read in the background when the catalogue's change stamp moves (checked at most every
 * `refreshMs`); a request then costs a box query, a sort and the screen-space placement of
 * solvers/label-budget. Priority, budget and the zoom profile are documented in docs/map-data.md.
 */
import Flatbush from 'flatbush';
import { budgetLabels, type LabelPoints } from '../../solvers/label-budget/label-budget.js';
import type { PlaceMarkerRepository, PlaceMarkerRow } from '../../store/pg/place-markers.js';
import { categoryBySlug, type PlaceCategory } from '../places/place-taxonomy.js';
import { estimateLabel, type LabelLocale } from './label-metrics.js';
import { markerPriority } from './marker-priority.js';

export interface PoiQuery {
  bbox?: string | undefined;
  zoom?: string | undefined;
  categories?: string | undefined;
  locale?: string | undefined;
  vw?: string | undefined;
  vh?: string | undefined;
  dpr?: string | undefined;
  perf?: string | undefined;
}

export interface PoiProfile {
  clusterRadius: number;
  labelSpacing: number;
  iconOnlyBelow: number;
}

interface Snapshot {
  rows: PlaceMarkerRow[];
  priorities: Float64Array;
  /** Each row's place in the order of priority (descending), then id, and the rows in that order. */
  ranks: Uint32Array;
  order: Uint32Array;
  /** Columns read for every candidate of a viewport: contiguous, not spread over row objects. */
  lngs: Float64Array;
  lats: Float64Array;
  index: Flatbush | undefined;
}

/** The icon box a marker takes on screen, CSS pixels (a 30 × 40 pin drawn at 0.8 scale, roughly square once anchored). */
const ICON_PX = 24;
const DEFAULT_VIEWPORT = { vw: 1440, vh: 900 };
/** MapLibre's world is 512 CSS pixels wide at zoom 0. */
const TILE_PX = 512;

/** Per zoom: labels per 1440 × 900 viewport, least priority shown, icon-only threshold, cluster cell. */
function zoomProfile(zoom: number): { perViewport: number; minPriority: number; iconOnlyBelow: number; clusterRadius: number } {
  if (zoom < 11) return { perViewport: 12, minPriority: 50, iconOnlyBelow: 85, clusterRadius: 80 };
  if (zoom < 13) return { perViewport: 25, minPriority: 35, iconOnlyBelow: 75, clusterRadius: 70 };
  if (zoom < 15) return { perViewport: 45, minPriority: 20, iconOnlyBelow: 55, clusterRadius: 60 };
  if (zoom < 17) return { perViewport: 80, minPriority: 8, iconOnlyBelow: 35, clusterRadius: 50 };
  return { perViewport: 120, minPriority: 0, iconOnlyBelow: 10, clusterRadius: 40 };
}

function clampNumber(text: string | undefined, min: number, max: number, fallback: number): number {
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

/** `west,south,east,north` within the world, west < east and south < north; else undefined. */
export function parseViewportBbox(text: string | undefined): [number, number, number, number] | undefined {
  if (!text) return undefined;
  const parts = text.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part)));
  if (parts.length !== 4 || parts.some((part) => !Number.isFinite(part))) return undefined;
  const [west, south, east, north] = parts as [number, number, number, number];
  if (west < -180 || east > 180 || south < -85.06 || north > 85.06 || west >= east || south >= north) return undefined;
  return [west, south, east, north];
}

const mercatorX = (lng: number, world: number) => ((lng + 180) / 360) * world;
const mercatorY = (lat: number, world: number) => {
  const sin = Math.sin((lat * Math.PI) / 180);
  return (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * world;
};

export interface PoiMarkerDeps {
  repository: Pick<PlaceMarkerRepository, 'all' | 'changeStamp'>;
  /** Path under the API root of a category's pin in a theme (map data's category icons). */
  pinPath: (category: PlaceCategory, theme: 'light' | 'dark') => string;
  refreshMs?: number;
  now?: () => number;
}

export class PoiMarkers {
  private snapshot: Snapshot | undefined;
  private loading: Promise<Snapshot> | undefined;
  private stamp: string | undefined;
  private checkedAt = 0;
  private readonly refreshMs: number;
  private readonly now: () => number;

  constructor(private readonly deps: PoiMarkerDeps) {
    this.refreshMs = deps.refreshMs ?? 30_000;
    this.now = deps.now ?? Date.now;
  }

  /** The current snapshot; the first call waits for it, later calls refresh it in the background. */
  private async current(): Promise<Snapshot> {
    if (this.snapshot && this.now() - this.checkedAt >= this.refreshMs && !this.loading) {
      this.checkedAt = this.now();
      // a failed check keeps the snapshot: the next one retries
      this.exclusively(() => this.reloadIfChanged()).catch(() => undefined);
    }
    return this.snapshot ?? this.exclusively(() => this.load());
  }

  /** One load or check at a time; `loading` is clear again once it settles, so the next refresh can start. */
  private exclusively(work: () => Promise<Snapshot>): Promise<Snapshot> {
    this.loading ??= work().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async reloadIfChanged(): Promise<Snapshot> {
    const stamp = await this.deps.repository.changeStamp();
    if (stamp === this.stamp && this.snapshot) return this.snapshot;
    return this.load(stamp);
  }

  private async load(knownStamp?: string): Promise<Snapshot> {
    const stamp = knownStamp ?? (await this.deps.repository.changeStamp());
    const rows = await this.deps.repository.all();
    const priorities = Float64Array.from(rows, (row) => markerPriority(row));
    // rows come ordered by id, so a stable sort by priority leaves ties in id order
    const order = Uint32Array.from(Array.from(rows.keys()).sort((a, b) => priorities[b]! - priorities[a]! || a - b));
    const ranks = new Uint32Array(rows.length);
    order.forEach((row, rank) => (ranks[row] = rank));
    const lngs = Float64Array.from(rows, (row) => row.lng);
    const lats = Float64Array.from(rows, (row) => row.lat);
    let index: Flatbush | undefined;
    if (rows.length > 0) {
      index = new Flatbush(rows.length);
      for (const row of rows) index.add(row.lng, row.lat, row.lng, row.lat);
      index.finish();
    }
    this.snapshot = { rows, priorities, ranks, order, lngs, lats, index };
    this.stamp = stamp;
    this.checkedAt = this.now();
    return this.snapshot;
  }

  /** GET /map/poi; `apiBase` is the absolute API root icon URLs start with. Bad parameters are clamped to their ranges (part 2 §4.8 degrades instead of erroring). */
  async query(query: PoiQuery, apiBase: string) {
    const zoom = Math.round(clampNumber(query.zoom, 0, 22, 14) * 100) / 100;
    const locale: LabelLocale = query.locale?.trim().toLowerCase().startsWith('ar') ? 'ar' : 'en';
    const vw = clampNumber(query.vw, 200, 8000, DEFAULT_VIEWPORT.vw);
    const vh = clampNumber(query.vh, 200, 8000, DEFAULT_VIEWPORT.vh);
    const dpr = clampNumber(query.dpr, 1, 4, 1);
    const perf = clampNumber(query.perf, 0.3, 1, 1);
    const zoomRow = zoomProfile(zoom);
    // labels scale with the viewport's area; a denser screen (dpr) reads smaller gaps, so it allows a little more
    const budget = Math.max(1, Math.round(zoomRow.perViewport * ((vw * vh) / (DEFAULT_VIEWPORT.vw * DEFAULT_VIEWPORT.vh)) * perf * (1 + 0.1 * (dpr - 1))));
    const profile: PoiProfile = { clusterRadius: zoomRow.clusterRadius, labelSpacing: Math.round(8 / Math.sqrt(dpr)), iconOnlyBelow: zoomRow.iconOnlyBelow };
    const base = { zoom, locale, budget, minPriority: zoomRow.minPriority, profile, attribution: '© OpenStreetMap contributors, ODbL' };
    const bbox = parseViewportBbox(query.bbox);
    if (!bbox) {
      return { ...base, error: query.bbox ? 'bbox must be west,south,east,north in degrees, west < east and south < north' : 'bbox=west,south,east,north is required', items: [], clusters: [], truncated: false };
    }
    const wanted = query.categories
      ? new Set(
          query.categories
            .split(',')
            .map((slug) => slug.trim())
            .filter(Boolean),
        )
      : undefined;
    const snapshot = await this.current();
    const found = snapshot.index ? snapshot.index.search(bbox[0], bbox[1], bbox[2], bbox[3]) : [];
    const { priorities, ranks, order, lngs, lats } = snapshot;
    const qualifiedRanks = new Uint32Array(found.length);
    let qualifiedCount = 0;
    for (const at of found) {
      if (priorities[at]! < zoomRow.minPriority) continue;
      if (wanted && !snapshot.rows[at]!.categories.some((slug) => wanted.has(slug))) continue;
      qualifiedRanks[qualifiedCount++] = ranks[at]!;
    }
    // priority first, then the id (the same viewport answers the same order): a native numeric sort of ranks
    const qualified = qualifiedRanks.subarray(0, qualifiedCount).sort().map((rank) => order[rank]!);

    const world = TILE_PX * 2 ** zoom;
    const originX = mercatorX(bbox[0], world);
    const originY = mercatorY(bbox[3], world);
    const xs = new Float64Array(qualified.length);
    const ys = new Float64Array(qualified.length);
    for (let position = 0; position < qualified.length; position++) {
      xs[position] = mercatorX(lngs[qualified[position]!]!, world) - originX;
      ys[position] = mercatorY(lats[qualified[position]!]!, world) - originY;
    }
    const points: LabelPoints = {
      count: qualified.length,
      x: (position) => xs[position]!,
      y: (position) => ys[position]!,
      priority: (position) => priorities[qualified[position]!]!,
      label: (position) => estimateLabel(labelOf(snapshot.rows[qualified[position]!]!, locale), locale),
    };
    const layout = budgetLabels(points, { width: vw, height: vh, budget, iconSize: ICON_PX, labelSpacing: profile.labelSpacing, clusterRadius: profile.clusterRadius, iconOnlyBelow: profile.iconOnlyBelow, rightToLeft: locale === 'ar' });

    const items = layout.placed.map((placed) => {
      const row = snapshot.rows[qualified[placed.index]!]!;
      const category = categoryBySlug(row.canonicalCategory);
      return {
        id: row.id,
        slug: row.slug,
        name: labelOf(row, locale),
        nameEn: row.nameEn,
        nameAr: row.nameAr,
        canonicalCategorySlug: row.canonicalCategory,
        categories: row.categories,
        priority: snapshot.priorities[qualified[placed.index]!]!,
        rating: row.rating,
        reviewCount: row.reviewCount,
        lng: row.lng,
        lat: row.lat,
        labelHidden: placed.labelBox === null,
        iconLightUrl: category ? `${apiBase}${this.deps.pinPath(category, 'light')}` : null,
        iconDarkUrl: category ? `${apiBase}${this.deps.pinPath(category, 'dark')}` : null,
        screen: { x: round1(xs[placed.index]!), y: round1(ys[placed.index]!), iconBox: placed.iconBox.map(round1), labelBox: placed.labelBox?.map(round1) ?? null },
      };
    });
    const clusters = layout.clusters.map((cluster) => {
      let lng = 0;
      let lat = 0;
      for (const member of cluster.members) {
        lng += lngs[qualified[member]!]!;
        lat += lats[qualified[member]!]!;
      }
      return {
        count: cluster.members.length,
        lng: lng / cluster.members.length,
        lat: lat / cluster.members.length,
        // members are in priority order: the first is the cluster's most important place
        topCategorySlug: snapshot.rows[qualified[cluster.members[0]!]!]!.canonicalCategory,
        screen: { x: round1(cluster.x), y: round1(cluster.y) },
      };
    });
    return { ...base, bbox, qualified: qualified.length, items, clusters, truncated: qualified.length > items.length };
  }
}

const round1 = (value: number) => Math.round(value * 10) / 10;

function labelOf(row: Pick<PlaceMarkerRow, 'nameEn' | 'nameAr'>, locale: LabelLocale): string {
  return (locale === 'ar' ? (row.nameAr ?? row.nameEn) : (row.nameEn ?? row.nameAr)) ?? '';
}
