/**
 * How map assets go out (part 2 §4.7, "Caching and transfer"): Cache-Control per kind, strong ETag
 * with If-None-Match → 304, Brotli then gzip with `Vary: Accept-Encoding` for compressible assets.
 * Shared by every /tiles route (styles, glyphs, sprites, raster, vector tiles).
 */
import type { TileAsset } from '../services/tiles/tile-asset.js';
import { HttpReply } from './route.js';

/** `/tiles/style`: edits reach clients within about 5 minutes. */
export const STYLE_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';
/** A URL carrying the current `?v=` never changes meaning. */
export const VERSIONED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const UNVERSIONED_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';

/**
 * Immutable only when the request's `v` is the asset's current version: an old or made-up `v` is
 * answered with today's bytes, which must not be pinned for a year under that URL.
 */
export function tileCacheControl(requestedVersion: string | undefined, currentVersion: string): string {
  return requestedVersion !== undefined && requestedVersion === currentVersion ? VERSIONED_CACHE_CONTROL : UNVERSIONED_CACHE_CONTROL;
}

/**
 * The answer for one asset: 304 with no body when `If-None-Match` names it, else the body in the
 * best encoding the client accepts. `vary` adds request headers the asset depends on.
 */
export async function assetReply(headers: Readonly<Record<string, string>>, asset: TileAsset, cacheControl: string, vary: readonly string[] = []): Promise<HttpReply> {
  const encoding = asset.encodingFor(headers['accept-encoding']);
  const varyOn = asset.compressible ? ['Accept-Encoding', ...vary] : [...vary];
  const common: Record<string, string> = { 'cache-control': cacheControl, etag: asset.etagFor(encoding) };
  if (varyOn.length) common.vary = varyOn.join(', ');
  if (asset.matches(headers['if-none-match'])) return HttpReply.empty(304, common);
  const body = await asset.encoded(encoding);
  if (encoding !== 'identity') common['content-encoding'] = encoding;
  return HttpReply.content(body, asset.contentType, 200, common);
}
