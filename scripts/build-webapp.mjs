#!/usr/bin/env node
/**
 * Builds the web app (web/) into dist/webapp, which the server serves at / and /app/* (src/edge/routes/web-app.ts):
 * esbuild bundles web/src/main.ts with maplibre-gl and the TypeScript client into one minified ES module; the
 * page, its stylesheet, MapLibre's stylesheet and worker module and the RTL text plugin are copied beside it. No network.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist/webapp');
const require = createRequire(import.meta.url);
const started = performance.now();

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: [join(root, 'web/src/main.ts')],
  outfile: join(out, 'app.js'),
  bundle: true,
  format: 'esm',
  minify: true,
  target: ['es2022'],
  platform: 'browser',
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
});
copyFileSync(join(root, 'web/index.html'), join(out, 'index.html'));
copyFileSync(join(root, 'web/app.css'), join(out, 'app.css'));
const maplibreDist = join(dirname(require.resolve('maplibre-gl/package.json')), 'dist');
copyFileSync(join(maplibreDist, 'maplibre-gl.css'), join(out, 'maplibre-gl.css'));
// MapLibre 6 runs its tile workers from a module of their own, loaded by URL (setWorkerUrl in map-view.ts)
copyFileSync(join(maplibreDist, 'maplibre-gl-worker.mjs'), join(out, 'maplibre-gl-worker.mjs'));
copyFileSync(join(root, 'node_modules/@mapbox/mapbox-gl-rtl-text/dist/mapbox-gl-rtl-text.js'), join(out, 'mapbox-gl-rtl-text.js'));
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`web app: dist/webapp (${(bytes / 1024).toFixed(0)} KiB of JavaScript) in ${Math.round(performance.now() - started)} ms`);
