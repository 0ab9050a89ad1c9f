/**
 * The weather layer (part 2 §4.8, §2.11; docs/map-data.md, "Weather"), black-box: one server reads a fake
 * Open-Meteo-compatible provider this test starts (WEATHER_URL), another has none. With a provider: the
 * forecast sampled on a grid as GeoJSON cells with the measured values, icons once in metadata.icons,
 * type and time filters, tiles as GeoJSON, MVT (layer svc_weather) and SVG, the tile cover, the point
 * weather in both unit systems, the weather risk with reasons, the weather overlay, multi-location
 * provider calls and their cache, and a failing provider answered as hasData:false (readiness too, until it
 * recovers). Without one: every
 * endpoint answers 200 with hasData:false, never invented weather.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

/** Nasr City: cells 30.0 and 30.1 by 31.3 and 31.4 at 0.1°. */
const NASR_CITY = '31.3,30.03,31.37,30.09';
/** Cells from this longitude east get heavy rain (8 mm/h) every hour. */
const RAIN_FROM_LNG = 31.35;
const HOUR_MS = 3_600_000;

let provider: Server;
let providerMode: 'ok' | 'fail' = 'ok';
const providerCalls: URL[] = [];
let withWeather: ServerProcess;
let without: ServerProcess;
let api: ApiClient;
let bare: ApiClient;

/**
 * One location's Open-Meteo answer: 26 h back to 74 h ahead of the hour the call is made in; temperature
 * 20 °C + 10 per degree of latitude north of 30; heavy rain east of RAIN_FROM_LNG; thunderstorms from two
 * hours after the call's hour on (so "now" is calm and "+3h" stormy even if the hour turns during the run).
 */
function location(lat: number, lng: number): unknown {
  const callHour = Math.floor(Date.now() / HOUR_MS);
  const time = Array.from({ length: 100 }, (_, i) => (callHour - 26 + i) * 3600);
  const stormy = (t: number) => t / 3600 >= callHour + 2;
  const rain = lng >= RAIN_FROM_LNG ? 8 : 0;
  return {
    latitude: lat,
    longitude: lng,
    hourly: {
      time,
      weather_code: time.map((t) => (stormy(t) ? 95 : rain ? 65 : 3)),
      temperature_2m: time.map(() => Number((20 + (lat - 30) * 10).toFixed(1))),
      apparent_temperature: time.map(() => 22),
      relative_humidity_2m: time.map(() => 40),
      precipitation: time.map(() => rain),
      precipitation_probability: time.map(() => (rain ? 90 : 0)),
      cloud_cover: time.map(() => 95),
      wind_speed_10m: time.map(() => 12),
      wind_gusts_10m: time.map(() => 20),
      wind_direction_10m: time.map(() => 270),
      visibility: time.map(() => 20_000),
      is_day: time.map(() => 1),
    },
  };
}

beforeAll(async () => {
  provider = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    providerCalls.push(url);
    if (providerMode === 'fail') {
      response.writeHead(500);
      response.end();
      return;
    }
    const lats = (url.searchParams.get('latitude') ?? '').split(',').map(Number);
    const lngs = (url.searchParams.get('longitude') ?? '').split(',').map(Number);
    const answers = lats.map((lat, index) => location(lat, lngs[index]!));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answers.length === 1 ? answers[0] : answers));
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const port = (provider.address() as AddressInfo).port;
  // one after the other: two migrating at once double the start time on a loaded machine
  withWeather = await startServerProcess({ WEATHER_URL: `http://127.0.0.1:${port}/v1/forecast`, WEATHER_ALLOWED_HOSTS: `127.0.0.1:${port}` });
  without = await startServerProcess({ WEATHER_URL: undefined, WEATHER_ALLOWED_HOSTS: undefined });
  api = apiClient(withWeather.baseUrl);
  bare = apiClient(without.baseUrl);
}, 300_000);

afterAll(async () => {
  await Promise.all([withWeather?.stop(), without?.stop()].map((stop) => stop?.catch(() => undefined)));
  provider?.close();
});

async function binary(server: ServerProcess, path: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`);
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** The tile holding a point at zoom z. */
function tileOf(lng: number, lat: number, z: number): string {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return `${z}/${Math.floor(((lng + 180) / 360) * n)}/${Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n)}`;
}

describe('without a weather provider', () => {
  it('every weather endpoint answers 200 with hasData:false and no weather', async () => {
    for (const path of [`/map/weather/geojson?bbox=${NASR_CITY}`, `/map/weather/geojson/tiles/${tileOf(31.33, 30.06, 10)}`, `/map/overlays/weather?bbox=${NASR_CITY}`]) {
      const { status, body } = await bare.get(path);
      expect(status, path).toBe(200);
      expect(body, path).toMatchObject({ type: 'FeatureCollection', features: [], metadata: { layerType: 'weather', hasData: false } });
      expect(body.metadata.reason ?? body.metadata.source, path).toContain('WEATHER_URL');
    }
    const vector = await binary(without, `/map/weather/vector/${tileOf(31.33, 30.06, 10)}`);
    expect(vector).toMatchObject({ status: 200, bytes: new Uint8Array(0) });
    expect(vector.headers.get('x-overlay-has-data')).toBe('false');
    const svg = await fetch(`${without.baseUrl}/api/v1/map/weather/tiles/${tileOf(31.33, 30.06, 10)}`);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(await svg.text()).not.toContain('<rect');
    const point = await bare.get('/map/weather/point?lat=30.06&lng=31.33');
    expect(point.status).toBe(200);
    expect(point.body).toMatchObject({ hasData: false, current: null, hourly: [] });
    expect(point.body.reason).toContain('WEATHER_URL');
    const risk = await bare.get(`/map/weather-risk?bbox=${NASR_CITY}`);
    expect(risk.status).toBe(200);
    expect(risk.body).toMatchObject({ hasData: false, score: null, warnings: [] });
    const cover = await bare.get(`/map/weather/tile-cover?bbox=${NASR_CITY}&zoom=10`);
    expect(cover.body).toMatchObject({ hasData: false });
    expect(cover.body.tiles.length).toBeGreaterThan(0);
  });

  it('config, layers and readiness say there is no weather', async () => {
    const config = (await bare.get('/map/config')).body;
    expect(config.weather).toMatchObject({ configured: false, hasData: false, provider: null });
    expect(config.overlays.find((overlay: any) => overlay.key === 'weather')).toMatchObject({ hasData: false });
    const readiness = (await bare.get('/map/readiness')).body;
    expect(readiness.capabilities.weather).toEqual({ served: true, data: false, ready: false, reason: expect.stringContaining('WEATHER_URL') });
  });

  it('still refuses a point without coordinates (400)', async () => {
    const missing = await bare.get('/map/weather/point?lat=30');
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('GET /map/weather/geojson with a provider', () => {
  it('samples the grid in multi-location calls and answers cells with the measured values', async () => {
    const before = providerCalls.length;
    const { status, headers, body } = await api.get(`/map/weather/geojson?bbox=${NASR_CITY}&zoom=12`);
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toContain('max-age=300');
    expect(body.metadata).toMatchObject({ layerType: 'weather', hasData: true, time: 'now', gridStepDeg: 0.1, samples: 4, provider: expect.stringContaining('127.0.0.1') });
    expect(body.metadata.validAt).toBe(new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS).toISOString());
    // four cells, one provider call naming all four
    const calls = providerCalls.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.searchParams.get('latitude')!.split(',')).toHaveLength(4);
    const temperatures = body.features.filter((feature: any) => feature.properties.type === 'temperature');
    expect(temperatures).toHaveLength(4);
    for (const feature of temperatures) {
      expect(feature.geometry.type).toBe('Polygon');
      expect(feature.properties).toMatchObject({ layerType: 'weather', unit: '°C', cellSizeDeg: 0.1, cloudCoverPercent: 95 });
      expect(feature.properties.value).toBeCloseTo(20 + (feature.properties.lat - 30) * 10, 5);
      expect(feature.properties.color).toMatch(/^#[0-9a-f]{6}$/);
    }
    // rain only where the provider has rain
    const rain = body.features.filter((feature: any) => feature.properties.type === 'precipitation');
    expect(rain.map((feature: any) => feature.properties.lng).sort()).toEqual([31.4, 31.4]);
    expect(rain[0].properties).toMatchObject({ value: 8, unit: 'mm/h', weatherType: 'rain' });
    // icons once, keyed by the weather types the features carry, served at the site root
    const used = new Set(body.features.map((feature: any) => feature.properties.weatherType));
    expect(Object.keys(body.metadata.icons).sort()).toEqual([...used].sort());
    const icon = body.metadata.icons.rain;
    expect(icon.iconLightUrl).toMatch(/\/uploads\/weather-icons\/rain-light\.svg$/);
    expect((await fetch(icon.iconDarkUrl)).headers.get('content-type')).toContain('image/svg+xml');
    // the same box again: from the cache, no provider call
    const again = providerCalls.length;
    await api.get(`/map/weather/geojson?bbox=${NASR_CITY}&zoom=12&type=clouds`);
    expect(providerCalls.length).toBe(again);
  });

  it('filters by type and time: storms three hours ahead, none now; alerts with reasons', async () => {
    const now = (await api.get(`/map/weather/geojson?bbox=${NASR_CITY}&type=storms`)).body;
    expect(now.metadata).toMatchObject({ hasData: true, types: ['storms'] });
    expect(now.features).toEqual([]);
    const later = (await api.get(`/map/weather/geojson?bbox=${NASR_CITY}&type=storms,alerts&time=%2B3h`)).body;
    expect(later.metadata.time).toBe('+3h');
    const storms = later.features.filter((feature: any) => feature.properties.type === 'storms');
    expect(storms).toHaveLength(4);
    expect(storms[0].properties).toMatchObject({ weatherType: 'storm', name: 'thunderstorm' });
    const alerts = later.features.filter((feature: any) => feature.properties.type === 'alerts');
    expect(alerts).toHaveLength(4);
    for (const alert of alerts) expect(alert.properties).toMatchObject({ hazard: 'storm', severity: 'severe', name: 'thunderstorm', weatherType: 'storm' });
    // where it also rains heavily, the alert names both hazards
    expect(alerts.filter((alert: any) => alert.properties.hazards === 'storm,heavy_rain')).toHaveLength(2);
    expect(new Set(later.features.map((feature: any) => feature.properties.type))).toEqual(new Set(['storms', 'alerts']));
    const limited = (await api.get(`/map/weather/geojson?bbox=${NASR_CITY}&limit=3`)).body;
    expect(limited.features).toHaveLength(3);
    expect(limited.metadata.truncated).toBe(true);
  });

  it('coarsens the grid for a large box, at most 100 cells in at most two provider calls', async () => {
    const before = providerCalls.length;
    const { body } = await api.get('/map/weather/geojson?bbox=25,22,37,32&zoom=9&type=temperature&limit=5000');
    expect(body.metadata.hasData).toBe(true);
    expect(body.metadata.gridStepDeg).toBeGreaterThan(0.1);
    expect(body.metadata.samples).toBeLessThanOrEqual(100);
    expect(providerCalls.length - before).toBeLessThanOrEqual(2);
  });

  it('bad input degrades to an empty collection with hasData:false and the reason', async () => {
    for (const [query, said] of [
      [`bbox=${NASR_CITY}&type=hail`, 'type'],
      [`bbox=${NASR_CITY}&time=%2B2h`, 'time'],
      ['bbox=31,30,30,31', 'bbox'],
      ['', 'bbox'],
    ] as const) {
      const { status, body } = await api.get(`/map/weather/geojson?${query}`);
      expect(status, query).toBe(200);
      expect(body, query).toMatchObject({ features: [], metadata: { hasData: false } });
      expect(body.metadata.error, query).toContain(said);
    }
    const tile = await api.get('/map/weather/geojson/tiles/3/9/9');
    expect(tile.status).toBe(200);
    expect(tile.body.metadata).toMatchObject({ hasData: false, error: expect.stringContaining('no tile') });
  });
});

describe('weather tiles', () => {
  const tile = tileOf(31.33, 30.06, 9);

  it('GeoJSON tile, vector tile (layer svc_weather) and SVG tile show the same cells', async () => {
    const geojson = (await api.get(`/map/weather/geojson/tiles/${tile}?type=precipitation`)).body;
    expect(geojson.metadata.hasData).toBe(true);
    expect(geojson.features.length).toBeGreaterThan(0);
    const vector = await binary(withWeather, `/map/weather/vector/${tile}?type=precipitation`);
    expect(vector.status).toBe(200);
    expect(vector.headers.get('content-type')).toContain('application/x-protobuf');
    const decoded = new VectorTile(new PbfReader(vector.bytes));
    expect(Object.keys(decoded.layers)).toEqual(['svc_weather']);
    const layer = decoded.layers.svc_weather!;
    expect(layer.length).toBe(Number(vector.headers.get('x-overlay-features')));
    expect(layer.feature(0).properties).toMatchObject({ layerType: 'weather', type: 'precipitation', unit: 'mm/h' });
    const svg = await fetch(`${withWeather.baseUrl}/api/v1/map/weather/tiles/${tile}?type=precipitation`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    const text = await svg.text();
    expect(text).toMatch(/^<svg [^>]*width="256" height="256"/);
    expect(text).toContain(`fill="${geojson.features[0].properties.color}"`);
    // clouds cover every cell: more squares than the rain
    const clouds = await (await fetch(`${withWeather.baseUrl}/api/v1/map/weather/tiles/${tile}?type=clouds`)).text();
    expect(clouds.split('<rect').length).toBeGreaterThan(text.split('<rect').length);
  });

  it('tile cover lists GeoJSON, vector and SVG URLs with the filters, capped', async () => {
    const { body } = await api.get(`/map/weather/tile-cover?bbox=${NASR_CITY}&zoom=12&type=precipitation&time=%2B1h`);
    expect(body).toMatchObject({ layerType: 'weather', hasData: true, zoom: 12, capped: false });
    expect(body.tiles.length).toBeGreaterThan(0);
    const first = body.tiles[0];
    expect(first.vectorUrl).toContain(`/map/weather/vector/12/${first.x}/${first.y}?type=precipitation&time=%2B1h`);
    expect((await fetch(first.svgUrl)).status).toBe(200);
    const capped = (await api.get('/map/weather/tile-cover?bbox=25,22,37,32&zoom=12&maxTiles=10')).body;
    expect(capped.count).toBeLessThanOrEqual(10);
    expect(capped).toMatchObject({ capped: true, requestedZoom: 12 });
    expect(capped.zoom).toBeLessThan(12);
  });
});

describe('GET /map/weather/point', () => {
  it('answers current conditions and the next hours with icon URLs', async () => {
    const { status, body } = await api.get('/map/weather/point?lat=30.06&lng=31.38');
    expect(status).toBe(200);
    expect(body).toMatchObject({ hasData: true, units: 'metric', cell: { lat: 30.1, lng: 31.4 }, unitLabels: { temperature: '°C' } });
    expect(body.current).toMatchObject({ temperature: 21, precipitation: 8, windSpeed: 12, visibility: 20, icon: 'rain', condition: 'heavy_rain' });
    expect(body.current.iconLightUrl).toMatch(/\/uploads\/weather-icons\/rain-light\.svg$/);
    expect(body.current.warnings.map((warning: any) => warning.kind)).toContain('heavy_rain');
    expect(body.hourly).toHaveLength(12);
    expect(Date.parse(body.hourly[1].time) - Date.parse(body.hourly[0].time)).toBe(HOUR_MS);
    expect(body.hourly.some((hour: any) => hour.icon === 'storm')).toBe(true);
  });

  it('converts to imperial units and accepts lon', async () => {
    const { body } = await api.get('/map/weather/point?lat=30.06&lon=31.38&units=imperial&hours=3');
    expect(body).toMatchObject({ hasData: true, units: 'imperial', unitLabels: { temperature: '°F', windSpeed: 'mph' } });
    expect(body.current.temperature).toBeCloseTo((21 * 9) / 5 + 32, 1);
    expect(body.current.precipitation).toBeCloseTo(8 / 25.4, 2);
    expect(body.current.windSpeed).toBeCloseTo(12 / 1.609344, 1);
    expect(body.hourly).toHaveLength(3);
  });

  it('refuses missing or out-of-range coordinates and unknown units with 400', async () => {
    for (const query of ['lat=30.06', 'lng=31.3', 'lat=91&lng=31', 'lat=abc&lng=31', 'lat=30&lng=31&units=kelvin']) {
      const { status, body } = await api.get(`/map/weather/point?${query}`);
      expect({ query, status, code: body.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
    }
  });
});

describe('GET /map/weather-risk', () => {
  it('scores the heavy rain of an area with reasons, and storms three hours ahead', async () => {
    const { status, body } = await api.get(`/map/weather-risk?bbox=${NASR_CITY}&hours=1`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ hasData: true, samples: 4, window: { hours: 1 } });
    expect(body.warnings.map((warning: any) => warning.kind)).toEqual(['heavy_rain']);
    expect(body.warnings[0]).toMatchObject({ value: 8, unit: 'mm/h', affectedSamples: 2, lng: 31.4 });
    expect(body.warnings[0].reason).toContain('heavy rain');
    expect(body.score).toBe(body.warnings[0].score);
    expect(body.severity).toBe('high');
    const later = (await api.get('/map/weather-risk?lat=30.06&lng=31.33&radiusKm=5&time=%2B3h&hours=1')).body;
    expect(later.area).toMatchObject({ center: { lat: 30.06, lng: 31.33 }, radiusKm: 5 });
    expect(later.warnings[0].kind).toBe('storm');
    expect(later.score).toBeGreaterThan(body.score);
  });

  it('bad input degrades to hasData:false with the error', async () => {
    for (const query of ['', 'bbox=1,2,3', 'lat=30', `bbox=${NASR_CITY}&time=tomorrow`]) {
      const { status, body } = await api.get(`/map/weather-risk?${query}`);
      expect(status, query).toBe(200);
      expect(body, query).toMatchObject({ hasData: false, score: null, warnings: [] });
      expect(typeof body.error, query).toBe('string');
    }
  });
});

describe('the weather overlay and the map manifest', () => {
  it('/map/overlays/weather serves the same cells; config and readiness report the provider', async () => {
    const overlay = (await api.get(`/map/overlays/weather?bbox=${NASR_CITY}`)).body;
    expect(overlay.metadata).toMatchObject({ layerType: 'weather', hasData: true });
    expect(overlay.metadata.source).toContain('127.0.0.1');
    expect(overlay.features.length).toBeGreaterThan(0);
    for (const feature of overlay.features) expect(feature.properties).toMatchObject({ layerType: 'weather', id: expect.any(String), name: expect.any(String), color: expect.any(String) });
    const vector = await binary(withWeather, `/map/overlays/weather/vector/${tileOf(31.33, 30.06, 9)}`);
    expect(Object.keys(new VectorTile(new PbfReader(vector.bytes)).layers)).toEqual(['svc']);
    const config = (await api.get('/map/config')).body;
    expect(config.weather).toMatchObject({ configured: true, hasData: true, sourceLayer: 'svc_weather' });
    expect(config.overlays.find((entry: any) => entry.key === 'weather')).toMatchObject({ hasData: true });
    expect(config.capabilities.publicEndpoints.weather).toMatch(/\/map\/weather\/geojson$/);
    expect((await api.get('/map/readiness')).body.capabilities.weather).toEqual({ served: true, data: true, ready: true });
  });

  it('a failing provider answers hasData:false with the reason, never an error status', async () => {
    providerMode = 'fail';
    try {
      // cells not asked for before (Riyadh), so not cached
      const { status, body } = await api.get('/map/weather/geojson?bbox=46.6,24.6,46.75,24.75&zoom=12');
      expect(status).toBe(200);
      expect(body).toMatchObject({ features: [], metadata: { hasData: false } });
      expect(body.metadata.reason).toContain('HTTP 500');
      const point = await api.get('/map/weather/point?lat=21.5&lng=39.2');
      expect(point.status).toBe(200);
      expect(point.body).toMatchObject({ hasData: false, current: null });
      expect((await api.get('/map/config')).body.weather.hasData).toBe(false);
      // readiness reports the provider's last outcome, not that WEATHER_URL is set
      const failing = (await api.get('/map/readiness')).body.capabilities.weather;
      expect(failing).toEqual({ served: true, data: false, ready: false, reason: expect.stringContaining('HTTP 500') });
    } finally {
      providerMode = 'ok';
    }
    // recovered: the next call that reaches it (cells not asked before, Amman) succeeds, and readiness follows
    const recovered = await api.get('/map/weather/point?lat=31.95&lng=35.9');
    expect(recovered.body).toMatchObject({ hasData: true });
    expect((await api.get('/map/readiness')).body.capabilities.weather).toEqual({ served: true, data: true, ready: true });
  });
});
