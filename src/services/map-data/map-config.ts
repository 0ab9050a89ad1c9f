/**
 * GET /map/config and GET /map/layers (part 2 §2.10, §4.8): one manifest a map client starts from.
 * Every URL in it is served by this server; overlays say whether they hold data (`hasData`) rather
 * than advertising layers with nothing behind them.
 */
import { STYLE_CATALOGUE } from '../tiles/map-styles/style-catalogue.js';
import { OVERLAY_LAYERS, OVERLAY_LAYER_TYPES, REQUIRED_OVERLAYS, type OverlayLayerType } from './overlay-layers.js';
import { DEFAULT_TILE_COVER_CAP, MAX_TILE_COVER_CAP } from './overlay-queries.js';
import { WEATHER_TIMES, WEATHER_TYPES } from './weather-features.js';

export interface MapConfigInputs {
  apiBase: string;
  /** Whether each overlay has features now. */
  hasData: Record<OverlayLayerType, boolean>;
  /** The category styles document (GET /map/category-styles) at this apiBase. */
  categories: { version: string; iconSpriteUrl: string; categories: readonly { slug: string; name: { en: string; ar: string }; color: string; pinStyle: string; icon: { name: string; href: string } }[] };
  icons: { version: string; icons: readonly { name: string; id: string; href: string; size: number }[] };
  /** Whether an elevation model is configured for the 3d style (TERRAIN_DEM_TILE_URL). */
  elevation: boolean;
  /** Logistics zones stored now. */
  logisticsZoneCount: number;
  /** The weather provider as the weather layer sees it. */
  weather: { configured: boolean; hasData: boolean; provider: string | null; source: string };
}

export function baseStyles(apiBase: string) {
  return STYLE_CATALOGUE.map((entry) => ({
    key: entry.style,
    name: entry.label,
    kind: entry.category === 'imagery' ? 'raster-hybrid' : 'vector',
    endpoint: `${apiBase}/tiles/style?style=${entry.style}`,
    description: entry.description,
  }));
}

export function overlayEntries(apiBase: string, hasData: Record<OverlayLayerType, boolean>, sources: Partial<Record<OverlayLayerType, string>> = {}) {
  return OVERLAY_LAYER_TYPES.map((layerType) => {
    const layer = OVERLAY_LAYERS[layerType];
    const path = `${apiBase}/map/overlays/${layerType}`;
    return {
      key: layerType,
      kind: 'vector',
      layerType,
      name: layer.name,
      tileUrl: `${path}/vector/{z}/{x}/{y}`,
      sourceLayer: 'svc',
      geojsonUrl: path,
      geojsonTileUrl: `${path}/tiles/{z}/{x}/{y}`,
      tileCoverUrl: `${path}/tile-cover`,
      geometry: layer.geometry,
      color: layer.color,
      minZoom: layer.minZoom,
      required: REQUIRED_OVERLAYS.includes(layerType),
      hasData: hasData[layerType],
      source: sources[layerType] ?? layer.source,
    };
  });
}

/** GET /map/layers */
export function mapLayers(apiBase: string, hasData: Record<OverlayLayerType, boolean>, sources: Partial<Record<OverlayLayerType, string>> = {}) {
  const styles = baseStyles(apiBase);
  const overlays = overlayEntries(apiBase, hasData, sources);
  const items = [
    ...styles.map((style) => ({ key: style.key, type: 'base' as const, name: style.name, kind: style.kind, url: style.endpoint, hasData: true })),
    ...overlays.map((overlay) => ({ key: overlay.key, type: 'overlay' as const, name: overlay.name, kind: overlay.kind, url: overlay.tileUrl, hasData: overlay.hasData })),
  ];
  return { items, baseStyles: styles, overlays, total: items.length, requiredOverlays: [...REQUIRED_OVERLAYS] };
}

/** GET /map/config */
export function mapConfig(inputs: MapConfigInputs) {
  const { apiBase } = inputs;
  const layers = mapLayers(apiBase, inputs.hasData, { weather: inputs.weather.source });
  return {
    layers: layers.items,
    baseStyles: layers.baseStyles,
    overlays: layers.overlays,
    categories: inputs.categories.categories.map((category) => ({
      slug: category.slug,
      name: category.name,
      color: category.color,
      pinStyle: category.pinStyle,
      icon: category.icon.name,
    })),
    icons: inputs.icons.icons.map((icon) => ({ name: icon.name, id: icon.id, href: icon.href })),
    iconSpriteUrl: inputs.categories.iconSpriteUrl,
    iconSpriteManifestUrl: `${apiBase}/map/icons/sprite.json`,
    categoryStyleManifest: `${apiBase}/map/category-styles`,
    threeD: {
      styleKey: '3d',
      styleUrl: `${apiBase}/tiles/style?style=3d`,
      buildings: true,
      terrain: inputs.elevation ? { available: true, styleUrl: `${apiBase}/tiles/style?style=3d&terrain=1` } : { available: false },
    },
    logisticsZones: {
      url: `${apiBase}/map/logistics-zones.geojson`,
      count: inputs.logisticsZoneCount,
      hasData: inputs.logisticsZoneCount > 0,
      routingPolicies: ['avoid', 'penalize', 'allow'],
    },
    weather: {
      configured: inputs.weather.configured,
      hasData: inputs.weather.hasData,
      provider: inputs.weather.provider,
      source: inputs.weather.source,
      geojsonUrl: `${apiBase}/map/weather/geojson`,
      geojsonTileUrl: `${apiBase}/map/weather/geojson/tiles/{z}/{x}/{y}`,
      tileUrl: `${apiBase}/map/weather/vector/{z}/{x}/{y}`,
      sourceLayer: 'svc_weather',
      svgTileUrl: `${apiBase}/map/weather/tiles/{z}/{x}/{y}`,
      tileCoverUrl: `${apiBase}/map/weather/tile-cover`,
      pointUrl: `${apiBase}/map/weather/point`,
      riskUrl: `${apiBase}/map/weather-risk`,
      types: [...WEATHER_TYPES],
      times: Object.keys(WEATHER_TIMES),
    },
    capabilities: {
      publicEndpoints: {
        config: `${apiBase}/map/config`,
        layers: `${apiBase}/map/layers`,
        categoryStyles: `${apiBase}/map/category-styles`,
        poi: `${apiBase}/map/poi`,
        readiness: `${apiBase}/map/readiness`,
        overlays: `${apiBase}/map/overlays/{layerType}`,
        logisticsZones: `${apiBase}/map/logistics-zones.geojson`,
        styles: `${apiBase}/tiles/styles`,
        staticMap: `${apiBase}/static/map`,
        weather: `${apiBase}/map/weather/geojson`,
        weatherPoint: `${apiBase}/map/weather/point`,
        weatherRisk: `${apiBase}/map/weather-risk`,
        routeRisk: `${apiBase}/map/route-risk`,
      },
      performance: { defaultTileCoverCap: DEFAULT_TILE_COVER_CAP, maxTileCoverCap: MAX_TILE_COVER_CAP, tileAddressedOverlays: true },
      vectorOverlays: { enabled: true, format: 'mvt', sourceLayer: 'svc' },
    },
    version: inputs.categories.version,
  };
}
