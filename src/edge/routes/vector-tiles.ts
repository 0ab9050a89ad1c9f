import { defineRoute, HttpReply, type RequestContext, type RouteDefinition } from '../route.js';
import { createCachedAssetReplier } from '../cached-asset.js';
import { publicOrigin } from '../public-origin.js';
import { STYLE_CACHE_CONTROL, UNVERSIONED_TILE_CACHE, VERSIONED_TILE_CACHE } from '../tile-transfer.js';
import { vectorTileParams, vectorTileQuery } from '../../services/tiles/tile-queries.js';
import type { VectorTileService } from '../../services/tiles/vector-tile-service.js';
import type { TileJson } from '../../services/tiles/tilejson.js';

const route = { tags: ['tiles'] };

// Cache-Control of tiles (spec part 2 §4.7): the template's own `?v=` is immutable; anything else a day.
export { UNVERSIONED_TILE_CACHE, VERSIONED_TILE_CACHE };

export interface VectorTileRouteDeps {
  tiles: Pick<VectorTileService, 'tile' | 'cachedTile' | 'version'>;
  tileJson(origin: string): Promise<TileJson>;
  publicBaseUrl: string | undefined;
}

/** Whether the caller presented credentials (an API key, by header or `api_key`, or a bearer token): else the tile is watermarked. */
function authenticated(context: Pick<RequestContext, 'principal'>): boolean {
  return context.principal !== undefined;
}

/** Vector tiles and their TileJSON (spec part 2 §4.7, scope `tiles`). */
export function vectorTileRoutes(deps: VectorTileRouteDeps): RouteDefinition[] {
  const tileReply = createCachedAssetReplier('application/x-protobuf', ['X-Api-Key', 'Authorization']);
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
      // Not async: a cached tile is answered in the request's own turn, with no promise and no AbortSignal made for it.
      handler: (context) => {
        const address = context.params;
        const watermark = !authenticated(context);
        const cacheControl = context.query.v === deps.tiles.version ? VERSIONED_TILE_CACHE : UNVERSIONED_TILE_CACHE;
        const cached = deps.tiles.cachedTile(address, watermark);
        if (cached) return tileReply(cached, context.headers, cacheControl);
        return deps.tiles.tile(address, watermark, context.signal).then((tile) => tileReply(tile, context.headers, cacheControl));
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
