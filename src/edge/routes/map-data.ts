import { z } from 'zod';
import type { MapDataService } from '../../services/map-data/map-data-service.js';
import type { PoiMarkers } from '../../services/map-data/poi-markers.js';
import { ApiError } from '../../shared/errors.js';
import { publicOrigin } from '../public-origin.js';
import { HttpReply, defineRoute, type RequestContext, type RouteDefinition } from '../route.js';
import { UNVERSIONED_TILE_CACHE, assetReply, tileCacheControl } from '../tile-transfer.js';

const route = { tags: ['map'] };
const versionQuery = z.object({ v: z.string().max(64).optional() });
const fileParams = z.object({ file: z.string().max(200) });

export interface MapDataRoutesDeps {
  mapData: Pick<MapDataService, 'readiness' | 'categoryStyles' | 'iconManifest' | 'iconSprite' | 'pinIcon' | 'weatherIcon' | 'icons'>;
  poi: Pick<PoiMarkers, 'queryJson'>;
  publicBaseUrl: string | undefined;
}

const poiQuery = z.object({
  bbox: z.string().max(200).optional(),
  zoom: z.string().max(32).optional(),
  categories: z.string().max(2_000).optional(),
  locale: z.string().max(32).optional(),
  vw: z.string().max(32).optional(),
  vh: z.string().max(32).optional(),
  dpr: z.string().max(32).optional(),
  perf: z.string().max(32).optional(),
});

/** Part 2 §4.8: cacheable about 20 s, served stale for 120 s while revalidating. */
const POI_CACHE_CONTROL = 'public, max-age=20, stale-while-revalidate=120';
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Map data endpoints (spec part 2 §4.8, scope `tiles`; docs/map-data.md). Overlays join this family later. */
export function mapDataRoutes(deps: MapDataRoutesDeps): RouteDefinition[] {
  const { mapData } = deps;
  const apiBase = (context: Pick<RequestContext, 'headers'>) => `${publicOrigin(deps.publicBaseUrl, context.headers)}/api/v1`;
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/readiness',
      summary: 'Self-audit of the loaded map data: boolean checks, which map capabilities are served and ready, and a summary of counts',
      handler: () => mapData.readiness(),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/poi',
      summary:
        'Label-budgeted catalogue places for a viewport (bbox, zoom, categories, locale, vw/vh, dpr, perf): priority-ordered, no two drawn labels overlapping on screen, the rest clustered; bad values are clamped, a missing bbox answers 200 with error',
      query: poiQuery,
      // written by hand as bytes: JSON.stringify of the answer was the largest cost of the request (docs/map-data.md)
      handler: async (context) => HttpReply.content(await deps.poi.queryJson(context.query, apiBase(context)), JSON_CONTENT_TYPE, 200, { 'cache-control': POI_CACHE_CONTROL }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/category-styles',
      summary: 'Styling of every place category: colour (and a dark-theme colour), pin style, zoom range, Maki icon in the SVG sprite, light and dark pin URLs, aliases',
      handler: (context) => mapData.categoryStyles(apiBase(context)),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/icons/sprite.json',
      summary: 'Manifest of the category icon sprite: name, symbol id (`svc-icon-<name>`), href and size (Maki grid, 15) per icon',
      handler: (context) => mapData.iconManifest(apiBase(context)),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/icons/sprite.svg',
      summary: 'SVG symbol sprite of the category icons (Maki, CC0), symbols `svc-icon-<name>`; `?v=` as in sprite.json makes it immutable',
      query: versionQuery,
      responseContentType: 'image/svg+xml',
      handler: ({ headers, query }) => assetReply(headers, mapData.iconSprite(), tileCacheControl(query.v, mapData.icons.version)),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/icons/pins/{file}',
      summary: 'A category pin icon (`<pin>-light.svg` or `<pin>-dark.svg`, 30×40 SVG) at the URL places return as iconLightUrl/iconDarkUrl',
      params: fileParams,
      query: versionQuery,
      responseContentType: 'image/svg+xml',
      errors: ['NOT_FOUND'],
      handler: ({ headers, params, query }) => {
        const asset = mapData.pinIcon(params.file);
        if (!asset) throw new ApiError('NOT_FOUND', { message: `No pin icon ${params.file}` });
        return assetReply(headers, asset, tileCacheControl(query.v, mapData.icons.version));
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/uploads/weather-icons/{file}',
      mount: 'root',
      summary: 'A 24×24 weather icon `{slug}-{light|dark}.svg` (part 2 §2.11); an unknown slug is drawn as `cloud`',
      params: fileParams,
      responseContentType: 'image/svg+xml',
      errors: ['NOT_FOUND'],
      handler: ({ headers, params }) => {
        const asset = mapData.weatherIcon(params.file);
        if (!asset) throw new ApiError('NOT_FOUND', { message: `No weather icon ${params.file}: names are {slug}-light.svg or {slug}-dark.svg` });
        return assetReply(headers, asset, UNVERSIONED_TILE_CACHE);
      },
    }),
  ];
}
