/**
 * Static maps (`GET /static/map`, issue #29), black-box against a started server: the PNG is decoded
 * and its pixels compared with what the pack and the style say — a primary road of the Nasr City pack
 * (found in our own vector tile) has the style's road colour where the tile puts it, a park its
 * fill colour blended as the style says, a marker's head and a path's stroke their colours; size and
 * scale are honoured, fitted boxes and overlays are in view; bad parameters are 400 with a message;
 * caching headers, 304 and the no-key watermark.
 */
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import polyline from '@mapbox/polyline';
import { PbfReader } from 'pbf';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fitBounds, pixelOf, viewAt, type MapView } from '../src/solvers/static-map/map-view.js';
import { keysWithScopes } from './support/api-keys.js';
import { useServer } from './support/server-fixture.js';

const fixture = useServer();
const api = fixture.api;
/** Inside the pack: Nasr City, Cairo. */
const NASR = { lat: 30.062, lng: 31.335 };
const TILE_ZOOM = 14;

type Rgb = [number, number, number];
interface Picture {
  width: number;
  height: number;
  data: Buffer;
}

let apiKey: string | undefined;
async function key(): Promise<string> {
  apiKey ??= (await keysWithScopes(api, { tiles: true })).keys[0]!;
  return apiKey;
}

async function staticMap(query: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; bytes: Buffer; json?: { code: string; message: string[] } }> {
  const response = await fetch(`${fixture.server.baseUrl}/api/v1/static/map?${query}`, { headers: { 'x-api-key': await key(), ...headers } });
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(bytes.toString()) : undefined;
  return { status: response.status, headers: response.headers, bytes, json };
}

async function picture(query: string, headers: Record<string, string> = {}): Promise<Picture> {
  const answer = await staticMap(query, headers);
  expect(answer.status, answer.bytes.toString().slice(0, 300)).toBe(200);
  expect(answer.headers.get('content-type')).toBe('image/png');
  const { data, info } = await sharp(answer.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

function pixel(image: Picture, x: number, y: number): Rgb {
  const at = (Math.round(y) * image.width + Math.round(x)) * 3;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
}

function rgb(hex: string): Rgb {
  const value = hex.replace('#', '');
  return [0, 2, 4].map((at) => Number.parseInt(value.slice(at, at + 2), 16)) as Rgb;
}

const near = (a: Rgb, b: Rgb, tolerance = 6) => a.every((channel, index) => Math.abs(channel - b[index]!) <= tolerance);
/** `color` at `opacity` over `under`, as the canvas and MapLibre blend a fill. */
const blend = (color: Rgb, opacity: number, under: Rgb): Rgb => color.map((channel, index) => Math.round(channel * opacity + under[index]! * (1 - opacity))) as Rgb;

type StyleLayer = { id: string; paint?: Record<string, unknown> };
let standard: StyleLayer[] | undefined;
async function styleLayer(id: string): Promise<StyleLayer> {
  standard ??= (await api.get('/tiles/style?style=standard', undefined, { 'x-api-key': await key() })).body.layers as StyleLayer[];
  return standard.find((layer) => layer.id === id)!;
}

/** Our z14 vector tile holding a position, decoded; features as GeoJSON (degrees). */
async function tileAt(lat: number, lng: number): Promise<VectorTile & { at: [number, number, number] }> {
  const n = 2 ** TILE_ZOOM;
  const x = Math.floor(((lng + 180) / 360) * n);
  const y = Math.floor(((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
  const response = await fetch(`${fixture.server.baseUrl}/api/v1/tiles/vector/svc/planet/${TILE_ZOOM}/${x}/${y}.pbf`, { headers: { 'x-api-key': await key(), 'accept-encoding': 'identity' } });
  expect(response.status).toBe(200);
  return Object.assign(new VectorTile(new PbfReader(new Uint8Array(await response.arrayBuffer()))), { at: [x, y, TILE_ZOOM] as [number, number, number] });
}

function features(tile: VectorTile & { at: [number, number, number] }, layer: string): GeoJSON.Feature[] {
  const source = tile.layers[layer];
  const out: GeoJSON.Feature[] = [];
  for (let index = 0; source && index < source.length; index++) out.push((source.feature(index) as VectorTileFeature).toGeoJSON(...tile.at));
  return out;
}

function lines(geometry: GeoJSON.Geometry): number[][][] {
  if (geometry.type === 'LineString') return [geometry.coordinates];
  if (geometry.type === 'MultiLineString' || geometry.type === 'Polygon') return geometry.coordinates;
  if (geometry.type === 'MultiPolygon') return geometry.coordinates.flat();
  return [];
}

function insideRings(rings: number[][][], [x, y]: [number, number]): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i] as [number, number];
      const [xj, yj] = ring[j] as [number, number];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** Pixel distance from a point to the nearest segment of any of the lines, under the view. */
function distanceToLines(view: MapView, point: [number, number], all: number[][][]): number {
  let best = Infinity;
  for (const line of all) {
    for (let index = 1; index < line.length; index++) {
      const [ax, ay] = pixelOf(view, line[index - 1]![0]!, line[index - 1]![1]!);
      const [bx, by] = pixelOf(view, line[index]![0]!, line[index]![1]!);
      const length = (bx - ax) ** 2 + (by - ay) ** 2;
      const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((point[0] - ax) * (bx - ax) + (point[1] - ay) * (by - ay)) / length));
      best = Math.min(best, Math.hypot(point[0] - ax - t * (bx - ax), point[1] - ay - t * (by - ay)));
    }
  }
  return best;
}

describe('static maps', () => {
  it('draws a primary road of the pack in the style’s road colour where our vector tile puts it', async () => {
    const tile = await tileAt(NASR.lat, NASR.lng);
    // the longest straight piece of a primary road on the ground
    let best: { from: number[]; to: number[]; length: number } | undefined;
    for (const feature of features(tile, 'transportation')) {
      if (feature.properties?.class !== 'primary' || feature.properties.brunnel) continue;
      for (const line of lines(feature.geometry)) {
        for (let index = 1; index < line.length; index++) {
          const length = Math.hypot(line[index]![0]! - line[index - 1]![0]!, line[index]![1]! - line[index - 1]![1]!);
          if (!best || length > best.length) best = { from: line[index - 1]!, to: line[index]!, length };
        }
      }
    }
    expect(best, 'the Nasr City tile has a primary road').toBeDefined();
    const { from, to } = best!;
    const middle = { lng: (from[0]! + to[0]!) / 2, lat: (from[1]! + to[1]!) / 2 };
    const zoom = 16;
    const image = await picture(`center=${middle.lat},${middle.lng}&zoom=${zoom}&size=400x300`);
    const view = viewAt({ lon: middle.lng, lat: middle.lat }, zoom, 400, 300);
    const roadColour = rgb((await styleLayer('road-primary')).paint!['line-color'] as string);
    const samples = [0.3, 0.4, 0.5, 0.6, 0.7].map((t) => pixelOf(view, from[0]! + t * (to[0]! - from[0]!), from[1]! + t * (to[1]! - from[1]!)));
    const onRoad = samples.filter(([x, y]) => x >= 0 && x < 400 && y >= 0 && y < 300 && near(pixel(image, x, y), roadColour));
    // a label may lie over one or two of the samples; the road is under the rest
    expect(onRoad.length).toBeGreaterThanOrEqual(3);
    // and the road colour is the road's, not the whole picture's
    let roadPixels = 0;
    for (let y = 0; y < 300; y++) for (let x = 0; x < 400; x++) if (near(pixel(image, x, y), roadColour)) roadPixels++;
    expect(roadPixels / (400 * 300)).toBeLessThan(0.3);
    // another style paints the same road in its own colour
    const dark = await picture(`style=dark&center=${middle.lat},${middle.lng}&zoom=${zoom}&size=400x300`);
    const darkRoad = rgb(((await api.get('/tiles/style?style=dark', undefined, { 'x-api-key': await key() })).body.layers as StyleLayer[]).find((layer) => layer.id === 'road-primary')!.paint!['line-color'] as string);
    expect(samples.filter(([x, y]) => near(pixel(dark, x, y), darkRoad)).length).toBeGreaterThanOrEqual(3);
  });

  it('fills a park of the pack with the style’s grass colour at its opacity over the background', async () => {
    const tile = await tileAt(NASR.lat, NASR.lng);
    const parks = features(tile, 'landcover').filter((feature) => feature.properties?.class === 'grass' && feature.geometry.type === 'Polygon');
    expect(parks.length, 'the Nasr City tile has parks').toBeGreaterThan(0);
    const area = (feature: GeoJSON.Feature) => {
      const ring = (feature.geometry as GeoJSON.Polygon).coordinates[0]!;
      let sum = 0;
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += ring[j]![0]! * ring[i]![1]! - ring[i]![0]! * ring[j]![1]!;
      return Math.abs(sum / 2);
    };
    const park = parks.sort((a, b) => area(b) - area(a))[0]!;
    const rings = (park.geometry as GeoJSON.Polygon).coordinates;
    const xs = rings[0]!.map((position) => position[0]!);
    const ys = rings[0]!.map((position) => position[1]!);
    const center = { lng: (Math.min(...xs) + Math.max(...xs)) / 2, lat: (Math.min(...ys) + Math.max(...ys)) / 2 };
    // zoom 15: buildings (from 15.5) are not drawn over the park
    const zoom = 15;
    const view = viewAt({ lon: center.lng, lat: center.lat }, zoom, 600, 400);
    const roads = features(tile, 'transportation').flatMap((feature) => lines(feature.geometry));
    const landuse = features(tile, 'landuse').map((feature) => lines(feature.geometry));
    const candidates: [number, number][] = [];
    for (let gx = 1; gx < 12; gx++) {
      for (let gy = 1; gy < 12; gy++) {
        const lng = Math.min(...xs) + (gx / 12) * (Math.max(...xs) - Math.min(...xs));
        const lat = Math.min(...ys) + (gy / 12) * (Math.max(...ys) - Math.min(...ys));
        if (!insideRings(rings, [lng, lat]) || landuse.some((other) => insideRings(other, [lng, lat]))) continue;
        const at = pixelOf(view, lng, lat);
        if (at[0] < 5 || at[1] < 5 || at[0] > 595 || at[1] > 395) continue;
        if (distanceToLines(view, at, rings) < 6 || distanceToLines(view, at, roads) < 12) continue;
        candidates.push(at);
      }
    }
    expect(candidates.length, 'points well inside the park').toBeGreaterThanOrEqual(3);
    const grass = await styleLayer('landcover-grass');
    const background = rgb((await styleLayer('background')).paint!['background-color'] as string);
    const expected = blend(rgb(grass.paint!['fill-color'] as string), grass.paint!['fill-opacity'] as number, background);
    const image = await picture(`center=${center.lat},${center.lng}&zoom=${zoom}&size=600x400`);
    const green = candidates.filter(([x, y]) => near(pixel(image, x, y), expected));
    expect(green.length / candidates.length).toBeGreaterThanOrEqual(0.6);
    expect(near(expected, background)).toBe(false);
  });

  it('draws markers and a polyline path in their colours, at 1x and 2x', async () => {
    const marker = { lat: NASR.lat + 0.001, lng: NASR.lng - 0.002 };
    const line: [number, number][] = [[NASR.lat - 0.001, NASR.lng - 0.002], [NASR.lat - 0.001, NASR.lng + 0.002]];
    const query = `center=${NASR.lat},${NASR.lng}&zoom=15&markers=color:0x00ff00|${marker.lat},${marker.lng}&path=color:0xff00ff|weight:6|enc:${encodeURIComponent(polyline.encode(line))}`;
    for (const scale of [1, 2]) {
      const image = await picture(`${query}&size=300x200&scale=${scale}`);
      expect([image.width, image.height]).toEqual([300 * scale, 200 * scale]);
      const view = viewAt({ lon: NASR.lng, lat: NASR.lat }, 15, 300, 200);
      const [mx, my] = pixelOf(view, marker.lng, marker.lat);
      // a medium pin's head is centred 18 px above its point
      expect(pixel(image, mx * scale, (my - 18) * scale)).toEqual([0, 255, 0]);
      for (const t of [0.25, 0.5, 0.75]) {
        const [px, py] = pixelOf(view, line[0]![1] + t * (line[1]![1] - line[0]![1]), line[0]![0]);
        expect(pixel(image, px * scale, py * scale)).toEqual([255, 0, 255]);
      }
    }
  });

  it('fits a bbox into the image, and fits the overlays when no camera is given', async () => {
    const bbox: [number, number, number, number] = [31.32, 30.05, 31.35, 30.07];
    const image = await picture(`bbox=${bbox.join(',')}&padding=20&size=400x300&path=color:0xff00ff|weight:4|${bbox[1]},${bbox[0]}|${bbox[3]},${bbox[2]}`);
    const fitted = fitBounds(bbox, { width: 400, height: 300, paddingPx: 20, maxZoom: 20, minZoom: 0 });
    const view = viewAt(fitted.center, fitted.zoom, 400, 300);
    for (const t of [0.1, 0.5, 0.9]) {
      const [x, y] = pixelOf(view, bbox[0] + t * (bbox[2] - bbox[0]), bbox[1] + t * (bbox[3] - bbox[1]));
      expect(pixel(image, x, y)).toEqual([255, 0, 255]);
    }
    // no camera: both markers, far apart, are drawn whole
    const auto = await picture(`size=400x300&markers=color:0x00ff00|30.045,31.31&markers=color:0x0000ff|30.08,31.37`);
    let green = 0;
    let blue = 0;
    for (let y = 0; y < 300; y++) {
      for (let x = 0; x < 400; x++) {
        const [r, g, b] = pixel(auto, x, y);
        if (r === 0 && g === 255 && b === 0) green++;
        if (r === 0 && g === 0 && b === 255) blue++;
      }
    }
    expect(green).toBeGreaterThan(100);
    expect(blue).toBeGreaterThan(100);
  });

  it('answers 400 naming the parameter for bad input', async () => {
    const cases: [string, RegExp][] = [
      ['style=watercolor&center=30.06,31.33&zoom=14', /query\.style: unknown style "watercolor"/],
      ['style=satellite&center=30.06,31.33&zoom=14', /query\.style: the satellite style is not drawn/],
      ['size=1281x400&center=30.06,31.33&zoom=14', /query\.size: width and height must be 1 to 1280/],
      ['size=0x400&center=30.06,31.33&zoom=14', /query\.size/],
      ['size=big&center=30.06,31.33&zoom=14', /query\.size: must be WIDTHxHEIGHT/],
      ['scale=3&center=30.06,31.33&zoom=14', /query\.scale/],
      ['center=30.06,31.33&zoom=21', /query\.zoom/],
      ['center=30.06,31.33', /query\.zoom: is required with center/],
      ['zoom=14', /query\.center: is required with zoom/],
      ['bbox=31.35,30.05,31.32,30.07', /query\.bbox: west must be less than east/],
      ['bbox=31.32,30.05,31.35,30.07&center=30.06,31.33&zoom=14', /query\.bbox: give either bbox or center and zoom/],
      ['size=600x400', /give center and zoom, or bbox, or markers or a path/],
      ['path=enc:_p~iF~ps%7CU_ulLnnqC_mqNvxq%60', /query\.path: bad polyline: it ends inside a value/],
      ['path=enc:ab%20cd', /query\.path: bad polyline: character/],
      ['path=color:0xff00ff|30.06,31.33', /query\.path: a path needs at least 2 points/],
      ['path=weight:50|30.06,31.33|30.07,31.34', /query\.path: weight must be 1 to 20/],
      ['markers=color:chartreuse|30.06,31.33', /query\.markers: colour "chartreuse"/],
      [`markers=${Array.from({ length: 51 }, (_, index) => `30.0${index % 10},31.3${index % 10}`).join('|')}`, /query\.markers: too many markers \(51\): at most 50/],
    ];
    for (const [query, message] of cases) {
      const answer = await staticMap(query);
      expect(answer.status, query).toBe(400);
      expect(answer.json?.code).toBe('VALIDATION_ERROR');
      expect(answer.json?.message.join(' '), query).toMatch(message);
    }
  });

  it('caches: Cache-Control, a strong ETag, 304 on If-None-Match; Arabic and English labels differ; no key, the watermark', async () => {
    const query = `center=${NASR.lat},${NASR.lng}&zoom=16&size=320x240`;
    const first = await staticMap(query);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=86400, stale-while-revalidate=604800');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('vary')).toMatch(/X-Api-Key/);
    const again = await staticMap(query, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    const english = await staticMap(`${query}&locale=en`);
    const arabic = await staticMap(`${query}&locale=ar`);
    expect(english.bytes.equals(arabic.bytes)).toBe(false);
    // without a key: the same view with the notice band across the middle
    const anonymous = await fetch(`${fixture.server.baseUrl}/api/v1/static/map?${query}&locale=ar`);
    expect(anonymous.status).toBe(200);
    const keyed = await sharp(arabic.bytes).removeAlpha().raw().toBuffer();
    const plain = await sharp(Buffer.from(await anonymous.arrayBuffer())).removeAlpha().raw().toBuffer();
    let darker = 0;
    const row = 120 * 320 * 3;
    for (let x = 0; x < 320; x++) if (plain[row + x * 3]! < keyed[row + x * 3]! - 10) darker++;
    expect(darker).toBeGreaterThan(200);
  });
});
