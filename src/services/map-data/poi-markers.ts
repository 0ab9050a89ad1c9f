/**
 * `GET /map/poi` (spec part 2 §4.8): a priority-ordered, label-budgeted set of catalogue places for a
 * viewport. The places' marker columns are held in memory (poi-snapshot.ts; 10 000 places are
 * ~2 MB), re-read in the background when the catalogue's change stamp moves (checked at most every
 * `refreshMs`); a request then costs finding the viewport's places, the screen-space placement of
 * solvers/label-budget and the answer's JSON, written by hand (`queryJson`: the same bytes as
 * `JSON.stringify(query(...))`, at a fraction of the CPU). Priority, budget and the zoom profile are
 * documented in docs/map-data.md.
 */
import { budgetLabels, type LabelPoints, type PlacedPoint } from '../../solvers/label-budget/label-budget.js';
import type { PlaceMarkerRepository, PlaceMarkerRow } from '../../store/pg/place-markers.js';
import { categoryBySlug, type PlaceCategory } from '../places/place-taxonomy.js';
import { JsonBytes, JsonNumberList } from './json-bytes.js';
import { estimateLabel, type LabelLocale } from './label-metrics.js';
import { buildPoiSnapshot, unitMercatorX, unitMercatorY, viewportRanks, type PoiSnapshot } from './poi-snapshot.js';

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

export interface PoiMarkerDeps {
  repository: Pick<PlaceMarkerRepository, 'all' | 'changeStamp'>;
  /** Path under the API root of a category's pin in a theme (map data's category icons). */
  pinPath: (category: PlaceCategory, theme: 'light' | 'dark') => string;
  refreshMs?: number;
  now?: () => number;
}

/** The fields of an answer that do not depend on the viewport. */
interface PoiAnswerBase {
  zoom: number;
  locale: LabelLocale;
  budget: number;
  minPriority: number;
  profile: PoiProfile;
  attribution: string;
}

/** A viewport laid out: what both the object and the JSON answers are made from. */
interface PoiLayout {
  base: PoiAnswerBase;
  bbox: [number, number, number, number];
  snapshot: PoiSnapshot;
  /** Ranks of the qualified places, in priority order, and their screen positions. */
  ranks: Uint32Array;
  xs: Float64Array;
  ys: Float64Array;
  placed: PlacedPoint[];
  clusters: PoiCluster[];
}

interface PoiCluster {
  count: number;
  lng: number;
  lat: number;
  topCategorySlug: string;
  screen: { x: number; y: number };
}

const ascii = (text: string) => Buffer.from(text, 'latin1');
const ITEMS_OPEN = ascii(',"items":[');
const COMMA = ascii(',');
const TRUE = ascii('true');
const FALSE = ascii('false');
const NULL = ascii('null');
const SCREEN_X = ascii(',"screen":{"x":');
const Y = ascii(',"y":');
const ICON_BOX = ascii(',"iconBox":');
const LABEL_BOX = ascii(',"labelBox":');
const ITEM_CLOSE = ascii('}}');
const CLUSTERS_OPEN = ascii('],"clusters":[');
const CLUSTER_COUNT = ascii('{"count":');
const NEXT_CLUSTER_COUNT = ascii(',{"count":');
const LNG = ascii(',"lng":');
const LAT = ascii(',"lat":');
const TOP_CATEGORY = ascii(',"topCategorySlug":');
const CLUSTER_CLOSE = ascii('}}');
const TRUNCATED_CLOSE = ascii('],"truncated":true}');
const NOT_TRUNCATED_CLOSE = ascii('],"truncated":false}');
const NO_PINS = ascii(',"iconLightUrl":null,"iconDarkUrl":null');

/** Per canonical category slug, the UTF-8 JSON of an item's two pin URL members under one API base. */
class PinMembers {
  private readonly members = new Map<string, Uint8Array>();

  constructor(
    readonly apiBase: string,
    private readonly pinPath: PoiMarkerDeps['pinPath'],
  ) {}

  of(categorySlug: string): Uint8Array {
    let members = this.members.get(categorySlug);
    if (members === undefined) {
      const category = categoryBySlug(categorySlug);
      members = category
        ? Buffer.from(`,"iconLightUrl":${JSON.stringify(`${this.apiBase}${this.pinPath(category, 'light')}`)},"iconDarkUrl":${JSON.stringify(`${this.apiBase}${this.pinPath(category, 'dark')}`)}`)
        : NO_PINS;
      this.members.set(categorySlug, members);
    }
    return members;
  }
}

function writeBox(out: JsonBytes, box: readonly number[]): void {
  out.bytes(BOX_OPEN).tenths(box[0]!).bytes(COMMA).tenths(box[1]!).bytes(COMMA).tenths(box[2]!).bytes(COMMA).tenths(box[3]!).bytes(BOX_CLOSE);
}
const BOX_OPEN = ascii('[');
const BOX_CLOSE = ascii(']');

export class PoiMarkers {
  private snapshot: PoiSnapshot | undefined;
  private loading: Promise<PoiSnapshot> | undefined;
  private stamp: string | undefined;
  private checkedAt = 0;
  private readonly refreshMs: number;
  private readonly now: () => number;
  /** The pin members of items under the last API base asked for; the pin paths do not change while the process runs. */
  private pins: PinMembers | undefined;
  /** Cluster categories as JSON strings (the catalogue's slugs: a few dozen). */
  private readonly quotedSlugs = new Map<string, Uint8Array>();
  /** Reused by every answer (see JsonBytes). */
  private readonly writer = new JsonBytes(96 * 1024);
  private readonly meanDigits = new JsonNumberList();

  constructor(private readonly deps: PoiMarkerDeps) {
    this.refreshMs = deps.refreshMs ?? 30_000;
    this.now = deps.now ?? Date.now;
  }

  /** The current snapshot; the first call waits for it, later calls refresh it in the background. */
  private async current(): Promise<PoiSnapshot> {
    if (this.snapshot && this.now() - this.checkedAt >= this.refreshMs && !this.loading) {
      this.checkedAt = this.now();
      // a failed check keeps the snapshot: the next one retries
      this.exclusively(() => this.reloadIfChanged()).catch(() => undefined);
    }
    return this.snapshot ?? this.exclusively(() => this.load());
  }

  /** One load or check at a time; `loading` is clear again once it settles, so the next refresh can start. */
  private exclusively(work: () => Promise<PoiSnapshot>): Promise<PoiSnapshot> {
    this.loading ??= work().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async reloadIfChanged(): Promise<PoiSnapshot> {
    const stamp = await this.deps.repository.changeStamp();
    if (stamp === this.stamp && this.snapshot) return this.snapshot;
    return this.load(stamp);
  }

  private async load(knownStamp?: string): Promise<PoiSnapshot> {
    const stamp = knownStamp ?? (await this.deps.repository.changeStamp());
    // rows come ordered by id, so ties in priority keep id order
    this.snapshot = buildPoiSnapshot(await this.deps.repository.all());
    this.stamp = stamp;
    this.checkedAt = this.now();
    return this.snapshot;
  }

  /** GET /map/poi as an object; `apiBase` is the absolute API root icon URLs start with. Bad parameters are clamped to their ranges (part 2 §4.8 degrades instead of erroring). */
  async query(query: PoiQuery, apiBase: string) {
    const layout = await this.layout(query);
    if ('error' in layout) return layout;
    const { base, bbox, snapshot, ranks, xs, ys, placed, clusters } = layout;
    const items = placed.map((point) => {
      const rank = ranks[point.index]!;
      const row = snapshot.rows[snapshot.order[rank]!]!;
      const category = categoryBySlug(row.canonicalCategory);
      return {
        ...staticItemFields(snapshot, rank, base.locale),
        labelHidden: point.labelBox === null,
        iconLightUrl: category ? `${apiBase}${this.deps.pinPath(category, 'light')}` : null,
        iconDarkUrl: category ? `${apiBase}${this.deps.pinPath(category, 'dark')}` : null,
        screen: { x: round1(xs[point.index]!), y: round1(ys[point.index]!), iconBox: point.iconBox.map(round1), labelBox: point.labelBox?.map(round1) ?? null },
      };
    });
    return { ...base, bbox, qualified: ranks.length, items, clusters, truncated: ranks.length > items.length };
  }

  /**
   * GET /map/poi as UTF-8 JSON: the bytes of `JSON.stringify(await query(...))`, written by hand for the
   * hot shape. Each place's fields that do not depend on the viewport are encoded once, the first time it is drawn.
   */
  async queryJson(query: PoiQuery, apiBase: string): Promise<Buffer> {
    const layout = await this.layout(query);
    if ('error' in layout) return Buffer.from(JSON.stringify(layout));
    const { base, bbox, snapshot, ranks, xs, ys, placed, clusters } = layout;
    const truncated = ranks.length > placed.length;
    // the writer's buffer is reused: nothing awaits between here and `finish`
    const out = this.writer;
    out.text(JSON.stringify({ ...base, bbox, qualified: ranks.length }).slice(0, -1)).bytes(ITEMS_OPEN);
    const heads = snapshot.itemHeads[base.locale];
    const pins = this.pinsFor(apiBase);
    for (let at = 0; at < placed.length; at++) {
      const point = placed[at]!;
      const rank = ranks[point.index]!;
      const row = snapshot.order[rank]!;
      let head = heads[row];
      if (head === undefined) {
        head = Buffer.from(`${JSON.stringify(staticItemFields(snapshot, rank, base.locale)).slice(0, -1)},"labelHidden":`);
        heads[row] = head;
      }
      if (at > 0) out.bytes(COMMA);
      out.bytes(head);
      const { iconBox, labelBox } = point;
      out.bytes(labelBox === null ? TRUE : FALSE).bytes(pins.of(snapshot.rows[row]!.canonicalCategory));
      out.bytes(SCREEN_X).tenths(xs[point.index]!).bytes(Y).tenths(ys[point.index]!).bytes(ICON_BOX);
      writeBox(out, iconBox);
      out.bytes(LABEL_BOX);
      if (labelBox === null) out.bytes(NULL);
      else writeBox(out, labelBox);
      out.bytes(ITEM_CLOSE);
    }
    out.bytes(CLUSTERS_OPEN);
    // the means' digits from one JSON.stringify: String() of each would fill V8's number-string cache (see JsonNumberList)
    const means = new Array<number>(clusters.length * 2);
    for (let at = 0; at < clusters.length; at++) {
      means[2 * at] = clusters[at]!.lng;
      means[2 * at + 1] = clusters[at]!.lat;
    }
    const meanDigits = this.meanDigits.reset(means);
    for (let at = 0; at < clusters.length; at++) {
      const cluster = clusters[at]!;
      out.bytes(at > 0 ? NEXT_CLUSTER_COUNT : CLUSTER_COUNT).number(cluster.count);
      out.bytes(LNG);
      meanDigits.writeNext(out);
      out.bytes(LAT);
      meanDigits.writeNext(out);
      out.bytes(TOP_CATEGORY).bytes(this.quotedSlug(cluster.topCategorySlug));
      out.bytes(SCREEN_X).tenths(cluster.screen.x).bytes(Y).tenths(cluster.screen.y).bytes(CLUSTER_CLOSE);
    }
    out.bytes(truncated ? TRUNCATED_CLOSE : NOT_TRUNCATED_CLOSE);
    return out.finish();
  }

  /** The `iconLightUrl` and `iconDarkUrl` members of each category's items under `apiBase` (the last base asked for is kept). */
  private pinsFor(apiBase: string): PinMembers {
    if (this.pins?.apiBase !== apiBase) this.pins = new PinMembers(apiBase, (category, theme) => this.deps.pinPath(category, theme));
    return this.pins;
  }

  /** A category slug as a JSON string, in UTF-8. */
  private quotedSlug(slug: string): Uint8Array {
    let quoted = this.quotedSlugs.get(slug);
    if (quoted === undefined) {
      quoted = Buffer.from(JSON.stringify(slug));
      this.quotedSlugs.set(slug, quoted);
    }
    return quoted;
  }

  /** Chooses and places a viewport's places, or the answer's error when the bbox is missing or bad. */
  private async layout(query: PoiQuery): Promise<PoiLayout | (PoiAnswerBase & { error: string; items: []; clusters: []; truncated: false })> {
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
    const base: PoiAnswerBase = { zoom, locale, budget, minPriority: zoomRow.minPriority, profile, attribution: '© OpenStreetMap contributors, ODbL' };
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
    // in priority order, then id (the same viewport answers the same order)
    const ranks = viewportRanks(snapshot, bbox, zoomRow.minPriority, wanted && ((row) => snapshot.rows[row]!.categories.some((slug) => wanted.has(slug))));

    const world = TILE_PX * 2 ** zoom;
    const originX = unitMercatorX(bbox[0]) * world;
    const originY = unitMercatorY(bbox[3]) * world;
    const xs = new Float64Array(ranks.length);
    const ys = new Float64Array(ranks.length);
    for (let position = 0; position < ranks.length; position++) {
      xs[position] = snapshot.mercatorXs[ranks[position]!]! * world - originX;
      ys[position] = snapshot.mercatorYs[ranks[position]!]! * world - originY;
    }
    const points: LabelPoints = {
      xs,
      ys,
      priority: (position) => snapshot.priorities[ranks[position]!]!,
      label: (position) => measuredLabel(snapshot, snapshot.order[ranks[position]!]!, locale),
    };
    const layout = budgetLabels(points, { width: vw, height: vh, budget, iconSize: ICON_PX, labelSpacing: profile.labelSpacing, clusterRadius: profile.clusterRadius, iconOnlyBelow: profile.iconOnlyBelow, rightToLeft: locale === 'ar' });
    const clusters = layout.clusters.map((cluster): PoiCluster => {
      let lng = 0;
      let lat = 0;
      for (const member of cluster.members) {
        lng += snapshot.lngs[ranks[member]!]!;
        lat += snapshot.lats[ranks[member]!]!;
      }
      return {
        count: cluster.members.length,
        lng: lng / cluster.members.length,
        lat: lat / cluster.members.length,
        // members are in priority order: the first is the cluster's most important place
        topCategorySlug: snapshot.rows[snapshot.order[ranks[cluster.members[0]!]!]!]!.canonicalCategory,
        screen: { x: round1(cluster.x), y: round1(cluster.y) },
      };
    });
    return { base, bbox, snapshot, ranks, xs, ys, placed: layout.placed, clusters };
  }
}

const round1 = (value: number) => Math.round(value * 10) / 10;


function labelOf(row: Pick<PlaceMarkerRow, 'nameEn' | 'nameAr'>, locale: LabelLocale): string {
  return (locale === 'ar' ? (row.nameAr ?? row.nameEn) : (row.nameEn ?? row.nameAr)) ?? '';
}

/** A place's label size in a locale, measured on its first drawing. */
function measuredLabel(snapshot: PoiSnapshot, row: number, locale: LabelLocale): { width: number; height: number } {
  const widths = snapshot.labelWidths[locale];
  const heights = snapshot.labelHeights[locale];
  if (Number.isNaN(widths[row]!)) {
    const size = estimateLabel(labelOf(snapshot.rows[row]!, locale), locale);
    widths[row] = size.width;
    heights[row] = size.height;
  }
  return { width: widths[row]!, height: heights[row]! };
}

/** An item's fields up to `lat`, in the answer's order: what a place shows whatever the viewport. */
function staticItemFields(snapshot: PoiSnapshot, rank: number, locale: LabelLocale) {
  const row = snapshot.rows[snapshot.order[rank]!]!;
  return {
    id: row.id,
    slug: row.slug,
    name: labelOf(row, locale),
    nameEn: row.nameEn,
    nameAr: row.nameAr,
    canonicalCategorySlug: row.canonicalCategory,
    categories: row.categories,
    priority: snapshot.priorities[rank]!,
    rating: row.rating,
    reviewCount: row.reviewCount,
    lng: row.lng,
    lat: row.lat,
  };
}
