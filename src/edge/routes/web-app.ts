/**
 * The web app (issue #32) at the site root: `/` is its page and `/app/{asset}` its bundle, stylesheet and
 * the RTL text plugin, all built by `npm run build` into dist/webapp (scripts/build-webapp.mjs). Served the
 * way /docs serves Swagger UI: open (the page holds no secret; it asks the user for an API key), from a fixed
 * list of file names read once from the build folder, so no path from the URL reaches the file system.
 * Each file is compressed once (Brotli, gzip) and answered with an ETag (cached-asset.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import { cachedAssetReply, type CompressedAsset } from '../cached-asset.js';
import { defineRoute, type RouteDefinition } from '../route.js';

/** dist/webapp beside dist/edge/routes/web-app.js. */
export const WEB_APP_DIR = fileURLToPath(new URL('../../webapp/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  // the bundle's licence notices (esbuild's legalComments: 'linked')
  '.txt': 'text/plain; charset=utf-8',
};

/** The page is re-validated on every load (it names the bundle); the bundle files carry a content hash in the ETag. */
const PAGE_CACHE = 'no-cache';
const ASSET_CACHE = 'public, max-age=300';

function contentTypeOf(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? undefined : CONTENT_TYPES[name.slice(dot)];
}

function compress(raw: Buffer, contentType: string): CompressedAsset {
  const textual = !contentType.startsWith('image/png');
  return {
    raw,
    brotli: textual ? brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }) : undefined,
    gzip: textual ? gzipSync(raw, { level: 9 }) : undefined,
    contentType,
    tag: createHash('sha256').update(raw).digest('base64url').slice(0, 22),
  };
}

/** The built files by name (a Map: the name comes from the URL), compressed on first request. */
export class WebAppAssets {
  private readonly files = new Map<string, string>();
  private readonly cache = new Map<string, CompressedAsset>();

  constructor(private readonly dir: string = WEB_APP_DIR) {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) if (contentTypeOf(name) && /^[A-Za-z0-9_.-]+$/.test(name)) this.files.set(name, join(dir, name));
  }

  get(name: string): CompressedAsset | undefined {
    const path = this.files.get(name);
    if (!path) return undefined;
    let asset = this.cache.get(name);
    if (!asset) {
      asset = compress(readFileSync(path), contentTypeOf(name)!);
      this.cache.set(name, asset);
    }
    return asset;
  }
}

export function webAppRoutes(assets: WebAppAssets = new WebAppAssets()): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/',
      mount: 'root',
      summary: 'The web app: map, search, directions, live navigation and fleet, developer page',
      tags: ['operations'],
      hidden: true,
      handler: ({ headers }) => {
        const page = assets.get('index.html');
        if (!page) throw new ApiError('NOT_FOUND', { message: 'The web app is not built: run npm run build' });
        return cachedAssetReply(page, headers, PAGE_CACHE);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/app/{asset}',
      mount: 'root',
      summary: 'Web app assets',
      tags: ['operations'],
      hidden: true,
      params: z.object({ asset: z.string().max(128) }),
      handler: ({ params, headers }) => {
        const asset = params.asset === 'index.html' ? undefined : assets.get(params.asset);
        if (!asset) throw new ApiError('NOT_FOUND', { message: `Cannot GET /app/${params.asset}` });
        return cachedAssetReply(asset, headers, ASSET_CACHE);
      },
    }),
  ];
}
