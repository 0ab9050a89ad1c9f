/**
 * Map styles, glyphs, sprites and raster tiles (spec part 2 §4.7, scope `tiles`). Every asset goes
 * out through edge/tile-transfer.ts: Cache-Control per kind, strong ETag and 304, Brotli or gzip for
 * the compressible ones.
 */
import { z } from 'zod';
import type { GlyphService } from '../../services/tiles/glyphs/glyph-service.js';
import { glyphRangeStart } from '../../services/tiles/glyphs/glyph-service.js';
import type { MapStyleService } from '../../services/tiles/map-styles/map-style-service.js';
import { STYLE_CATALOGUE } from '../../services/tiles/map-styles/style-catalogue.js';
import { parseTileRow, RASTER_SOURCES, type RasterSource, type RasterTiles } from '../../services/tiles/raster/raster-tiles.js';
import type { SpriteService } from '../../services/tiles/sprites/sprite-sheet.js';
import { parseLocales } from '../../services/geocoding/result-format.js';
import { ApiError } from '../../shared/errors.js';
import { queryBoolean } from '../input.js';
import { publicOrigin } from '../public-origin.js';
import { styleField } from '../schemas/map-style.js';
import { defineRoute, type RequestContext, type RouteDefinition } from '../route.js';
import { assetReply, STYLE_CACHE_CONTROL, tileCacheControl } from '../tile-transfer.js';

export interface MapStyleRoutesDeps {
  styles: MapStyleService;
  glyphs: GlyphService;
  sprites: SpriteService;
  raster: RasterTiles;
  /** PUBLIC_BASE_URL: the origin put in style URLs; unset = the request's Host. */
  publicBaseUrl: string | undefined;
}

const route = { tags: ['tiles'] };
const single = z.string({ error: 'must be given once' });
/** Label languages kept from a preference (`ar,en,fr`): enough for a fallback chain, few enough to cache every combination. */
const MAX_LABEL_LANGUAGES = 3;

const styleQuery = z.object({
  style: styleField(),
  version: single.trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
  terrain: queryBoolean().optional(),
  locale: single.trim().max(100, 'must be at most 100 characters').optional(),
});

const versionQuery = z.object({ v: single.max(64).optional() });

const glyphParams = z.object({
  fontstack: z.string().min(1).max(200, 'must be at most 200 characters'),
  range: z.string(),
});

const rasterParams = z.object({
  source: z.string(),
  z: z.string().regex(/^\d{1,2}$/, 'must be a zoom level'),
  x: z.string().regex(/^\d{1,8}$/, 'must be a tile column'),
  y: z.string(),
});

const catalogueResponse = z.object({
  provider: z.literal('svc-tiles'),
  count: z.number(),
  styleUrl: z.string(),
  styles: z.array(z.object({ style: z.string(), label: z.string(), category: z.enum(['base', 'imagery']), description: z.string() })).readonly(),
});

export function mapStyleRoutes(deps: MapStyleRoutesDeps): RouteDefinition[] {
  const apiBase = (context: Pick<RequestContext, 'headers'>) => `${publicOrigin(deps.publicBaseUrl, context.headers)}/api/v1`;

  const sprite = (path: string, summary: string, pixelRatio: 1 | 2, part: 'index' | 'image') =>
    defineRoute({
      ...route,
      method: 'GET',
      path,
      summary,
      query: versionQuery,
      responseContentType: part === 'index' ? 'application/json' : 'image/png',
      handler: async ({ headers, query }) => {
        const sheet = await deps.sprites.sheet(pixelRatio);
        return assetReply(headers, sheet[part], tileCacheControl(query.v, deps.sprites.version));
      },
    });

  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/tiles/styles',
      summary: `The ${STYLE_CATALOGUE.length} map styles (standard, positron, dark, satellite, 3d, terrain) and the style URL`,
      response: catalogueResponse,
      handler: (context) => deps.styles.catalogue(apiBase(context)),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/tiles/style',
      summary: 'A style document (MapLibre style specification 8): `style` (standard default, road = standard), `version` (becomes the name), `terrain=1` (elevation in 3d when configured), `locale` (label language, else Accept-Language)',
      description:
        'Sources: `svc` (vector, tiles inline with `?v=`), `satellite` or `ne2_shaded` rasters under it in the hybrids, `svc-watermark` without an API key. Cache-Control: public, max-age=300, stale-while-revalidate=86400; ETag and If-None-Match.',
      query: styleQuery,
      responseContentType: 'application/json',
      handler: (context) => {
        const { query, headers } = context;
        const languages = parseLocales(query.locale ?? headers['accept-language']).slice(0, MAX_LABEL_LANGUAGES);
        const asset = deps.styles.style(
          { style: query.style, name: query.version, languages, authenticated: context.principal !== undefined, terrain: query.terrain ?? false },
          apiBase(context),
        );
        // the document depends on the label language and on whether a key came (the watermark)
        return assetReply(headers, asset, STYLE_CACHE_CONTROL, ['Accept-Language', 'X-Api-Key', 'Authorization']);
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/tiles/glyphs/svc/{fontstack}/{range}.pbf',
      summary: `SDF glyphs of 256 characters for a font stack (comma separated, first font having a character wins): ${'Noto Sans Regular, Noto Sans Bold, Noto Sans Arabic Regular, Noto Sans Arabic Bold'}`,
      params: glyphParams,
      query: versionQuery,
      responseContentType: 'application/x-protobuf',
      errors: ['NOT_FOUND'],
      handler: async ({ params, query, headers }) => {
        // the router hands the whole last segment (`0-255.pbf`)
        const range = params.range.endsWith('.pbf') ? params.range.slice(0, -4) : params.range;
        if (!/^\d{1,5}-\d{1,5}$/.test(range)) throw new ApiError('VALIDATION_ERROR', { message: [`params.range: must be start-end, e.g. 0-255.pbf`] });
        const start = glyphRangeStart(range);
        if (start === undefined) throw new ApiError('NOT_FOUND', { message: `Unknown glyph range ${range}: ranges are 256 characters, 0-255 to 65280-65535` });
        const fonts = deps.glyphs.resolveStack(params.fontstack);
        if (!fonts) throw new ApiError('NOT_FOUND', { message: `Unknown font stack "${params.fontstack}": fonts are ${deps.glyphs.fontNames.join(', ')}` });
        return assetReply(headers, await deps.glyphs.range(fonts, start), tileCacheControl(query.v, deps.glyphs.version));
      },
    }),
    sprite('/tiles/sprites/svc/sprite', 'Sprite base: the 1x index (renderers append .json, .png, @2x.json, @2x.png)', 1, 'index'),
    sprite('/tiles/sprites/svc/sprite.json', 'Sprite index at 1x: every Maki icon by name (x, y, width, height, pixelRatio)', 1, 'index'),
    sprite('/tiles/sprites/svc/sprite.png', 'Sprite sheet at 1x (PNG)', 1, 'image'),
    sprite('/tiles/sprites/svc/sprite@2x.json', 'Sprite index at 2x', 2, 'index'),
    sprite('/tiles/sprites/svc/sprite@2x.png', 'Sprite sheet at 2x (PNG)', 2, 'image'),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/tiles/raster/{source}/{z}/{x}/{y}.png',
      summary: 'A raster tile: standard and dark placeholders (PNG), satellite placeholder (always JPEG), svc-natural-earth (PNG, WebP with .webp), svc-watermark',
      params: rasterParams,
      query: versionQuery,
      responseContentType: 'image/png',
      errors: ['NOT_FOUND', 'SERVER_BUSY'],
      handler: async ({ params, query, headers }) => {
        const source = params.source as RasterSource;
        if (!(RASTER_SOURCES as readonly string[]).includes(source)) {
          throw new ApiError('NOT_FOUND', { message: `Unknown raster source "${params.source}": one of ${RASTER_SOURCES.join(', ')}` });
        }
        const row = parseTileRow(params.y);
        if (!row) throw new ApiError('VALIDATION_ERROR', { message: ['params.y: must be a tile row, with .png, .webp or .jpg'] });
        const z = Number(params.z);
        const x = Number(params.x);
        const maxZoom = deps.raster.maxZoom(source);
        if (z > maxZoom || x >= 2 ** z || row.y >= 2 ** z) {
          throw new ApiError('NOT_FOUND', { message: `No tile ${z}/${x}/${row.y} in ${source} (zoom 0 to ${maxZoom}, x and y below 2^z)` });
        }
        return assetReply(headers, await deps.raster.tile(source, z, x, row.y, row.extension), tileCacheControl(query.v, deps.raster.version));
      },
    }),
  ];
}
