/**
 * The weather map layer (part 2 §4.8; docs/map-data.md, "Weather"): the configured Open-Meteo-compatible
 * forecast sampled on a grid over the asked bbox (weather-grid.ts), one polygon feature per cell and
 * weather type, as GeoJSON, GeoJSON tiles, vector tiles (layer `svc_weather`, encoded in the solver
 * pool), SVG tiles and a tile cover. With no provider configured, or the provider failing, every answer
 * is empty with `hasData: false` and the reason: weather is never invented. Bad input degrades the
 * same way with `metadata.error`.
 */
import type { Feature } from 'geojson';
import type { SolverPool } from '../../solvers/solver-pool.js';
import type { OpenMeteoForecast, WeatherBatch } from '../weather/open-meteo-forecast.js';
import type { WeatherHour } from '../weather/weather-conditions.js';
import { sampleGrid, type GridSample } from '../weather/weather-grid.js';
import { OVERLAY_LAYERS } from './overlay-layers.js';
import { DEFAULT_OVERLAY_LIMIT, DEFAULT_TILE_COVER_CAP, MAX_OVERLAY_LIMIT, MAX_OVERLAY_ZOOM, MAX_TILE_COVER_CAP, clampedInt, coverTiles, parseBbox, parseTileAddress, tileBbox } from './overlay-queries.js';
import type { Bbox, OverlayFeature } from './pack-overlays.js';
import { cellFeatures, isWeatherTime, isWeatherType, WEATHER_TIMES, WEATHER_TYPES, type WeatherTime, type WeatherType } from './weather-features.js';
import { weatherIconFile } from './weather-icons.js';
import { weatherSvgTile } from './weather-svg-tile.js';

export const WEATHER_TILE_LAYER = 'svc_weather';
/** Without `type`, the SVG tile draws precipitation (the usual weather-radar view). */
export const DEFAULT_SVG_TILE_TYPE: WeatherType = 'precipitation';
const HOUR_MS = 3_600_000;
export const NO_PROVIDER = 'no weather provider is configured (WEATHER_URL): weather is never invented';

export type WeatherProvider = Pick<OpenMeteoForecast, 'configured' | 'forecastMany' | 'status' | 'healthy' | 'readiness'>;

type Query = Record<string, string | undefined>;

export interface WeatherMetadata {
  layerType: 'weather';
  name: string;
  hasData: boolean;
  source: string;
  provider: string | null;
  types: WeatherType[];
  time: WeatherTime;
  /** Start of the hour shown (ISO 8601), null when the time filter was bad. */
  validAt: string | null;
  count: number;
  truncated: boolean;
  zoom: number;
  bbox: Bbox | null;
  /** Lattice step of the sampled cells, degrees. */
  gridStepDeg: number | null;
  /** Cells sampled (each one provider location, cached per 0.1° cell and hour). */
  samples: number;
  /** Light and dark icon URLs, once per `weatherType` the features carry (part 2 §2.11). */
  icons: Record<string, { iconLightUrl: string; iconDarkUrl: string }>;
  /** Why there is no weather: no provider, or the provider failed. */
  reason?: string;
  /** Bad input (the answer is empty, never an error status). */
  error?: string;
}

export interface WeatherCollection {
  type: 'FeatureCollection';
  features: OverlayFeature[];
  metadata: WeatherMetadata;
}

interface Filters {
  types: WeatherType[];
  time: WeatherTime;
  error?: string;
}

/** `type` (one or a comma-separated list, default all) and `time` (default now). */
export function parseWeatherFilters(query: Query, defaultTypes: readonly WeatherType[] = WEATHER_TYPES): Filters {
  const time = query.time?.trim() || 'now';
  const asked = (query.type ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = asked.filter((type) => !isWeatherType(type));
  const types = asked.length ? [...new Set(asked.filter(isWeatherType))] : [...defaultTypes];
  if (unknown.length) return { types, time: 'now', error: `type: one or more of ${WEATHER_TYPES.join(', ')} (not ${JSON.stringify(unknown[0]!.slice(0, 32))})` };
  if (!isWeatherTime(time)) return { types, time: 'now', error: `time: one of ${Object.keys(WEATHER_TIMES).join(', ')}` };
  return { types, time };
}

export interface WeatherLayerOptions {
  provider: WeatherProvider;
  solvers: Pick<SolverPool, 'run'>;
  now?: () => number;
}

export class WeatherLayer {
  private readonly now: () => number;

  constructor(private readonly options: WeatherLayerOptions) {
    this.now = options.now ?? Date.now;
  }

  get provider(): WeatherProvider {
    return this.options.provider;
  }

  /** Features exist to show now: a provider is configured and its last call (if any) succeeded. */
  hasData(): boolean {
    return this.options.provider.healthy;
  }

  /** What the layer is drawn from (for /map/config and the overlay's metadata). */
  source(): string {
    const { provider } = this.options.provider.status();
    return provider ? `the forecast of ${provider} (an Open-Meteo-compatible API) sampled on a grid of cells` : OVERLAY_LAYERS.weather.source;
  }

  /** The forecast of many points at once (point and risk queries share the adapter's cache). */
  forecasts(points: readonly { lat: number; lng: number }[]): Promise<WeatherBatch> {
    return this.options.provider.forecastMany(points);
  }

  /** GET /map/weather/geojson: `bbox` (required), `type`, `time`, `limit` (1–5000, default 500), `zoom` (0–22, default 14). */
  async collection(query: Query, origin: string): Promise<WeatherCollection> {
    const zoom = clampedInt(query.zoom, 14, 0, MAX_OVERLAY_ZOOM);
    const limit = clampedInt(query.limit, DEFAULT_OVERLAY_LIMIT, 1, MAX_OVERLAY_LIMIT);
    const filters = parseWeatherFilters(query);
    const bbox = parseBbox(query.bbox);
    const error = filters.error ?? (!bbox.ok ? bbox.error : bbox.value === undefined ? 'bbox is required: west,south,east,north' : undefined);
    if (error || !bbox.ok || !bbox.value) return this.empty(filters, zoom, bbox.ok ? (bbox.value ?? null) : null, { error: error! });
    return this.select(bbox.value, zoom, limit, filters, origin);
  }

  /** GET /map/weather/geojson/tiles/{z}/{x}/{y}: the cells meeting one tile. */
  async tile(z: string, x: string, y: string, query: Query, origin: string): Promise<WeatherCollection> {
    const filters = parseWeatherFilters(query);
    const address = parseTileAddress(z, x, y);
    if (!address) return this.empty(filters, 0, null, { error: `${z}/${x}/${y} is no tile: z runs 0–${MAX_OVERLAY_ZOOM}, x and y 0 to 2^z − 1` });
    if (filters.error) return this.empty(filters, address.z, tileBbox(address), { error: filters.error });
    return this.select(tileBbox(address), address.z, clampedInt(query.limit, MAX_OVERLAY_LIMIT, 1, MAX_OVERLAY_LIMIT), filters, origin);
  }

  /** GET /map/weather/vector/{z}/{x}/{y}: an MVT with the layer `svc_weather`; empty bytes for no features or bad input. */
  async vectorTile(z: string, x: string, y: string, query: Query): Promise<{ bytes: Uint8Array; count: number; hasData: boolean; reason?: string }> {
    const selected = await this.tile(z, x, y, { ...query, limit: undefined }, '');
    const address = parseTileAddress(z, x, y);
    const reason = selected.metadata.error ?? selected.metadata.reason;
    if (!address || selected.features.length === 0) return { bytes: new Uint8Array(0), count: 0, hasData: selected.metadata.hasData, ...(reason ? { reason } : {}) };
    const result = await this.options.solvers.run('overlayVectorTile', { ...address, layer: WEATHER_TILE_LAYER, features: selected.features as Feature[] });
    if (!result.ok) return { bytes: new Uint8Array(0), count: 0, hasData: false, reason: 'the tile could not be encoded' };
    return { bytes: result.value.raw, count: result.value.count, hasData: true };
  }

  /** GET /map/weather/tiles/{z}/{x}/{y}: one weather type (default precipitation) drawn as a 256-pixel SVG tile. */
  async svgTile(z: string, x: string, y: string, query: Query): Promise<{ svg: string; count: number; hasData: boolean; reason?: string }> {
    const filters = parseWeatherFilters(query, [DEFAULT_SVG_TILE_TYPE]);
    const address = parseTileAddress(z, x, y);
    const selected = address && !filters.error ? await this.select(tileBbox(address), address.z, MAX_OVERLAY_LIMIT, { ...filters, types: filters.types.slice(0, 1) }, '') : undefined;
    const reason = !address ? `${z}/${x}/${y} is no tile` : (filters.error ?? selected?.metadata.reason);
    const features = selected?.features ?? [];
    return { svg: weatherSvgTile(address ?? { z: 0, x: 0, y: 0 }, features), count: features.length, hasData: selected?.metadata.hasData ?? false, ...(reason ? { reason } : {}) };
  }

  /** GET /map/weather/tile-cover: tile URLs (GeoJSON, vector, SVG) covering `bbox` at `zoom` (default 8), at most `maxTiles` (default 64, at most 256). */
  tileCover(query: Query, apiBase: string) {
    const requestedZoom = clampedInt(query.zoom, 8, 0, MAX_OVERLAY_ZOOM);
    const maxTiles = clampedInt(query.maxTiles, DEFAULT_TILE_COVER_CAP, 1, MAX_TILE_COVER_CAP);
    const filters = parseWeatherFilters(query);
    const bbox = parseBbox(query.bbox);
    const base = { layerType: 'weather' as const, requestedZoom, maxTiles, hasData: this.hasData() };
    const error = filters.error ?? (!bbox.ok ? bbox.error : bbox.value === undefined ? 'bbox is required: west,south,east,north' : undefined);
    if (error || !bbox.ok || !bbox.value) return { ...base, zoom: requestedZoom, count: 0, capped: false, tiles: [], hasData: false, error };
    // the filters travel with the URLs, so the tiles show what the cover was asked for
    const search = new URLSearchParams();
    if (query.type) search.set('type', filters.types.join(','));
    if (query.time) search.set('time', filters.time);
    const suffix = search.size ? `?${search}` : '';
    const cover = coverTiles(bbox.value, requestedZoom, maxTiles);
    const path = `${apiBase}/map/weather`;
    const tiles = cover.tiles.map(({ z, x, y }) => ({
      z,
      x,
      y,
      url: `${path}/geojson/tiles/${z}/${x}/${y}${suffix}`,
      vectorUrl: `${path}/vector/${z}/${x}/${y}${suffix}`,
      svgUrl: `${path}/tiles/${z}/${x}/${y}${suffix}`,
    }));
    return { ...base, zoom: cover.zoom, count: tiles.length, capped: cover.capped, bbox: bbox.value, tiles, ...(this.hasData() ? {} : { reason: this.options.provider.configured ? 'the weather provider failed on its last call' : NO_PROVIDER }) };
  }

  /** The weather overlay (/map/overlays/weather): every type at the current hour, for the generic overlay endpoints. */
  async overlayFeatures(bbox: Bbox, zoom: number, limit: number): Promise<{ features: OverlayFeature[]; truncated: boolean; hasData: boolean; reason?: string }> {
    const selected = await this.select(bbox, zoom, limit, { types: [...WEATHER_TYPES], time: 'now' }, '');
    return { features: selected.features, truncated: selected.metadata.truncated, hasData: selected.metadata.hasData, ...(selected.metadata.reason ? { reason: selected.metadata.reason } : {}) };
  }

  /** The forecast hour `offsetHours` from the current one at each cell of the grid. */
  async sampleHours(bbox: Bbox, zoom: number, offsetHours: number): Promise<{ stepDeg: number; atMs: number; cells: { sample: GridSample; hour: WeatherHour }[]; error?: string }> {
    const atMs = Math.floor(this.now() / HOUR_MS) * HOUR_MS + offsetHours * HOUR_MS;
    const grid = sampleGrid(bbox, zoom);
    const batch = await this.options.provider.forecastMany(grid.samples);
    const cells: { sample: GridSample; hour: WeatherHour }[] = [];
    grid.samples.forEach((sample, index) => {
      const hour = batch.forecasts[index]?.hours.find((candidate) => candidate.atMs === atMs);
      if (hour) cells.push({ sample, hour });
    });
    const error = cells.length ? undefined : (batch.error ?? 'the weather provider gave no forecast for this hour');
    return { stepDeg: grid.stepDeg, atMs, cells, ...(error ? { error } : {}) };
  }

  private async select(bbox: Bbox, zoom: number, limit: number, filters: Filters, origin: string): Promise<WeatherCollection> {
    if (!this.options.provider.configured) return this.empty(filters, zoom, bbox, { reason: NO_PROVIDER });
    const sampled = await this.sampleHours(bbox, zoom, WEATHER_TIMES[filters.time]);
    if (sampled.error) return this.empty(filters, zoom, bbox, { reason: sampled.error, validAt: sampled.atMs, gridStepDeg: sampled.stepDeg });
    const all = sampled.cells.flatMap(({ sample, hour }) => cellFeatures(sample, hour, filters.types, sampled.stepDeg));
    const features = all.slice(0, limit);
    const icons: WeatherMetadata['icons'] = {};
    for (const feature of features) {
      const slug = String(feature.properties.weatherType);
      icons[slug] ??= { iconLightUrl: `${origin}/uploads/weather-icons/${weatherIconFile(slug, 'light')}`, iconDarkUrl: `${origin}/uploads/weather-icons/${weatherIconFile(slug, 'dark')}` };
    }
    return {
      type: 'FeatureCollection',
      features,
      metadata: {
        ...this.baseMetadata(filters, zoom, bbox),
        hasData: true,
        validAt: new Date(sampled.atMs).toISOString(),
        count: features.length,
        truncated: all.length > limit,
        gridStepDeg: sampled.stepDeg,
        samples: sampled.cells.length,
        icons,
      },
    };
  }

  private baseMetadata(filters: Filters, zoom: number, bbox: Bbox | null): WeatherMetadata {
    return {
      layerType: 'weather',
      name: OVERLAY_LAYERS.weather.name,
      hasData: false,
      source: this.source(),
      provider: this.options.provider.status().provider,
      types: filters.types,
      time: filters.time,
      validAt: null,
      count: 0,
      truncated: false,
      zoom,
      bbox,
      gridStepDeg: null,
      samples: 0,
      icons: {},
    };
  }

  private empty(filters: Filters, zoom: number, bbox: Bbox | null, why: { error?: string; reason?: string; validAt?: number; gridStepDeg?: number }): WeatherCollection {
    const metadata = this.baseMetadata(filters, zoom, bbox);
    if (why.validAt !== undefined) metadata.validAt = new Date(why.validAt).toISOString();
    if (why.gridStepDeg !== undefined) metadata.gridStepDeg = why.gridStepDeg;
    if (why.error) metadata.error = why.error;
    if (why.reason) metadata.reason = why.reason;
    return { type: 'FeatureCollection', features: [], metadata };
  }
}
