import { defineRoute, HttpReply, type RequestContext, type RouteDefinition } from '../route.js';
import { cachedAssetReply } from '../cached-asset.js';
import { publicOrigin } from '../public-origin.js';
import { STYLE_CACHE_CONTROL, UNVERSIONED_TILE_CACHE, VERSIONED_TILE_CACHE } from '../tile-transfer.js';
import { vectorTileParams, vectorTileQuery } from '../../services/tiles/tile-queries.js';
import type { VectorTileService } from '../../services/tiles/vector-tile-service.js';
import type { TileJson } from '../../services/tiles/tilejson.js';

const route = { tags: ['tiles'] };

// Cache-Control of tiles (spec part 2 §4.7): the template's own `?v=` is immutable; anything else a day.
export { UNVERSIONED_TILE_CACHE, VERSIONED_TILE_CACHE };

export interface VectorTileRouteDeps {
  tiles: Pick<VectorTileService, 'tile' | 'version'>;
  tileJson(origin: string): Promise<TileJson>;
  publicBaseUrl: string | undefined;
}

/** Whether the caller presented credentials (an API key, by header or `api_key`, or a bearer token): else the tile is watermarked. */
function authenticated(context: Pick<RequestContext, 'principal'>): boolean {
  return context.principal !== undefined;
}

/** Vector tiles and their TileJSON (spec part 2 §4.7, scope `tiles`). */
export function vectorTileRoutes(deps: VectorTileRouteDeps): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/tiles/vector/svc/planet/{z}/{x}/{y}.pbf',
      summary: 'One Mapbox Vector Tile (2.1) of the map data in the OpenMapTiles schema, z0–14; `.pbf` is optional on {y}',
      description:
        'Layers water, waterway, landcover, landuse, park, boundary, aeroway, transportation, transportation_name, building, water_name, place, housenumber (no poi). ' +
        'Brotli or gzip by Accept-Encoding; strong ETag, If-None-Match answers 304. Without an API key the tile carries the `svc_watermark` layer (docs/tiles.md).',
      params: vectorTileParams,
      query: vectorTileQuery,
      responseContentType: 'application/x-protobuf',
      errors: ['SERVER_BUSY'],
      handler: async (context) => {
        const { z, x, y } = context.params;
        const tile = await deps.tiles.tile({ z, x, y }, !authenticated(context), context.signal);
        const cacheControl = context.query.v === deps.tiles.version ? VERSIONED_TILE_CACHE : UNVERSIONED_TILE_CACHE;
        return cachedAssetReply({ ...tile, contentType: 'application/x-protobuf' }, context.headers, cacheControl, ['X-Api-Key', 'Authorization']);
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/tiles/tilejson/svc',
      summary: 'TileJSON 3.0 of the vector tiles: versioned tile template, zoom range, layers with their fields, bounds, attribution',
      handler: async ({ headers }) => HttpReply.json(await deps.tileJson(publicOrigin(deps.publicBaseUrl, headers)), 200, { 'cache-control': STYLE_CACHE_CONTROL }),
    }),
  ];
}
