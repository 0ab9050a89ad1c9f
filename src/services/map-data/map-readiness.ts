/**
 * The map self-audit behind GET /map/readiness: boolean checks over the loaded
 * pack, what each map capability needs and whether this server serves it, and a
 * summary of the pack's counts. Data alone is no promise: a pack with building
 * footprints does not make tiles served, so each capability says both.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import type { WeatherReadiness } from '../weather/open-meteo-forecast.js';

/** One map capability: whether its endpoints are served here, whether the loaded data supports it, and both. */
export interface CapabilityStatus {
  /** The capability's endpoints are registered and switched on in this server. */
  served: boolean;
  /** The loaded map data holds what the capability needs. */
  data: boolean;
  /** served and data. */
  ready: boolean;
  /** Why there is no data, where the capability knows (the weather provider's last outcome). */
  reason?: string;
}

/** Map capabilities and the endpoint that stands for each (spec paths, relative to /api/v1). */
export const MAP_CAPABILITIES = {
  routing: { method: 'POST', path: '/routing/route' },
  navigation: { method: 'POST', path: '/navigation/sessions' },
  optimization: { method: 'POST', path: '/optimize/routes' },
  geocoding: { method: 'GET', path: '/geocode/search' },
  addressing: { method: 'GET', path: '/geo/pluscode' },
  placeCatalogue: { method: 'GET', path: '/places' },
  placeSearch: { method: 'GET', path: '/search' },
  vectorTiles: { method: 'GET', path: '/tiles/vector/svc/planet/{z}/{x}/{y}.pbf' },
  mapPoi: { method: 'GET', path: '/map/poi' },
  weather: { method: 'GET', path: '/map/weather/geojson' },
  staticMaps: { method: 'GET', path: '/static/map' },
} as const satisfies Record<string, { method: string; path: string }>;
export type MapCapability = keyof typeof MAP_CAPABILITIES;

export interface MapReadinessOptions {
  /** Whether this server answers `method path` (the composed route table, not the spec). */
  serves(method: string, path: string): boolean;
  /** Capabilities switched off by configuration although their routes answer (e.g. GEOCODING_ENABLED=false). */
  switchedOff?: readonly MapCapability[];
  /** The map weather layer's provider (WEATHER_URL): weather is data the pack cannot hold; none means none is wired. */
  weather?: { readiness(probeAt: { lat: number; lng: number } | undefined): Promise<WeatherReadiness> };
}

export interface MapReadiness {
  ready: boolean;
  checks: Record<string, boolean>;
  capabilities: Record<MapCapability, CapabilityStatus>;
  summary: {
    dataset: { source: string; format: string; builtAt: string; packVersion: number; bbox: [number, number, number, number] | null };
    graph: { nodes: number; edges: number; ways: number; turnRestrictions: number; largestComponentShare: number };
    layers: Record<string, number>;
  };
  attribution: string;
}

/** Share of road ways carrying an Arabic name (name:ar, or an Arabic-script name). */
function arabicNamedShare(pack: MapPack): number {
  const names = pack.sections['ways.name'];
  const arabic = pack.sections['ways.nameAr'];
  let named = 0;
  let withArabic = 0;
  for (let way = 0; way < names.length; way++) {
    if (!names[way] && !arabic[way]) continue;
    named++;
    if (arabic[way] || /[\u0600-\u06FF]/.test(pack.strings.get(names[way]!))) withArabic++;
  }
  return named ? withArabic / named : 0;
}

/** Where a readiness check asks the weather provider: the middle of the pack's box. */
export function packCentre(pack: MapPack): { lat: number; lng: number } | undefined {
  const bbox = pack.header.bbox;
  return bbox ? { lat: (bbox[1] + bbox[3]) / 2, lng: (bbox[0] + bbox[2]) / 2 } : undefined;
}

/** `weather` is the weather provider's readiness (WeatherReadiness), asked by the caller. */
export function mapReadiness(pack: MapPack, options: MapReadinessOptions, weather: WeatherReadiness): MapReadiness {
  const { header } = pack;
  const layers = Object.fromEntries(Object.entries(header.layers).map(([layer, [, count]]) => [layer, count]));
  const largestComponentShare = Number((header.stats.largestComponentShare ?? 0).toFixed(4));
  const checks = {
    roadGraphLoaded: pack.edgeCount > 0,
    roadGraphConnected: largestComponentShare >= 0.9,
    roadNamesPresent: pack.sections['ways.name'].some((id) => id !== 0),
    arabicRoadNames: arabicNamedShare(pack) >= 0.5,
    geocodingSources: (layers.place ?? 0) + (layers.address ?? 0) + (layers.admin_area ?? 0) > 0,
    placeCatalogueSeeds: (layers.poi ?? 0) > 0,
    tileLayers: (layers.building ?? 0) + (layers.landuse ?? 0) + (layers.water ?? 0) + (layers.park ?? 0) > 0,
    attributionPresent: header.attribution.includes('OpenStreetMap'),
  };
  const roads = checks.roadGraphLoaded && checks.roadGraphConnected;
  const dataFor: Record<MapCapability, boolean> = {
    routing: roads,
    navigation: roads,
    optimization: roads,
    geocoding: checks.geocodingSources,
    // Plus Codes need no map data; their nearby-place part falls back to the bare code
    addressing: true,
    placeCatalogue: checks.placeCatalogueSeeds,
    placeSearch: checks.placeCatalogueSeeds,
    vectorTiles: checks.tileLayers,
    mapPoi: checks.placeCatalogueSeeds,
    weather: weather.data,
    // drawn from the same features as the vector tiles
    staticMaps: checks.tileLayers,
  };
  const capabilities = Object.fromEntries(
    (Object.keys(MAP_CAPABILITIES) as MapCapability[]).map((name) => {
      const { method, path } = MAP_CAPABILITIES[name];
      const served = options.serves(method, path) && !options.switchedOff?.includes(name);
      const reason = name === 'weather' && !weather.data ? weather.reason : undefined;
      return [name, { served, data: dataFor[name], ready: served && dataFor[name], ...(reason ? { reason } : {}) }];
    }),
  ) as Record<MapCapability, CapabilityStatus>;
  return {
    ready: checks.roadGraphLoaded && checks.roadGraphConnected && checks.attributionPresent,
    checks,
    capabilities,
    summary: {
      dataset: { source: header.source.name, format: header.source.format, builtAt: header.createdAt, packVersion: header.version, bbox: header.bbox },
      graph: { nodes: pack.nodeCount, edges: pack.edgeCount, ways: header.counts.ways ?? 0, turnRestrictions: header.counts.restrictions ?? 0, largestComponentShare },
      layers,
    },
    attribution: header.attribution,
  };
}
