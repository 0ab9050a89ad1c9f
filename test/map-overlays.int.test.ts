/**
 * Map configuration, overlays and logistics zones (part 2 §2.10, §4.8; docs/map-data.md), black-box:
 * a server over the default pack with the Cairo metro GTFS feed imported and an operator, answering
 * /map/config and /map/layers, the overlays as GeoJSON, tiles, vector tiles and tile covers, bad
 * input as an empty collection with hasData:false, and zones an operator manages.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestToFile } from '../src/ingest/ingest.js';
import { runAdminCli, runIngestCli } from './support/admin-cli.js';
import { OSM_FILES } from './support/osm-data.js';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { sharedDeployment, usingRealServices } from './support/services.js';

const FEED = fileURLToPath(new URL('../../shared/data/gtfs/cairo-metro', import.meta.url));
const SADAT = { lat: 30.043924, lng: 31.23566 };
const REQUIRED = ['traffic', 'transit', 'incidents', 'weather', 'logistics_zones'];
/** Layer types with no data here (incidents: until the last test reports one): no elevation, no weather provider, no surveillance nodes in the pack. */
const WITHOUT_DATA = ['terrain', 'incidents', 'weather', 'traffic_cameras'];

let server: ServerProcess;
let api: ApiClient;
let adminToken: string;
let userToken: string;
let dataDir: string | undefined;

beforeAll(async () => {
  let env: Record<string, string>;
  let cliEnv: Record<string, string>;
  if (usingRealServices) {
    env = sharedDeployment('overlays');
    cliEnv = { DATABASE_URL: env.DATABASE_URL!, DATABASE_SCHEMA: env.DATABASE_SCHEMA! };
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'overlays-'));
    env = { DATA_DIR: dataDir };
    cliEnv = { DATA_DIR: dataDir };
  }
  let admin: Awaited<ReturnType<typeof registerUser>>;
  if (usingRealServices) {
    const imported = await runIngestCli(['--gtfs', FEED, '--feed-name', 'cairo-metro', '--quiet'], cliEnv);
    expect(imported.code, imported.stderr).toBe(0);
    server = await startServerProcess(env);
    admin = await registerUser(apiClient(server.baseUrl), 'zone-operator');
  } else {
    // the embedded database belongs to one process: register, stop, grant and import, start again
    const first = await startServerProcess(env);
    admin = await registerUser(apiClient(first.baseUrl), 'zone-operator');
    await first.stop();
    const imported = await runIngestCli(['--gtfs', FEED, '--feed-name', 'cairo-metro', '--quiet'], cliEnv);
    expect(imported.code, imported.stderr).toBe(0);
  }
  const granted = await runAdminCli(['grant-role', admin.email, 'admin'], cliEnv);
  expect(granted.code, granted.stderr).toBe(0);
  if (!usingRealServices) server = await startServerProcess(env);
  api = apiClient(server.baseUrl);
  adminToken = admin.token;
  userToken = (await registerUser(api, 'map-user')).token;
}, 180_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The tile holding a point at zoom z. */
function tileOf(lng: number, lat: number, z: number): { x: number; y: number } {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return { x: Math.floor(((lng + 180) / 360) * n), y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n) };
}

async function binary(path: string): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`);
  return { status: response.status, type: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('GET /map/config and /map/layers', () => {
  it('config carries the §2.10 keys, the served styles and categories, and the tile-cover caps', async () => {
    const { status, body } = await api.get('/map/config');
    expect(status).toBe(200);
    for (const key of ['layers', 'baseStyles', 'overlays', 'categories', 'icons', 'iconSpriteUrl', 'iconSpriteManifestUrl', 'categoryStyleManifest', 'threeD', 'logisticsZones', 'capabilities']) {
      expect(body, key).toHaveProperty(key);
    }
    const styles = (await api.get('/tiles/styles')).body.styles.map((style: { style: string }) => style.style);
    expect(body.baseStyles.map((style: { key: string }) => style.key)).toEqual(styles);
    for (const style of body.baseStyles) {
      expect(Object.keys(style)).toEqual(expect.arrayContaining(['key', 'name', 'kind', 'endpoint']));
      const document = await fetch(style.endpoint);
      expect(document.status, style.endpoint).toBe(200);
      await document.arrayBuffer();
    }
    const categoryStyles = (await api.get('/map/category-styles')).body;
    expect(body.categories.map((category: { slug: string }) => category.slug)).toEqual(categoryStyles.categories.map((category: { slug: string }) => category.slug));
    expect(body.iconSpriteUrl).toBe(categoryStyles.iconSpriteUrl);
    for (const overlay of body.overlays) expect(Object.keys(overlay)).toEqual(expect.arrayContaining(['key', 'kind', 'layerType', 'tileUrl']));
    expect(body.overlays).toHaveLength(10);
    expect(body.capabilities.performance).toEqual({ defaultTileCoverCap: 64, maxTileCoverCap: 256, tileAddressedOverlays: true });
    expect(body.capabilities.vectorOverlays).toMatchObject({ enabled: true, format: 'mvt' });
    expect((await fetch(body.iconSpriteManifestUrl)).status).toBe(200);
  });

  it('layers lists base styles and overlays with the required overlay types, honest about data', async () => {
    const { status, body } = await api.get('/map/layers');
    expect(status).toBe(200);
    expect(body.requiredOverlays).toEqual(expect.arrayContaining(REQUIRED));
    expect(body.total).toBe(body.items.length);
    expect(body.items.length).toBe(body.baseStyles.length + body.overlays.length);
    const overlayByKey = new Map(body.overlays.map((overlay: { key: string }) => [overlay.key, overlay]));
    for (const key of REQUIRED) expect(overlayByKey.has(key), key).toBe(true);
    for (const key of WITHOUT_DATA) expect(overlayByKey.get(key), key).toMatchObject({ hasData: false });
    expect(overlayByKey.get('transit')).toMatchObject({ hasData: true });
  });
});

describe('GET /map/overlays/{layerType}', () => {
  it('transit: the imported lines and stations with kind, mode, routeRef, lineName, network, colour', async () => {
    const { status, body } = await api.get('/map/overlays/transit?limit=5000');
    expect(status).toBe(200);
    expect(body.type).toBe('FeatureCollection');
    expect(body.metadata).toMatchObject({ layerType: 'transit', name: 'Transit', hasData: true });
    const lines = body.features.filter((feature: any) => feature.properties.kind === 'line');
    const stops = body.features.filter((feature: any) => feature.properties.kind === 'stop');
    expect(lines.map((line: any) => line.properties.routeRef).sort()).toEqual((await api.get('/transit/routes')).body.routes.map((route: any) => route.shortName ?? route.routeId).sort());
    for (const line of lines) {
      expect(line.geometry.type).toBe('LineString');
      expect(line.properties).toMatchObject({ layerType: 'transit', mode: 'metro', network: 'cairo-metro' });
      expect(line.properties.color).toMatch(/^#[0-9a-fA-F]{6}$/);
      expect(typeof line.properties.lineName).toBe('string');
    }
    const sadat = stops.find((stop: any) => stop.properties.name === 'Sadat');
    expect(sadat.geometry.coordinates).toEqual([SADAT.lng, SADAT.lat]);
    expect(sadat.properties).toMatchObject({ id: 'cairo-metro:86_SAD_METRO', mode: 'metro', layerType: 'transit' });
    // a bbox around Sadat keeps Sadat and fewer stations than the whole network
    const near = (await api.get(`/map/overlays/transit?bbox=${SADAT.lng - 0.005},${SADAT.lat - 0.005},${SADAT.lng + 0.005},${SADAT.lat + 0.005}`)).body;
    const nearStops = near.features.filter((feature: any) => feature.properties.kind === 'stop');
    expect(nearStops.map((stop: any) => stop.properties.name)).toContain('Sadat');
    expect(nearStops.length).toBeLessThan(stops.length);
    // limit trims and says so
    const one = (await api.get('/map/overlays/transit?limit=1')).body;
    expect(one.features).toHaveLength(1);
    expect(one.metadata.truncated).toBe(true);
  });

  it('speed cameras and traffic lights are the pack layers the readiness summary counts', async () => {
    const layers = (await api.get('/map/readiness')).body.summary.layers;
    for (const [layerType, packLayer] of [['speed_cameras', 'speed_camera'], ['traffic_lights', 'traffic_signal']] as const) {
      const { body } = await api.get(`/map/overlays/${layerType}?limit=5000`);
      expect(body.metadata.hasData, layerType).toBe((layers[packLayer] ?? 0) > 0);
      expect(body.features.length, layerType).toBe(Math.min(5000, layers[packLayer] ?? 0));
      for (const feature of body.features.slice(0, 20)) {
        expect(feature.geometry.type).toBe('Point');
        expect(Object.keys(feature.properties)).toEqual(expect.arrayContaining(['id', 'name', 'layerType', 'color']));
        expect(feature.properties.layerType).toBe(layerType);
      }
      if (body.features.length) expect(body.metadata.attribution).toContain('OpenStreetMap');
    }
  });

  it('biking lines carry network, surface, lit and oneway', async () => {
    const { body } = await api.get('/map/overlays/biking?limit=50');
    expect(body.metadata.layerType).toBe('biking');
    for (const feature of body.features) {
      expect(feature.geometry.type).toBe('LineString');
      expect(['protected', 'shared', 'trail']).toContain(feature.properties.network);
      expect(typeof feature.properties.oneway).toBe('boolean');
      expect(feature.properties).toHaveProperty('surface');
      expect(feature.properties).toHaveProperty('lit');
    }
  });

  it('layers without data answer an empty collection with hasData:false', async () => {
    for (const layerType of [...WITHOUT_DATA, 'traffic']) {
      const { status, body } = await api.get(`/map/overlays/${layerType}?bbox=31.3,30.05,31.35,30.09`);
      expect(status, layerType).toBe(200);
      expect(body, layerType).toMatchObject({ type: 'FeatureCollection', features: [], metadata: { layerType, hasData: false } });
    }
  });

  it('bad input degrades to an empty collection with hasData:false, never an error', async () => {
    for (const path of [
      '/map/overlays/rainbows',
      '/map/overlays/transit?bbox=1,2,3',
      '/map/overlays/transit?bbox=31.3,30.1,31.2,30.0',
      '/map/overlays/transit?bbox=a,b,c,d',
      '/map/overlays/transit/tiles/99/0/0',
      '/map/overlays/transit/tiles/3/8/0',
      '/map/overlays/transit/tiles/x/y/z',
    ]) {
      const { status, body } = await api.get(path);
      expect(status, path).toBe(200);
      expect(body.features, path).toEqual([]);
      expect(body.metadata, path).toMatchObject({ hasData: false });
      expect(typeof body.metadata.error, path).toBe('string');
    }
    const limitNonsense = await api.get('/map/overlays/transit?limit=banana&zoom=-4');
    expect(limitNonsense.status).toBe(200);
    expect(limitNonsense.body.metadata).toMatchObject({ hasData: true, zoom: 0 });
    const badVector = await binary('/map/overlays/transit/vector/40/1/1');
    expect(badVector.status).toBe(200);
    expect(badVector.bytes.byteLength).toBe(0);
  });

  it('one tile as GeoJSON and as a vector tile (layer svc) hold the features there', async () => {
    const z = 14;
    const { x, y } = tileOf(SADAT.lng, SADAT.lat, z);
    const geojson = (await api.get(`/map/overlays/transit/tiles/${z}/${x}/${y}`)).body;
    expect(geojson.metadata).toMatchObject({ layerType: 'transit', hasData: true, zoom: z });
    expect(geojson.features.map((feature: any) => feature.properties.name)).toContain('Sadat');
    const vector = await binary(`/map/overlays/transit/vector/${z}/${x}/${y}`);
    expect(vector.status).toBe(200);
    expect(vector.type).toContain('application/x-protobuf');
    const tile = new VectorTile(new PbfReader(vector.bytes));
    expect(Object.keys(tile.layers)).toEqual(['svc']);
    const names = Array.from({ length: tile.layers.svc!.length }, (_, index) => tile.layers.svc!.feature(index).properties.name);
    expect(names).toContain('Sadat');
    // far from every line and station: an empty tile
    const { x: emptyX, y: emptyY } = tileOf(-150, -60, z);
    const nothing = await binary(`/map/overlays/transit/vector/${z}/${emptyX}/${emptyY}`);
    expect(nothing.bytes.byteLength).toBe(0);
  });

  it('tile-cover is capped by maxTiles (default 64, at most 256) by zooming out', async () => {
    const bbox = '31.1,29.8,31.5,30.2';
    const fine = (await api.get(`/map/overlays/transit/tile-cover?bbox=${bbox}&zoom=16`)).body;
    expect(fine.maxTiles).toBe(64);
    expect(fine.count).toBeLessThanOrEqual(64);
    expect(fine.count).toBe(fine.tiles.length);
    expect(fine.zoom).toBeLessThan(16);
    expect(fine.capped).toBe(true);
    const wide = (await api.get(`/map/overlays/transit/tile-cover?bbox=${bbox}&zoom=16&maxTiles=100000`)).body;
    expect(wide.maxTiles).toBe(256);
    expect(wide.count).toBeLessThanOrEqual(256);
    expect(wide.zoom).toBeGreaterThanOrEqual(fine.zoom);
    const exact = (await api.get(`/map/overlays/transit/tile-cover?bbox=${bbox}&zoom=8`)).body;
    expect(exact).toMatchObject({ zoom: 8, capped: false });
    // every URL answers, and the tiles together hold every feature of the bbox
    const ids = new Set<string>();
    for (const tile of exact.tiles) {
      const answer = await fetch(tile.url);
      expect(answer.status).toBe(200);
      for (const feature of ((await answer.json()) as any).features) ids.add(feature.properties.id);
    }
    const inBbox = (await api.get(`/map/overlays/transit?bbox=${bbox}&limit=5000`)).body.features.map((feature: any) => feature.properties.id);
    expect([...ids].sort()).toEqual([...new Set<string>(inBbox)].sort());
    const missing = (await api.get('/map/overlays/transit/tile-cover')).body;
    expect(missing).toMatchObject({ count: 0, tiles: [], hasData: false });
  });
});

describe('overlays from the map pack (Monaco: signals, speed cameras, cycleways)', () => {
  let monaco: ServerProcess;
  let workDir: string;
  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'overlays-monaco-'));
    const pack = join(workDir, 'monaco.svcpack');
    await ingestToFile({ input: OSM_FILES.monaco }, pack);
    monaco = await startServerProcess({ DATA_PACK: pack, DATA_DIR: 'memory://' });
  }, 120_000);
  afterAll(async () => {
    await monaco?.stop().catch(() => undefined);
    rmSync(workDir, { recursive: true, force: true });
  });

  it('traffic lights, speed cameras and cycleways: every pack feature, as GeoJSON and in vector tiles', async () => {
    const monacoApi = apiClient(monaco.baseUrl);
    const layers = (await monacoApi.get('/map/readiness')).body.summary.layers;
    expect(layers.traffic_signal).toBeGreaterThan(0);
    const hasData = new Map((await monacoApi.get('/map/layers')).body.overlays.map((overlay: { key: string; hasData: boolean }) => [overlay.key, overlay.hasData]));
    for (const [layerType, packLayer] of [['speed_cameras', 'speed_camera'], ['traffic_lights', 'traffic_signal']] as const) {
      const { body } = await monacoApi.get(`/map/overlays/${layerType}?limit=5000`);
      expect(body.features.length, layerType).toBe(layers[packLayer]);
      expect(hasData.get(layerType), layerType).toBe(layers[packLayer] > 0);
      expect(new Set(body.features.map((feature: any) => feature.properties.id)).size).toBe(body.features.length);
    }
    const lights = (await monacoApi.get('/map/overlays/traffic_lights?limit=5000')).body.features;
    const [lng, lat] = lights[0].geometry.coordinates;
    const z = 15;
    const { x, y } = tileOf(lng, lat, z);
    const inTile = lights.filter((feature: any) => {
      const at = tileOf(feature.geometry.coordinates[0], feature.geometry.coordinates[1], z);
      return at.x === x && at.y === y;
    });
    expect(inTile.length).toBeGreaterThan(0);
    const response = await fetch(`${monaco.baseUrl}/api/v1/map/overlays/traffic_lights/vector/${z}/${x}/${y}`);
    expect(response.headers.get('content-type')).toContain('application/x-protobuf');
    const tile = new VectorTile(new PbfReader(new Uint8Array(await response.arrayBuffer())));
    const ids = Array.from({ length: tile.layers.svc!.length }, (_, index) => tile.layers.svc!.feature(index).properties.id);
    for (const feature of inTile) expect(ids).toContain(feature.properties.id);
    expect(tile.layers.svc!.feature(0).properties.layerType).toBe('traffic_lights');

    const biking = (await monacoApi.get('/map/overlays/biking')).body;
    expect(biking.metadata.hasData).toBe(true);
    expect(biking.metadata.attribution).toContain('OpenStreetMap');
    for (const feature of biking.features) {
      expect(feature.geometry.type).toBe('LineString');
      expect(feature.properties).toMatchObject({ layerType: 'biking', network: 'protected' });
    }
  });
});

describe('logistics zones', () => {
  const square = (west: number, south: number, size: number) => ({
    type: 'Polygon',
    coordinates: [[[west, south], [west + size, south], [west + size, south + size], [west, south + size], [west, south]]],
  });
  const zone = { name: 'Nasr City depot approach', zoneType: 'restricted', riskScore: 0.7, costMultiplier: 2.5, routingPolicy: 'avoid', geometry: square(31.33, 30.06, 0.01) };

  it('operators create, change and delete zones; the map draws the active ones', async () => {
    expect((await api.post('/admin/logistics-zones', zone, userToken)).status).toBe(403);
    expect((await api.post('/admin/logistics-zones', zone)).status).toBe(401);
    const created = await api.post('/admin/logistics-zones', zone, adminToken);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...zone, active: true, bbox: [31.33, 30.06, 31.34, 30.07] });
    const id = created.body.id;

    const geojson = (await api.get('/map/logistics-zones.geojson')).body;
    expect(geojson.type).toBe('FeatureCollection');
    expect(geojson.metadata.hasData).toBe(true);
    const feature = geojson.features.find((candidate: any) => candidate.properties.id === id);
    expect(feature.geometry).toEqual(zone.geometry);
    expect(feature.properties).toMatchObject({ name: zone.name, layerType: 'logistics_zones', zoneType: 'restricted', riskScore: 0.7, costMultiplier: 2.5, routingPolicy: 'avoid' });
    // the bbox filter: a box elsewhere leaves it out
    expect((await api.get('/map/logistics-zones.geojson?bbox=35.9,31.9,36.0,32.0')).body.features).toEqual([]);
    const overlay = (await api.get('/map/overlays/logistics_zones?bbox=31.3,30.0,31.4,30.1')).body;
    expect(overlay.metadata.hasData).toBe(true);
    expect(overlay.features.map((candidate: any) => candidate.properties.id)).toContain(id);
    expect((await api.get('/map/config')).body.logisticsZones).toMatchObject({ hasData: true });

    const patched = await api.patch(`/admin/logistics-zones/${id}`, { routingPolicy: 'penalize', riskScore: 0.4 }, adminToken);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ routingPolicy: 'penalize', riskScore: 0.4, name: zone.name });
    const recoloured = (await api.get('/map/logistics-zones.geojson')).body.features.find((candidate: any) => candidate.properties.id === id);
    expect(recoloured.properties.routingPolicy).toBe('penalize');
    expect(recoloured.properties.color).not.toBe(feature.properties.color);

    await api.patch(`/admin/logistics-zones/${id}`, { active: false }, adminToken);
    expect((await api.get('/map/logistics-zones.geojson')).body.features.map((candidate: any) => candidate.properties.id)).not.toContain(id);
    expect((await api.get('/admin/logistics-zones', adminToken)).body.zones.map((candidate: any) => candidate.id)).toContain(id);

    expect((await api.delete(`/admin/logistics-zones/${id}`, adminToken)).status).toBe(204);
    expect((await api.get(`/admin/logistics-zones/${id}`, adminToken)).status).toBe(404);
    expect((await api.delete(`/admin/logistics-zones/${id}`, adminToken)).status).toBe(404);
    expect((await api.get('/admin/logistics-zones/not-a-zone', adminToken)).status).toBe(404);
  });

  it('refuses geometry that does not draw and values out of range with 400', async () => {
    const open = { ...zone, geometry: { type: 'Polygon', coordinates: [[[31.33, 30.06], [31.34, 30.06], [31.34, 30.07], [31.33, 30.07]]] } };
    const refusals = [
      open,
      { ...zone, geometry: { type: 'Point', coordinates: [31.33, 30.06] } },
      { ...zone, geometry: square(190, 30, 1) },
      { ...zone, riskScore: 1.5 },
      { ...zone, routingPolicy: 'ignore' },
      { ...zone, costMultiplier: 0.5 },
    ];
    for (const body of refusals) {
      const answer = await api.post('/admin/logistics-zones', body, adminToken);
      expect(answer.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_ERROR');
    }
    const bad = await api.get('/map/logistics-zones.geojson?bbox=nonsense');
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ features: [], metadata: { hasData: false } });
  });
});

describe('incidents overlay', () => {
  it('draws live reported incidents, blocking ones in red', async () => {
    const reported = await api.post('/incidents', { incidentType: 'closure', lat: 30.0655, lng: 31.3402, description: 'Road closed for works' }, userToken);
    expect(reported.status, JSON.stringify(reported.body)).toBe(201);
    const { body } = await api.get('/map/overlays/incidents?bbox=31.33,30.06,31.35,30.07');
    expect(body.metadata).toMatchObject({ layerType: 'incidents', hasData: true });
    const feature = body.features.find((candidate: any) => candidate.properties.id === reported.body.id);
    expect(feature.geometry).toEqual({ type: 'Point', coordinates: [31.3402, 30.0655] });
    expect(feature.properties).toMatchObject({ name: 'Road closed for works', layerType: 'incidents', incidentType: 'closure', blocking: true, color: '#c62828' });
    // elsewhere: none
    expect((await api.get('/map/overlays/incidents?bbox=35.9,31.9,36.0,32.0')).body.features).toEqual([]);
    const layers = (await api.get('/map/layers')).body.overlays;
    expect(layers.find((overlay: { key: string }) => overlay.key === 'incidents').hasData).toBe(true);
  });
});
