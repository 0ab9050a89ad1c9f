/**
 * Offline regions (spec part 2 §2.9, §4.6): the pack's own coverage (a city), its admin areas of level 4
 * and above, and the country they lie in. Sizes are measured, not guessed: per zoom, up to
 * SAMPLE_TILES_PER_ZOOM tiles spread over the region are encoded (by the tile service, so they land in
 * its cache) and their mean size times the tile count is the estimate.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { ApiError } from '../../shared/errors.js';
import type { SolverPool } from '../../solvers/solver-pool.js';
import { MAX_TILE_ZOOM } from '../../solvers/tiles/tile-schema.js';
import { countryAt, countryByCode } from '../geocoding/countries.js';
import { vectorTileTemplate } from './tilejson.js';
import type { VectorTileService } from './vector-tile-service.js';
import { BOLD_FONT_STACK, REGULAR_FONT_STACK } from './map-styles/style-catalogue.js';

type Bbox = [west: number, south: number, east: number, north: number];

/** A region as GET /offline/regions lists it (spec part 2 §2.9). */
export interface OfflineRegion extends RegionPlan {
  estTiles: number;
  estSizeMb: number;
  version: string;
}

export interface ZoomRange {
  z: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  count: number;
  /** Estimated bytes of this zoom's tiles as stored (uncompressed MVT) and as transferred (Brotli). */
  estBytes: number;
  estTransferBytes: number;
}

/** Tiles encoded per zoom to measure a region's size. */
const SAMPLE_TILES_PER_ZOOM = 8;
const COUNTRY_MAX_ZOOM = 10;
/** The font stacks the styles' labels ask for (style-catalogue.ts), as the glyph URL's `{fontstack}`. */
export const OFFLINE_FONTSTACKS = [REGULAR_FONT_STACK.join(','), BOLD_FONT_STACK.join(',')] as const;
/** Zooms of the shaded-relief raster fallback (spec part 2 §4.7: `ne2_shaded`, maxzoom 6). */
const RASTER_FALLBACK_MAX_ZOOM = 6;

interface RegionPlan {
  id: string;
  name: string;
  nameAr: string;
  scope: 'country' | 'city';
  bbox: Bbox;
  minZoom: number;
  maxZoom: number;
  countryCode: string | null;
}

export interface OfflineRegionLabel {
  en: string;
  ar: string;
  countryCode: string;
}

export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The regions a pack offers: its coverage, its admin areas of level ≤ 4 with an English or Latin name, and their country. */
export function planRegions(pack: MapPack, label: OfflineRegionLabel | undefined): RegionPlan[] {
  const plans: RegionPlan[] = [];
  const header = pack.header;
  if (header.bbox) {
    const [west, south, east, north] = header.bbox;
    const fallbackName = header.source.name.replace(/\.(osm\.pbf|osm\.gz|osm|pbf)$/i, '').replace(/[_-]+/g, ' ');
    const country = label ? countryByCode(label.countryCode) : countryAt((west + east) / 2, (south + north) / 2);
    plans.push({
      id: slug(header.source.name.replace(/\.(osm\.pbf|osm\.gz|osm|pbf)$/i, '')) || 'coverage',
      name: label?.en ?? fallbackName,
      nameAr: label?.ar ?? fallbackName,
      scope: 'city',
      bbox: header.bbox,
      minZoom: 0,
      maxZoom: MAX_TILE_ZOOM,
      countryCode: country?.code.toUpperCase() ?? null,
    });
  }
  const countries = new Map<string, Bbox>();
  for (const feature of pack.findFeatures('admin_area', (tags) => Number(tags.admin_level) <= 4)) {
    const tags = pack.featureTags(feature);
    const s = pack.sections;
    const bbox: Bbox = [s['features.minLon'][feature]! / 1e7, s['features.minLat'][feature]! / 1e7, s['features.maxLon'][feature]! / 1e7, s['features.maxLat'][feature]! / 1e7];
    const [lon, lat] = pack.featurePosition(feature);
    const country = countryAt(lon, lat);
    const level = Number(tags.admin_level);
    const english = tags['name:en'] ?? tags.name ?? '';
    if (!slug(english)) continue;
    const code = country?.code ?? null;
    if (level <= 2) {
      plans.push({ id: code ?? slug(english), name: english, nameAr: tags['name:ar'] ?? tags.name ?? english, scope: 'country', bbox, minZoom: 0, maxZoom: COUNTRY_MAX_ZOOM, countryCode: code?.toUpperCase() ?? null });
      continue;
    }
    plans.push({ id: `${code ?? 'xx'}-${slug(english)}`, name: english, nameAr: tags['name:ar'] ?? tags.name ?? english, scope: 'city', bbox, minZoom: 0, maxZoom: MAX_TILE_ZOOM, countryCode: code?.toUpperCase() ?? null });
    if (code) {
      const union = countries.get(code);
      countries.set(code, union ? [Math.min(union[0], bbox[0]), Math.min(union[1], bbox[1]), Math.max(union[2], bbox[2]), Math.max(union[3], bbox[3])] : bbox);
    }
  }
  // a country whose governorates the pack holds, but not its own boundary, is offered from their union
  for (const [code, bbox] of countries) {
    if (plans.some((plan) => plan.id === code)) continue;
    const country = countryByCode(code)!;
    plans.push({ id: code, name: country.en, nameAr: country.ar, scope: 'country', bbox, minZoom: 0, maxZoom: COUNTRY_MAX_ZOOM, countryCode: code.toUpperCase() });
  }
  const seen = new Set<string>();
  return plans.filter((plan) => (seen.has(plan.id) ? false : (seen.add(plan.id), true)));
}

/** The tile ranges of `bbox` per zoom. */
export function zoomRanges(bbox: Bbox, minZoom: number, maxZoom: number): Omit<ZoomRange, 'estBytes' | 'estTransferBytes'>[] {
  const ranges: Omit<ZoomRange, 'estBytes' | 'estTransferBytes'>[] = [];
  for (let z = minZoom; z <= maxZoom; z++) {
    const n = 2 ** z;
    const column = (lon: number) => Math.min(n - 1, Math.max(0, Math.floor(((lon + 180) / 360) * n)));
    const row = (lat: number) => {
      const sin = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
      return Math.min(n - 1, Math.max(0, Math.floor((0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * n)));
    };
    const [minX, maxX, minY, maxY] = [column(bbox[0]), column(bbox[2]), row(bbox[3]), row(bbox[1])];
    ranges.push({ z, minX, maxX, minY, maxY, count: (maxX - minX + 1) * (maxY - minY + 1) });
  }
  return ranges;
}

interface Measured {
  region: OfflineRegion;
  zooms: ZoomRange[];
}

export class OfflineRegionService {
  private measured: Promise<Map<string, Measured>> | undefined;

  constructor(
    private readonly deps: {
      pack: MapPack;
      tiles: Pick<VectorTileService, 'tile' | 'version'>;
      solvers: Pick<SolverPool, 'run'>;
      label: OfflineRegionLabel | undefined;
    },
  ) {}

  async regions(): Promise<{ provider: 'svc-offline'; regions: OfflineRegion[] }> {
    const measured = await this.measureOnce();
    return { provider: 'svc-offline', regions: [...measured.values()].map((entry) => entry.region) };
  }

  async manifest(id: string, origin: string): Promise<Record<string, unknown>> {
    const entry = (await this.measureOnce()).get(id);
    if (!entry) throw new ApiError('NOT_FOUND', { message: 'Offline region not found' });
    const { region, zooms } = entry;
    const glyphs = await this.deps.solvers.run('regionGlyphRanges', { bbox: region.bbox });
    const ranges = glyphs.ok ? glyphs.value.ranges : ['0-255'];
    const api = `${origin}/api/v1`;
    const tileBytes = zooms.reduce((sum, zoom) => sum + zoom.estBytes, 0);
    const transferBytes = zooms.reduce((sum, zoom) => sum + zoom.estTransferBytes, 0);
    const raster = zoomRanges(region.bbox, 0, Math.min(RASTER_FALLBACK_MAX_ZOOM, region.maxZoom));
    return {
      provider: 'svc-offline',
      manifestVersion: 1,
      ...region,
      style: { url: `${api}/tiles/style?style=standard`, styles: ['standard', 'dark', 'positron', '3d'].map((style) => ({ style, url: `${api}/tiles/style?style=${style}` })) },
      tiles: {
        template: vectorTileTemplate(origin, region.version),
        tileJson: `${api}/tiles/tilejson/svc`,
        count: region.estTiles,
        estBytes: tileBytes,
        estTransferBytes: transferBytes,
        zooms,
      },
      glyphs: {
        template: `${api}/tiles/glyphs/svc/{fontstack}/{range}.pbf`,
        fontstacks: [...OFFLINE_FONTSTACKS],
        ranges,
        count: OFFLINE_FONTSTACKS.length * ranges.length,
      },
      sprites: { base: `${api}/tiles/sprites/svc/sprite`, urls: ['.json', '.png', '@2x.json', '@2x.png'].map((suffix) => `${api}/tiles/sprites/svc/sprite${suffix}`) },
      rasterFallbacks: [
        {
          source: 'svc-natural-earth',
          template: `${api}/tiles/raster/svc-natural-earth/{z}/{x}/{y}.png`,
          zooms: raster.map(({ z, minX, maxX, minY, maxY, count }) => ({ z, minX, maxX, minY, maxY, count })),
          count: raster.reduce((sum, zoom) => sum + zoom.count, 0),
        },
      ],
      totalBytes: tileBytes,
      attribution: '© OpenStreetMap contributors, ODbL',
    };
  }

  private measureOnce(): Promise<Map<string, Measured>> {
    this.measured ??= this.measure().catch((error: unknown) => {
      this.measured = undefined;
      throw error;
    });
    return this.measured;
  }

  private async measure(): Promise<Map<string, Measured>> {
    const result = new Map<string, Measured>();
    for (const plan of planRegions(this.deps.pack, this.deps.label)) {
      const zooms: ZoomRange[] = [];
      for (const range of zoomRanges(plan.bbox, plan.minZoom, plan.maxZoom)) {
        const samples = sampleTiles(range, SAMPLE_TILES_PER_ZOOM);
        let raw = 0;
        let transfer = 0;
        for (const [x, y] of samples) {
          const tile = await this.deps.tiles.tile({ z: range.z, x, y }, false);
          raw += tile.raw.byteLength;
          transfer += tile.brotli.byteLength;
        }
        zooms.push({ ...range, estBytes: Math.round((raw / samples.length) * range.count), estTransferBytes: Math.round((transfer / samples.length) * range.count) });
      }
      const estTiles = zooms.reduce((sum, zoom) => sum + zoom.count, 0);
      const bytes = zooms.reduce((sum, zoom) => sum + zoom.estBytes, 0);
      result.set(plan.id, { region: { ...plan, estTiles, estSizeMb: Math.round((bytes / 1e6) * 100) / 100, version: this.deps.tiles.version }, zooms });
    }
    return result;
  }
}

/** Up to `limit` tiles spread evenly over the range (every tile when it has no more). */
export function sampleTiles(range: Pick<ZoomRange, 'minX' | 'maxX' | 'minY' | 'maxY' | 'count'>, limit: number): [number, number][] {
  const width = range.maxX - range.minX + 1;
  const picks: [number, number][] = [];
  const step = range.count / Math.min(limit, range.count);
  for (let index = 0; index < Math.min(limit, range.count); index++) {
    const at = Math.floor(index * step + step / 2);
    picks.push([range.minX + (at % width), range.minY + Math.floor(at / width)]);
  }
  return picks;
}
