/**
 * Map styles, glyphs, sprites and raster tiles (spec part 2 §4.7), black-box against a started server:
 * the catalogue, style documents as served (validated with the style specification, counts, watermark
 * with and without a key, 400 on an unknown style), glyph ranges decoded from the wire, the sprite
 * pair, raster content types, and the caching and transfer rules (Cache-Control per kind, ETag/304,
 * Brotli then gzip with Vary for glyphs and sprite JSON, raster as is).
 */
import { validateStyleMin, type StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeGlyphRange } from '../src/services/tiles/glyphs/glyph-pbf.js';
import { keysWithScopes } from './support/api-keys.js';
import { useServer } from './support/server-fixture.js';

const fixture = useServer();
const api = fixture.api;
const ARABIC_STACK = encodeURIComponent('Noto Sans Regular,Noto Sans Arabic Regular');

/** The bytes as sent (fetch would decode Content-Encoding itself). */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${fixture.server.baseUrl}/api/v1${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

let apiKey: string | undefined;
async function key(): Promise<string> {
  apiKey ??= (await keysWithScopes(api, { tiles: true })).keys[0]!;
  return apiKey;
}

describe('map styles', () => {
  it('lists the six styles with their categories and the style URL', async () => {
    const response = await api.get('/tiles/styles');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ provider: 'svc-tiles', count: 6, styleUrl: `${fixture.server.baseUrl}/api/v1/tiles/style` });
    expect(response.body.styles.map((entry: { style: string }) => entry.style)).toEqual(['standard', 'positron', 'dark', 'satellite', '3d', 'terrain']);
    expect(response.body.styles.find((entry: { style: string }) => entry.style === 'satellite').category).toBe('imagery');
  });

  it('serves valid version 8 documents whose URLs point at this server, with the counts of §4.7 with and without a key', async () => {
    const withKey = { 'x-api-key': await key() };
    for (const style of ['standard', 'road', 'positron', 'dark', 'satellite', '3d', 'terrain']) {
      const anonymous = await api.get(`/tiles/style?style=${style}`);
      expect(anonymous.status).toBe(200);
      expect(validateStyleMin(anonymous.body as StyleSpecification).map((error) => error.message)).toEqual([]);
      expect(anonymous.body.sources.svc.tiles[0]).toMatch(new RegExp(`^${fixture.server.baseUrl}/api/v1/tiles/vector/svc/planet/\\{z\\}/\\{x\\}/\\{y\\}\\.pbf\\?v=[0-9a-f]{12}$`));
      expect(anonymous.body.glyphs).toMatch(new RegExp(`^${fixture.server.baseUrl}/api/v1/tiles/glyphs/svc/\\{fontstack\\}/\\{range\\}\\.pbf\\?v=`));
      expect(anonymous.body.sources['svc-watermark']).toBeDefined();
      expect(anonymous.body.layers.at(-1).id).toBe('svc-watermark');
      const keyed = await api.get(`/tiles/style?style=${style}`, undefined, withKey);
      expect(keyed.body.sources['svc-watermark']).toBeUndefined();
      expect(keyed.body.metadata.svcStyle).toBe(style === 'road' ? 'standard' : style);
      if (style === 'satellite') {
        expect([Object.keys(keyed.body.sources).length, keyed.body.layers.length]).toEqual([2, 75]);
        expect([Object.keys(anonymous.body.sources).length, anonymous.body.layers.length]).toEqual([3, 76]);
      }
      if (style === 'terrain') {
        expect([Object.keys(keyed.body.sources).length, keyed.body.layers.length]).toEqual([2, 110]);
        expect([Object.keys(anonymous.body.sources).length, anonymous.body.layers.length]).toEqual([3, 111]);
      }
    }
  });

  it('names the style after `version`, labels in the requested language, refuses an unknown style with 400', async () => {
    const named = await api.get('/tiles/style?style=dark&version=fleet-night&locale=en');
    expect(named.body.name).toBe('fleet-night');
    const label = named.body.layers.find((layer: { id: string }) => layer.id === 'place-suburb').layout['text-field'];
    expect(label[1]).toEqual(['get', 'name:en']);
    const arabic = await api.get('/tiles/style', undefined, { 'accept-language': 'ar-EG,ar;q=0.9' });
    expect(arabic.body.layers.find((layer: { id: string }) => layer.id === 'place-suburb').layout['text-field'][1]).toEqual(['get', 'name:ar']);
    const unknown = await api.get('/tiles/style?style=watercolor');
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_ERROR');
    // no elevation model is configured here: terrain=1 adds nothing
    expect((await api.get('/tiles/style?style=3d&terrain=1')).body.terrain).toBeUndefined();
  });

  it('caches the style for 300 s with revalidation, answers 304 to its ETag and 200 to a weak tag it never issued', async () => {
    const first = await rawGet('/tiles/style?style=positron', { 'accept-encoding': 'br' });
    expect(first.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect(first.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(first.body).toString()).metadata.svcStyle).toBe('positron');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await rawGet('/tiles/style?style=positron', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect([again.status, again.body.length]).toEqual([304, 0]);
    expect((await rawGet('/tiles/style?style=positron', { 'accept-encoding': 'br', 'if-none-match': `W/${etag}` })).status).toBe(304);
    expect((await rawGet('/tiles/style?style=positron', { 'if-none-match': 'W/"not-ours"' })).status).toBe(200);
  });
});

describe('glyphs', () => {
  it('serves SDF ranges per font stack, Brotli then gzip with Vary, immutable under the style’s ?v=', async () => {
    const style = (await api.get('/tiles/style')).body;
    const version = new URL(style.glyphs.replace('{fontstack}', 'x').replace('{range}', '0-255')).searchParams.get('v');
    const br = await rawGet(`/tiles/glyphs/svc/${ARABIC_STACK}/1536-1791.pbf?v=${version}`, { 'accept-encoding': 'gzip, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-type']).toBe('application/x-protobuf');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const range = decodeGlyphRange(brotliDecompressSync(br.body));
    expect(range.glyphs.find((glyph) => glyph.id === 0x628)?.bitmap?.length).toBeGreaterThan(100);
    const gz = await rawGet(`/tiles/glyphs/svc/${ARABIC_STACK}/1536-1791.pbf`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('max-age=86400, stale-while-revalidate=604800');
    expect(gunzipSync(gz.body).equals(brotliDecompressSync(br.body))).toBe(true);
  });

  it('answers 404 for an unknown font or range and 400 for a malformed range', async () => {
    expect((await api.get('/tiles/glyphs/svc/Comic%20Sans/0-255.pbf')).status).toBe(404);
    expect((await api.get(`/tiles/glyphs/svc/${ARABIC_STACK}/1-256.pbf`)).status).toBe(404);
    expect((await api.get(`/tiles/glyphs/svc/${ARABIC_STACK}/65536-65791.pbf`)).status).toBe(404);
    const malformed = await api.get(`/tiles/glyphs/svc/${ARABIC_STACK}/latin.pbf`);
    expect([malformed.status, malformed.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});

describe('sprites', () => {
  it('serves the index and sheet at 1x and 2x with every Maki icon; the JSON compressed, the PNG as is', async () => {
    const index = await rawGet('/tiles/sprites/svc/sprite@2x.json', { 'accept-encoding': 'br' });
    expect(index.headers['content-encoding']).toBe('br');
    const entries = JSON.parse(brotliDecompressSync(index.body).toString()) as Record<string, { pixelRatio: number }>;
    for (const name of ['restaurant', 'cafe', 'hospital', 'fuel', 'bank', 'pharmacy', 'place-of-worship', 'star']) expect(entries[name]?.pixelRatio).toBe(2);
    const base = await api.get('/tiles/sprites/svc/sprite');
    expect(Object.keys(base.body).length).toBe(Object.keys(entries).length);
    for (const path of ['/tiles/sprites/svc/sprite.png', '/tiles/sprites/svc/sprite@2x.png']) {
      const png = await rawGet(path, { 'accept-encoding': 'br, gzip' });
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.headers['content-encoding']).toBeUndefined();
      expect(png.body.subarray(1, 4).toString()).toBe('PNG');
    }
  });
});

describe('raster tiles', () => {
  it('answers each source with its content type and refuses unknown sources and coordinates', async () => {
    const cases: [string, string, string][] = [
      ['/tiles/raster/standard/12/2442/1686.png', 'image/png', 'PNG'],
      ['/tiles/raster/dark/12/2442/1686.png', 'image/png', 'PNG'],
      ['/tiles/raster/satellite/12/2442/1686.png', 'image/jpeg', 'JFIF'],
      ['/tiles/raster/satellite/12/2442/1686.webp', 'image/jpeg', 'JFIF'],
      ['/tiles/raster/svc-natural-earth/4/9/6.png', 'image/png', 'PNG'],
      ['/tiles/raster/svc-natural-earth/4/9/6.webp', 'image/webp', 'WEBP'],
      ['/tiles/raster/svc-watermark/14/9774/6745.png', 'image/png', 'PNG'],
    ];
    for (const [path, contentType, magic] of cases) {
      const tile = await rawGet(path, { 'accept-encoding': 'br, gzip' });
      expect(tile.status, path).toBe(200);
      expect(tile.headers['content-type'], path).toBe(contentType);
      expect(tile.headers['content-encoding'], path).toBeUndefined();
      expect(tile.body.subarray(0, 16).toString('latin1'), path).toContain(magic);
      expect(tile.headers.etag, path).toMatch(/^"[^"]+"$/);
    }
    expect((await api.get('/tiles/raster/watercolor/1/0/0.png')).status).toBe(404);
    expect((await api.get('/tiles/raster/standard/2/4/0.png')).status).toBe(404);
    expect((await api.get('/tiles/raster/svc-natural-earth/12/2442/1686.png')).status).toBe(404);
    expect((await api.get('/tiles/raster/standard/2/1/x.png')).status).toBe(400);
  });
});
