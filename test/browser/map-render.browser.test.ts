/**
 * A real browser draws every style from this server alone (issue 25): Debian's Chromium, driven by
 * playwright-core, opens a page with maplibre-gl (served from node_modules, no network) and loads
 * each of the six styles over Nasr City. The style is asked for with an API key (no watermark layer);
 * the map's own tile, glyph and sprite requests go without one, as anonymous map traffic (a free key's
 * 60 requests a minute would not cover one map load). From the pixels of the map canvas it checks that the map
 * is not blank, that roads were drawn (hiding the transportation layers changes many pixels) and that
 * labels were drawn (hiding the symbol layers changes pixels), and that MapLibre reported no error
 * (a missing glyph range, sprite or tile would). Screenshots go to docs/screenshots/.
 *
 * Run with `npm run test:browser` (built server; Chromium at /usr/bin/chromium or CHROMIUM_PATH).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysWithScopes } from '../support/api-keys.js';
import { launchChromium } from '../support/chromium.js';
import { useServer } from '../support/server-fixture.js';

// The page functions below run in the browser; this project compiles without the DOM library.
declare const window: Record<string, any>;
declare const document: { createElement(tag: 'canvas'): any };

const require = createRequire(import.meta.url);
const MAPLIBRE_DIST = dirname(require.resolve('maplibre-gl/dist/maplibre-gl.mjs'));
const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');
/**
 * The page lives under the API's own origin, at a path the server does not serve, answered by the test
 * (never the network): a page on another origin is refused loopback requests by Chromium's local
 * network access rules.
 */
const PAGE_PATH = '/__map-page';
const WIDTH = 900;
/** Nasr City, Cairo: the default data pack. */
const NASR_CITY: [number, number] = [31.342, 30.063];
const HEIGHT = 600;

const fixture = useServer();
let context: BrowserContext;
let page: Page;
let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
let apiKey: string;

const PAGE = `<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="${PAGE_PATH}/maplibre/maplibre-gl.css">
<style>html,body{margin:0}#map{width:${WIDTH}px;height:${HEIGHT}px}</style></head>
<body><div id="map"></div><script type="module">
import * as maplibregl from '${PAGE_PATH}/maplibre/maplibre-gl.mjs';
window.maplibregl = maplibregl;
window.pageReady = true;
</script></body></html>`;

beforeAll(async () => {
  apiKey = (await keysWithScopes(fixture.api, { tiles: true })).keys[0]!;
  browser = await launchChromium({ width: WIDTH, height: HEIGHT });
  context = browser.context;
  page = context.pages()[0] ?? (await context.newPage());
  await page.route(`${fixture.server.baseUrl}${PAGE_PATH}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname.slice(PAGE_PATH.length);
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: PAGE });
    const file = path.startsWith('/maplibre/') ? join(MAPLIBRE_DIST, path.slice('/maplibre/'.length).replace(/[^A-Za-z0-9_.-]/g, '')) : undefined;
    if (!file || !existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ contentType: file.endsWith('.css') ? 'text/css' : 'text/javascript', body: readFileSync(file) });
  });
  await page.goto(`${fixture.server.baseUrl}${PAGE_PATH}/`);
  await page.waitForFunction(() => window.pageReady === true, undefined, { timeout: 30_000 });
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

interface RenderReport {
  errors: string[];
  distinctColours: number;
  roadPixels: number;
  labelPixels: number;
  roadLayers: number;
  labelLayers: number;
}

/** Loads a style in the page, waits until every tile is drawn, and measures what roads and labels contributed. */
async function render(styleUrl: string, camera: { zoom: number; pitch?: number; bearing?: number }): Promise<RenderReport> {
  return page.evaluate(
    async ({ styleUrl, camera, center, width, height }) => {
      const gl = window.maplibregl;
      const previous = window.currentMap;
      previous?.remove();
      const errors: string[] = [];
      const map = new gl.Map({
        container: 'map',
        style: styleUrl,
        center,
        zoom: camera.zoom,
        pitch: camera.pitch ?? 0,
        bearing: camera.bearing ?? 0,
        fadeDuration: 0,
        attributionControl: { compact: false },
        canvasContextAttributes: { preserveDrawingBuffer: true, antialias: false },
      });
      window.currentMap = map;
      map.on('error', (event: { error?: Error }) => errors.push(String(event.error?.message ?? event.error)));
      const idle = () => new Promise<void>((done) => map.once('idle', () => done()));
      await new Promise<void>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`the map did not finish loading: ${errors.join('; ')}`)), 60_000);
        map.once('idle', () => {
          clearTimeout(timer);
          done();
        });
      });
      const probe = document.createElement('canvas');
      probe.width = width;
      probe.height = height;
      const probeContext = probe.getContext('2d', { willReadFrequently: true })!;
      const snapshot = () => {
        probeContext.clearRect(0, 0, width, height);
        probeContext.drawImage(map.getCanvas(), 0, 0, width, height);
        return probeContext.getImageData(0, 0, width, height).data;
      };
      const changed = (a: Uint8ClampedArray, b: Uint8ClampedArray) => {
        let count = 0;
        for (let i = 0; i < a.length; i += 4) {
          if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 24) count++;
        }
        return count;
      };
      const withHidden = async (ids: string[]) => {
        for (const id of ids) map.setLayoutProperty(id, 'visibility', 'none');
        map.triggerRepaint();
        await idle();
        const pixels = snapshot();
        for (const id of ids) map.setLayoutProperty(id, 'visibility', 'visible');
        map.triggerRepaint();
        await idle();
        return pixels;
      };
      const full = snapshot();
      const colours = new Set<number>();
      for (let i = 0; i < full.length; i += 4) colours.add((full[i]! << 16) | (full[i + 1]! << 8) | full[i + 2]!);
      const layers = map.getStyle().layers as { id: string; type: string; 'source-layer'?: string }[];
      const roads = layers.filter((layer) => layer['source-layer'] === 'transportation' && layer.type === 'line').map((layer) => layer.id);
      const labels = layers.filter((layer) => layer.type === 'symbol').map((layer) => layer.id);
      const roadPixels = changed(full, await withHidden(roads));
      const labelPixels = changed(full, await withHidden(labels));
      return { errors, distinctColours: colours.size, roadPixels, labelPixels, roadLayers: roads.length, labelLayers: labels.length };
    },
    { styleUrl, camera, center: NASR_CITY, width: WIDTH, height: HEIGHT },
  );
}

const STYLES: { style: string; locale: string; camera: { zoom: number; pitch?: number; bearing?: number } }[] = [
  { style: 'standard', locale: 'ar', camera: { zoom: 15 } },
  { style: 'positron', locale: 'en', camera: { zoom: 15 } },
  { style: 'dark', locale: 'ar', camera: { zoom: 15 } },
  { style: 'satellite', locale: 'en', camera: { zoom: 15 } },
  { style: '3d', locale: 'ar', camera: { zoom: 16.3, pitch: 60, bearing: -20 } },
  { style: 'terrain', locale: 'en', camera: { zoom: 13.5 } },
];

describe('the styles in a real browser', () => {
  it.each(STYLES)('$style draws roads and labels over Nasr City', async ({ style, locale, camera }) => {
    const report = await render(`${fixture.server.baseUrl}/api/v1/tiles/style?style=${style}&locale=${locale}&api_key=${apiKey}`, camera);
    await page.screenshot({ path: join(SCREENSHOTS, `map-${style}.png`) });
    expect(report.errors).toEqual([]);
    // a blank or error canvas has a handful of colours
    expect(report.distinctColours).toBeGreaterThan(200);
    // roads: at least 1 % of the view changes when the transportation layers are hidden
    expect(report.roadPixels).toBeGreaterThan(WIDTH * HEIGHT * 0.01);
    // labels: at least 0.1 % changes when the symbol layers are hidden (a few dozen words)
    expect(report.labelPixels).toBeGreaterThan(WIDTH * HEIGHT * 0.001);
  }, 150_000);
});
