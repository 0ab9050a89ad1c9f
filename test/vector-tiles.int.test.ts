/**
 * Vector tiles, TileJSON and offline regions (spec part 2 §2.9, §4.6, §4.7), black-box against a started
 * server on the default Nasr City pack: tiles decoded with @mapbox/vector-tile (layers and fields as
 * docs/tiles.md says, geometry within extent + buffer, known streets with Arabic and English names at
 * z14, no poi layer), caching and compression per the §4.7 table, the watermark without a key, and
 * offline regions and manifests.
 */
import { VectorTile } from '@mapbox/vector-tile';
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { keysWithScopes } from './support/api-keys.js';
import { registerUser } from './support/api-client.js';
import { subscribe, WEBHOOK_SECRET } from './support/payment-sender.js';
import { useServer } from './support/server-fixture.js';

// the webhook secret lets a test user buy offline_maps, which manifests need (docs/billing.md "Gates")
const fixture = useServer({ BILLING_WEBHOOK_SECRET: WEBHOOK_SECRET });
const api = fixture.api;
const TILE = '/api/v1/tiles/vector/svc/planet';
/** The Nasr City pack's data box. */
const LON = 31.342;
const LAT = 30.063;

function tileAt(z: number, lon = LON, lat = LAT): [number, number, number] {
  const n = 2 ** z;
  const sin = Math.sin((lat * Math.PI) / 180);
  return [z, Math.floor(((lon + 180) / 360) * n), Math.floor((0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * n)];
}

async function fetchTile(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${fixture.server.baseUrl}${path}`, { headers: { 'accept-encoding': 'identity', ...headers } });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { response, bytes };
}

/** The bytes as sent (fetch would decode Content-Encoding itself). */
function rawGet(path: string, acceptEncoding: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${fixture.server.baseUrl}${path}`, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

function decode(bytes: Uint8Array): VectorTile {
  return new VectorTile(new PbfReader(bytes));
}

let apiKey: string | undefined;
async function key(): Promise<string> {
  apiKey ??= (await keysWithScopes(api, { tiles: true })).keys[0]!;
  return apiKey;
}

const LAYERS = ['water', 'waterway', 'landcover', 'landuse', 'park', 'boundary', 'aeroway', 'transportation', 'transportation_name', 'building', 'water_name', 'place', 'housenumber'];

describe('vector tiles', () => {
  it('z14 tiles of Nasr City hold roads, names in Arabic and English, buildings with heights, house numbers; no poi layer', async () => {
    const [z, x0, y0] = tileAt(14, 31.302, 30.087);
    const [, x1, y1] = tileAt(14, 31.382, 30.040);
    const names = new Map<string, string>();
    const seenLayers = new Set<string>();
    const token = await key();
    // every tile first, the checks after: checking a tile point by point takes seconds on a loaded machine, and a
    // keep-alive connection left idle that long meets the server's 10 s idle close ("other side closed": the client's
    // own 4 s keep-alive timer cannot fire while this loop holds its event loop)
    const fetched: Awaited<ReturnType<typeof fetchTile>>[] = [];
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) fetched.push(await fetchTile(`${TILE}/${z}/${x}/${y}.pbf?api_key=${token}`));
    for (const { response, bytes } of fetched) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/x-protobuf');
      const tile = decode(bytes);
      for (const name of Object.keys(tile.layers)) {
        seenLayers.add(name);
        expect(LAYERS).toContain(name);
        const layer = tile.layers[name]!;
        expect(layer.extent).toBe(4096);
        expect(layer.version).toBe(2);
        for (let index = 0; index < layer.length; index++) {
          const feature = layer.feature(index);
          for (const ring of feature.loadGeometry()) {
            for (const point of ring) {
              expect(point.x).toBeGreaterThanOrEqual(-64);
              expect(point.x).toBeLessThanOrEqual(4096 + 64);
              expect(point.y).toBeGreaterThanOrEqual(-64);
              expect(point.y).toBeLessThanOrEqual(4096 + 64);
            }
          }
          const properties = feature.properties;
          if (name === 'transportation_name' && typeof properties['name:en'] === 'string') names.set(properties['name:en'], String(properties['name:ar']));
          if (name === 'transportation') expect(['motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'minor', 'service', 'track', 'path', 'busway', 'ferry', 'rail', 'transit']).toContain(properties.class);
          if (name === 'building') {
            expect(typeof properties.render_height).toBe('number');
            expect(typeof properties.render_min_height).toBe('number');
            expect(Number(properties.render_height)).toBeGreaterThanOrEqual(Number(properties.render_min_height));
          }
          if (name === 'housenumber') expect(typeof properties.housenumber).toBe('string');
        }
      }
      expect(tile.layers.poi).toBeUndefined();
      expect(tile.layers.svc_watermark).toBeUndefined();
    }
    for (const layer of ['transportation', 'transportation_name', 'building', 'housenumber', 'landuse', 'place']) expect(seenLayers).toContain(layer);
    expect(names.get('Abbas Al Aqad Street')).toBe('شارع عباس العقاد');
    expect(names.get('Makram Abaid Street')).toBe('شارع مكرم عبيد');
    expect(names.get('Al Tayaran Street')).toBe('شارع الطيران');
  }, 120_000);

  it('thins by zoom: a z10 tile has no buildings, house numbers or minor roads and stays small', async () => {
    const [z, x, y] = tileAt(10);
    const { response, bytes } = await fetchTile(`${TILE}/${z}/${x}/${y}?api_key=${await key()}`);
    expect(response.status).toBe(200);
    const tile = decode(bytes);
    expect(tile.layers.building).toBeUndefined();
    expect(tile.layers.housenumber).toBeUndefined();
    const classes = new Set<unknown>();
    const roads = tile.layers.transportation!;
    for (let index = 0; index < roads.length; index++) classes.add(roads.feature(index).properties.class);
    expect(classes.has('minor')).toBe(false);
    expect(classes.has('primary') || classes.has('trunk') || classes.has('motorway') || classes.has('secondary')).toBe(true);
    expect(bytes.length).toBeLessThan(64 * 1024);
  });

  it('without an API key the tile carries the svc_watermark layer', async () => {
    const [z, x, y] = tileAt(14);
    const { bytes } = await fetchTile(`${TILE}/${z}/${x}/${y}.pbf`);
    const watermark = decode(bytes).layers.svc_watermark!;
    expect(watermark.length).toBe(1);
    expect(String(watermark.feature(0).properties.text)).toMatch(/API key/);
    expect(watermark.feature(0).loadGeometry()[0]![0]).toMatchObject({ x: 2048, y: 2048 });
  });

  it('compresses once: Brotli preferred, else gzip, Vary: Accept-Encoding; the same tile either way', async () => {
    const [z, x, y] = tileAt(14);
    const path = `${TILE}/${z}/${x}/${y}.pbf?api_key=${await key()}`;
    const plain = await rawGet(path, 'identity');
    const brotli = await rawGet(path, 'gzip, deflate, br');
    const gzip = await rawGet(path, 'gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    for (const { headers } of [plain, brotli, gzip]) expect(headers.vary).toMatch(/Accept-Encoding/);
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(brotli.body.length).toBeLessThan(plain.body.length);
    expect(new Set([plain, brotli, gzip].map(({ headers }) => headers.etag)).size).toBe(3);
  });

  it('Cache-Control per the §4.7 table; strong ETag; If-None-Match: ours (strong or weak) 304, a weak one we never issued 200', async () => {
    const tileJson = (await api.get('/tiles/tilejson/svc')).body;
    const version = tileJson.version as string;
    const [z, x, y] = tileAt(13);
    const versioned = await fetchTile(`${TILE}/${z}/${x}/${y}.pbf?v=${version}`, { 'accept-encoding': 'br' });
    expect(versioned.response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = versioned.response.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const unversioned = await fetchTile(`${TILE}/${z}/${x}/${y}.pbf`);
    expect(unversioned.response.headers.get('cache-control')).toBe('max-age=86400, stale-while-revalidate=604800');
    const stale = await fetchTile(`${TILE}/${z}/${x}/${y}.pbf?v=not-the-version`);
    expect(stale.response.headers.get('cache-control')).toBe('max-age=86400, stale-while-revalidate=604800');

    const again = await fetchTile(`${TILE}/${z}/${x}/${y}.pbf?v=${version}`, { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.response.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.response.headers.get('etag')).toBe(etag);
    const weakOurs = await fetchTile(`${TILE}/${z}/${x}/${y}.pbf?v=${version}`, { 'accept-encoding': 'br', 'if-none-match': `W/${etag}` });
    expect(weakOurs.response.status).toBe(304);
    const weakForeign = await fetchTile(`${TILE}/${z}/${x}/${y}.pbf?v=${version}`, { 'if-none-match': 'W/"issued-by-someone-else"' });
    expect(weakForeign.response.status).toBe(200);
    expect(weakForeign.bytes.length).toBeGreaterThan(0);
  });

  it('accepts {y} without .pbf; bad z/x/y answer 400, never 500', async () => {
    const [z, x, y] = tileAt(12);
    expect((await fetchTile(`${TILE}/${z}/${x}/${y}`)).response.status).toBe(200);
    for (const path of ['15/0/0.pbf', '3/8/0.pbf', '3/0/8', 'a/0/0', '1/-1/0', '1/0/0.png', '2/1/1.5']) {
      const { response, bytes } = await fetchTile(`${TILE}/${path}`);
      expect(response.status, path).toBe(400);
      expect(JSON.parse(bytes.toString()).code).toBe('VALIDATION_ERROR');
    }
  });

  it('an unknown api_key is refused, not served a watermarked tile', async () => {
    const [z, x, y] = tileAt(14);
    expect((await fetchTile(`${TILE}/${z}/${x}/${y}.pbf?api_key=svc_not_a_key`)).response.status).toBe(401);
  });
});

describe('TileJSON', () => {
  it('is TileJSON 3.0 with the versioned template, zooms, layers with fields, bounds and attribution', async () => {
    const response = await api.get('/tiles/tilejson/svc');
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.tilejson).toBe('3.0.0');
    expect(body.tiles[0]).toBe(`${fixture.server.baseUrl}/api/v1/tiles/vector/svc/planet/{z}/{x}/{y}.pbf?v=${body.version}`);
    expect([body.minzoom, body.maxzoom]).toEqual([0, 14]);
    expect(body.vector_layers.map((layer: { id: string }) => layer.id).sort()).toEqual([...LAYERS].sort());
    expect(body.vector_layers.find((layer: { id: string }) => layer.id === 'building').fields).toHaveProperty('render_height');
    expect(body.attribution).toContain('© OpenStreetMap contributors');
    const [west, south, east, north] = body.bounds;
    expect(west).toBeLessThanOrEqual(31.31);
    expect(south).toBeLessThanOrEqual(30.05);
    expect(east).toBeGreaterThanOrEqual(31.37);
    expect(north).toBeGreaterThanOrEqual(30.08);
  });
});

/** A signed-in user holding offline_maps, bought through the payment webhook. */
let offlineUser: string | undefined;
async function offlineToken(): Promise<string> {
  if (!offlineUser) {
    const user = await registerUser(api, 'offline');
    await subscribe(fixture.server.baseUrl, user.userId, 'offline_maps');
    offlineUser = user.token;
  }
  return offlineUser;
}

describe('offline regions', () => {
  it('lists the pack coverage and its admin areas with measured sizes, and a manifest per region', async () => {
    const list = await api.get('/offline/regions');
    expect(list.status).toBe(200);
    expect(list.body.provider).toBe('svc-offline');
    const regions = list.body.regions as Record<string, any>[];
    const city = regions.find((region) => region.id === 'egypt-cairo-nasr-city')!;
    expect(city).toMatchObject({ scope: 'city', countryCode: 'EG', minZoom: 0, maxZoom: 14, nameAr: expect.stringMatching(/مدينة نصر/) });
    expect(city.estTiles).toBeGreaterThan(15);
    expect(city.estSizeMb).toBeGreaterThan(0);
    expect(regions.some((region) => region.scope === 'country' && region.countryCode === 'JO')).toBe(true);
    for (const region of regions) {
      expect(Object.keys(region).sort()).toEqual(['bbox', 'countryCode', 'estSizeMb', 'estTiles', 'id', 'maxZoom', 'minZoom', 'name', 'nameAr', 'scope', 'version'].sort());
      expect(region.version).toBe(city.version);
    }

    const manifest = (await api.get(`/offline/regions/${city.id}/manifest`, await offlineToken())).body;
    expect(manifest.version).toBe(city.version);
    expect(manifest.tiles.template).toContain(`?v=${city.version}`);
    expect(manifest.tiles.zooms).toHaveLength(15);
    expect(manifest.tiles.zooms.reduce((sum: number, zoom: { count: number }) => sum + zoom.count, 0)).toBe(city.estTiles);
    expect(manifest.totalBytes).toBeGreaterThan(0);
    expect(Math.abs(manifest.totalBytes / 1e6 - city.estSizeMb)).toBeLessThan(0.01);
    // Arabic names need the Arabic block; digits and Latin the first
    expect(manifest.glyphs.ranges).toEqual(expect.arrayContaining(['0-255', '1536-1791']));
    expect(manifest.sprites.urls).toHaveLength(4);
    expect(manifest.style.url).toContain('/tiles/style');
    expect(manifest.rasterFallbacks[0].source).toBe('svc-natural-earth');
  }, 60_000);

  it('answers 404 Offline region not found for an unknown id', async () => {
    const response = await api.get('/offline/regions/atlantis/manifest', await offlineToken());
    expect(response.status).toBe(404);
    expect(response.body.message).toBe('Offline region not found');
  });
});
