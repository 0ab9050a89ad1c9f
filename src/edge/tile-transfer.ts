/**
 * Cache-Control of map assets (part 2 §4.7, "Caching and transfer") and the reply for a TileAsset:
 * served by edge/cached-asset.ts like the vector tiles (strong ETag per encoding, If-None-Match → 304,
 * Brotli then gzip with `Vary: Accept-Encoding`).
 */
import type { TileAsset } from '../services/tiles/tile-asset.js';
import { cachedAssetReply } from './cached-asset.js';
import type { HttpReply } from './route.js';

/** `/tiles/style`: edits reach clients within about 5 minutes. */
export const STYLE_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';
/** A URL carrying the current `?v=` never changes meaning. */
export const VERSIONED_TILE_CACHE = 'public, max-age=31536000, immutable';
export const UNVERSIONED_TILE_CACHE = 'max-age=86400, stale-while-revalidate=604800';

/**
 * Immutable only when the request's `v` is the asset's current version: an old or made-up `v` is
 * answered with today's bytes, which must not be pinned for a year under that URL.
 */
export function tileCacheControl(requestedVersion: string | undefined, currentVersion: string): string {
  return requestedVersion !== undefined && requestedVersion === currentVersion ? VERSIONED_TILE_CACHE : UNVERSIONED_TILE_CACHE;
}

/** The answer for one asset; `vary` adds request headers it depends on besides Accept-Encoding. */
export async function assetReply(headers: Readonly<Record<string, string>>, asset: TileAsset, cacheControl: string, vary: readonly string[] = []): Promise<HttpReply> {
  return cachedAssetReply(await asset.encoded(), headers, cacheControl, vary);
}
