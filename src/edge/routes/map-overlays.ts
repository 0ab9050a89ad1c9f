import { z } from 'zod';
import type { MapDataService } from '../../services/map-data/map-data-service.js';
import { mapConfig, mapLayers } from '../../services/map-data/map-config.js';
import type { MapOverlays } from '../../services/map-data/map-overlays.js';
import type { WeatherLayer } from '../../services/map-data/weather-layer.js';
import { zoneBody, zonePatchBody, type LogisticsZones } from '../../services/map-data/logistics-zones.js';
import { principalOf } from '../auth/bearer-guard.js';
import { publicOrigin } from '../public-origin.js';
import { HttpReply, defineRoute, type RequestContext, type RouteDefinition } from '../route.js';

const route = { tags: ['map'] };
/** Overlays change as traffic is learned and zones are edited: short caching. */
const OVERLAY_CACHE_CONTROL = 'public, max-age=30, stale-while-revalidate=60';
const layerParams = z.object({ layerType: z.string().max(100) });
const tileParams = z.object({ layerType: z.string().max(100), z: z.string().max(16), x: z.string().max(16), y: z.string().max(24) });
const overlayQuery = z.object({ bbox: z.string().max(200).optional(), limit: z.string().max(32).optional(), zoom: z.string().max(32).optional() });
const tileCoverQuery = z.object({ bbox: z.string().max(200).optional(), zoom: z.string().max(32).optional(), maxTiles: z.string().max(32).optional() });
const tileQuery = z.object({ limit: z.string().max(32).optional() });
const zoneListQuery = z.object({ bbox: z.string().max(200).optional(), limit: z.string().max(32).optional() });
const zoneParams = z.object({ id: z.string().max(100) });
const adminRoute = { tags: ['admin', 'map'] };

export interface MapOverlayRoutesDeps {
  overlays: MapOverlays;
  mapData: Pick<MapDataService, 'categoryStyles' | 'iconManifest'>;
  zones: LogisticsZones;
  elevation: boolean;
  publicBaseUrl: string | undefined;
  weather: Pick<WeatherLayer, 'hasData' | 'source' | 'provider'>;
}

/** Map configuration and overlays (part 2 §2.10, §4.8; docs/map-data.md). */
export function mapOverlayRoutes(deps: MapOverlayRoutesDeps): RouteDefinition[] {
  const { overlays } = deps;
  const apiBase = (context: Pick<RequestContext, 'headers'>) => `${publicOrigin(deps.publicBaseUrl, context.headers)}/api/v1`;
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/config',
      summary: 'Map configuration manifest (part 2 §2.10): layers, base styles, overlays (with hasData), categories, icons, sprite and category-style URLs, 3D, logistics zones, weather and capabilities',
      handler: async (context) => {
        const base = apiBase(context);
        const [hasData, logisticsZoneCount] = await Promise.all([overlays.hasData(), deps.zones.activeCount()]);
        const weather = { configured: deps.weather.provider.configured, hasData: hasData.weather, provider: deps.weather.provider.status().provider, source: deps.weather.source() };
        return mapConfig({ apiBase: base, hasData, categories: deps.mapData.categoryStyles(base), icons: deps.mapData.iconManifest(base), elevation: deps.elevation, logisticsZoneCount, weather });
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/layers',
      summary: 'Base styles and overlay layers: { items, baseStyles, overlays, total, requiredOverlays }; each overlay says whether it has data now',
      handler: async (context) => mapLayers(apiBase(context), await overlays.hasData(), { weather: deps.weather.source() }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/overlays/{layerType}',
      summary:
        'An overlay layer as a GeoJSON FeatureCollection with metadata { layerType, name, hasData } (bbox, limit 1–5000 default 500, zoom); bad input answers an empty collection with hasData:false',
      params: layerParams,
      query: overlayQuery,
      handler: async ({ params, query }) => HttpReply.json(await overlays.collection(params.layerType, query), 200, { 'cache-control': OVERLAY_CACHE_CONTROL }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/overlays/{layerType}/tile-cover',
      summary: 'Tile URLs (GeoJSON and vector) covering a bbox at a zoom, zoomed out until at most maxTiles (default 64, at most 256)',
      params: layerParams,
      query: tileCoverQuery,
      handler: (context) => overlays.tileCover(context.params.layerType, context.query, apiBase(context)),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/overlays/{layerType}/tiles/{z}/{x}/{y}',
      summary: 'The overlay features meeting one tile as GeoJSON (unclipped); a bad address answers an empty collection with hasData:false',
      params: tileParams,
      query: tileQuery,
      handler: async ({ params, query }) =>
        HttpReply.json(await overlays.tile(params.layerType, params.z, params.x, params.y, query), 200, { 'cache-control': OVERLAY_CACHE_CONTROL }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/overlays/{layerType}/vector/{z}/{x}/{y}',
      summary: 'One overlay tile as a Mapbox Vector Tile (application/x-protobuf), layer `svc`; an empty body when the tile holds nothing or the address is no tile',
      params: tileParams,
      responseContentType: 'application/x-protobuf',
      handler: async ({ params }) => {
        const tile = await overlays.vectorTile(params.layerType, params.z, params.x, params.y);
        return HttpReply.content(Buffer.from(tile.bytes), 'application/x-protobuf', 200, {
          'cache-control': OVERLAY_CACHE_CONTROL,
          'x-overlay-features': String(tile.count),
          'x-overlay-has-data': String(tile.hasData),
        });
      },
    }),
      defineRoute({
      ...route,
      method: 'GET',
      path: '/map/logistics-zones.geojson',
      summary: 'Active logistics zones as a GeoJSON FeatureCollection (zoneType, riskScore, costMultiplier, routingPolicy, color); bbox and limit (1–1000) optional; a bad bbox answers empty with hasData:false',
      query: zoneListQuery,
      handler: async ({ query }) => HttpReply.json(await deps.zones.geojson(query), 200, { 'cache-control': OVERLAY_CACHE_CONTROL }),
    }),
    defineRoute({
      ...adminRoute,
      method: 'POST',
      path: '/admin/logistics-zones',
      summary: 'Create a logistics zone: name, zoneType, riskScore 0–1, costMultiplier 1–10 (default 1), routingPolicy avoid|penalize|allow, geometry (GeoJSON Polygon or MultiPolygon, [lng, lat]), active, notes',
      body: zoneBody,
      errors: ['FORBIDDEN'],
      handler: async (context) => HttpReply.json(await deps.zones.create(context.body, principalOf(context).userId), 201),
    }),
    defineRoute({
      ...adminRoute,
      method: 'GET',
      path: '/admin/logistics-zones',
      summary: 'Every logistics zone, inactive ones too, newest first (bbox, limit 1–1000 default 100)',
      query: zoneListQuery,
      errors: ['FORBIDDEN'],
      handler: ({ query }) => deps.zones.list(query),
    }),
    defineRoute({
      ...adminRoute,
      method: 'GET',
      path: '/admin/logistics-zones/{id}',
      summary: 'One logistics zone',
      params: zoneParams,
      errors: ['FORBIDDEN', 'NOT_FOUND'],
      handler: ({ params }) => deps.zones.get(params.id),
    }),
    defineRoute({
      ...adminRoute,
      method: 'PATCH',
      path: '/admin/logistics-zones/{id}',
      summary: 'Change fields of a logistics zone (any of the create fields); the geometry is checked again',
      params: zoneParams,
      body: zonePatchBody,
      errors: ['FORBIDDEN', 'NOT_FOUND'],
      handler: ({ params, body }) => deps.zones.update(params.id, body),
    }),
    defineRoute({
      ...adminRoute,
      method: 'DELETE',
      path: '/admin/logistics-zones/{id}',
      summary: 'Delete a logistics zone',
      params: zoneParams,
      errors: ['FORBIDDEN', 'NOT_FOUND'],
      handler: async ({ params }) => {
        await deps.zones.delete(params.id);
        return HttpReply.empty(204);
      },
    }),
  ];
}
