import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import { defineRoute, HttpReply, type RouteDefinition } from '../route.js';

const require = createRequire(import.meta.url);
// The package's main module evaluates the whole 1.7 MB UI bundle in Node; only its path helper is needed.
const swaggerUiDir: string = (require('swagger-ui-dist/absolute-path.js') as () => string)();

/**
 * The only files of swagger-ui-dist we serve; a fixed list, so no path from the URL reaches the file system. A Map:
 * the name comes from the URL, and an object would answer `constructor` or `__proto__` from its prototype.
 */
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Location Platform API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <p style="font:12px sans-serif;margin:8px 20px">Map data &copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap contributors</a>, ODbL 1.0.</p>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout'
});`;

/** The OpenAPI document and a locally served Swagger UI (no CDN). */
export function apiDocsRoutes(document: () => unknown): RouteDefinition[] {
  const assetCache = new Map<string, Buffer>();
  return [
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      summary: 'This OpenAPI 3.1 document',
      tags: ['operations'],
      handler: () => HttpReply.json(document()),
    }),
    defineRoute({
      method: 'GET',
      path: '/docs',
      mount: 'root',
      summary: 'Interactive API documentation',
      tags: ['operations'],
      hidden: true,
      handler: () => HttpReply.content(DOCS_PAGE, 'text/html; charset=utf-8'),
    }),
    defineRoute({
      method: 'GET',
      path: '/docs/{asset}',
      mount: 'root',
      summary: 'Documentation page assets',
      tags: ['operations'],
      hidden: true,
      params: z.object({ asset: z.string() }),
      handler: async ({ params }) => {
        if (params.asset === 'init.js') return HttpReply.content(INIT_SCRIPT, 'text/javascript; charset=utf-8');
        const contentType = ASSETS.get(params.asset);
        if (!contentType) throw new ApiError('NOT_FOUND', { message: `Cannot GET /docs/${params.asset}` });
        let bytes = assetCache.get(params.asset);
        if (!bytes) {
          bytes = await readFile(join(swaggerUiDir, params.asset));
          assetCache.set(params.asset, bytes);
        }
        return HttpReply.content(bytes, contentType, 200, { 'cache-control': 'public, max-age=3600' });
      },
    }),
  ];
}
