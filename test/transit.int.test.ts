/**
 * Transit and shared micromobility (spec part 2 §2.8, §4.6), black-box: the
 * Cairo metro feed (CC BY-NC, tests only) imported with `npm run ingest --
 * --gtfs` (twice: the second replaces the first), a malformed feed refused
 * with file and line, the four endpoints on a started server, a small GBFS 2.x
 * feed served by this test (re-read on its ttl), and a server with no feed
 * answering empty collections.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import polyline from '@mapbox/polyline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { OSM_FILES } from './support/osm-data.js';
import { ingestToFile } from '../src/ingest/ingest.js';
import { sharedDeployment, usingRealServices } from './support/services.js';

const INGEST = fileURLToPath(new URL('../dist/cli/ingest.js', import.meta.url));
const FEED = fileURLToPath(new URL('../../shared/data/gtfs/cairo-metro', import.meta.url));
const SADAT = { lat: 30.043924, lng: 31.23566 };
const HELWAN = { lat: 29.848824, lng: 31.334252 };

function runIngest(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [INGEST, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// a GBFS 2.3 feed near Sadat: one docked station, one free e-bike, one free scooter
let bikesAtStation = 7;
const gbfsDocuments = (base: string): Record<string, unknown> => ({
  'gbfs.json': { ttl: 15, version: '2.3', data: { en: { feeds: ['station_information', 'station_status', 'free_bike_status', 'vehicle_types'].map((name) => ({ name, url: `${base}/${name}.json` })) } } },
  'vehicle_types.json': { ttl: 15, data: { vehicle_types: [ { vehicle_type_id: 'b', form_factor: 'bicycle', propulsion_type: 'human' }, { vehicle_type_id: 'e', form_factor: 'bicycle', propulsion_type: 'electric_assist' }, { vehicle_type_id: 's', form_factor: 'scooter', propulsion_type: 'electric' } ] } },
  'station_information.json': { ttl: 15, data: { stations: [{ station_id: 'st1', name: 'Tahrir Square', lat: 30.0444, lon: 31.2357, capacity: 20 }] } },
  'station_status.json': {
    ttl: 15,
    data: { stations: [{ station_id: 'st1', num_bikes_available: bikesAtStation, num_docks_available: 20 - bikesAtStation, is_installed: true, is_renting: true, is_returning: true, vehicle_types_available: [{ vehicle_type_id: 'b', count: bikesAtStation }] }] },
  },
  'free_bike_status.json': {
    ttl: 15,
    data: {
      bikes: [
        { bike_id: 'e1', lat: 30.0452, lon: 31.2361, is_reserved: false, is_disabled: false, vehicle_type_id: 'e' },
        { bike_id: 's1', lat: 30.0475, lon: 31.2380, is_reserved: false, is_disabled: false, vehicle_type_id: 's' },
        { bike_id: 's2', lat: 30.0476, lon: 31.2381, is_reserved: true, is_disabled: false, vehicle_type_id: 's' },
      ],
    },
  },
});

let gbfsServer: Server;
let server: ServerProcess;
let empty: ServerProcess;
let monaco: ServerProcess;
let api: ApiClient;
let token: string;
let dataDir: string | undefined;
const scratch = mkdtempSync(join(tmpdir(), 'transit-int-'));

beforeAll(async () => {
  gbfsServer = createServer((request, response) => {
    const base = `http://127.0.0.1:${(gbfsServer.address() as AddressInfo).port}`;
    const document = gbfsDocuments(base)[(request.url ?? '').slice(1)];
    response.writeHead(document ? 200 : 404, { 'content-type': 'application/json' });
    response.end(document ? JSON.stringify(document) : '{}');
  });
  await new Promise<void>((resolve) => gbfsServer.listen(0, '127.0.0.1', resolve));
  const gbfsPort = (gbfsServer.address() as AddressInfo).port;
  const gbfsEnv = { GBFS_FEEDS: `http://127.0.0.1:${gbfsPort}/gbfs.json`, GBFS_ALLOWED_HOSTS: `127.0.0.1:${gbfsPort}` };
  let databaseEnv: Record<string, string>;
  if (usingRealServices) {
    databaseEnv = sharedDeployment('transit');
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'transit-data-'));
    databaseEnv = { DATA_DIR: dataDir };
  }
  const cliEnv = { DATA_DIR: databaseEnv.DATA_DIR ?? 'memory://', ...(databaseEnv.DATABASE_URL ? { DATABASE_URL: databaseEnv.DATABASE_URL, DATABASE_SCHEMA: databaseEnv.DATABASE_SCHEMA! } : {}) };
  for (let run = 0; run < 2; run++) {
    const imported = await runIngest(['--gtfs', FEED, '--feed-name', 'cairo-metro'], cliEnv);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('189 stops, 3 routes, 6 trips, 128 stopTimes');
  }
  server = await startServerProcess({ ...databaseEnv, ...gbfsEnv });
  empty = await startServerProcess({ DATA_DIR: 'memory://' });

  api = apiClient(server.baseUrl);
  token = (await registerUser(api, 'rider')).token;
}, 180_000);

afterAll(async () => {
  await Promise.all([server?.stop(), empty?.stop(), monaco?.stop()].map((stop) => stop?.catch(() => undefined)));
  gbfsServer?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('GTFS import', () => {
  it('refuses a malformed feed naming file and line, and keeps the imported one', async () => {
    const broken = join(scratch, 'broken');
    cpSync(FEED, broken, { recursive: true });
    const lines = readFileSync(join(broken, 'routes.txt'), 'utf8').split('\n');
    lines[2] = lines[2]!.replace(',1,', ',metro,');
    writeFileSync(join(broken, 'routes.txt'), lines.join('\n'));
    const result = await runIngest(['--gtfs', broken, '--feed-name', 'broken', '--quiet'], { DATA_DIR: join(scratch, 'db') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('routes.txt line 3: route_type "metro"');
  });

  it('a second import replaced the first: each route once', async () => {
    const routes = await api.get('/transit/routes');
    expect(routes.status).toBe(200);
    expect(routes.body.routes.map((route: { routeId: string }) => route.routeId).sort()).toEqual(['L1', 'L2', 'L3']);
  });
});

describe('/transit/stops', () => {
  it('lists stations nearest first with distanceM and routeIds', async () => {
    const { status, body } = await api.get(`/transit/stops?lat=${SADAT.lat}&lng=${SADAT.lng}&radius=1500`);
    expect(status).toBe(200);
    expect(body.provider).toBe('svc-transit');
    expect(body.count).toBe(body.stops.length);
    expect(body.stops[0]).toEqual({
      id: 'cairo-metro:86_SAD_METRO',
      stopId: '86_SAD_METRO',
      name: 'Sadat',
      nameAr: null,
      nameEn: null,
      lat: SADAT.lat,
      lng: SADAT.lng,
      distanceM: 0,
      routeIds: ['L1', 'L2'],
      source: 'gtfs',
      attribution: null,
    });
    const distances = body.stops.map((stop: { distanceM: number }) => stop.distanceM);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(Math.max(...distances)).toBeLessThanOrEqual(1500);
  });

  it('limit: default 20, clamped to 1..100, non-numeric → 20; radius capped at 5000', async () => {
    const wide = `/transit/stops?lat=${SADAT.lat}&lng=${SADAT.lng}&radius=100000`;
    const all = (await api.get(`${wide}&limit=100`)).body;
    expect(all.count).toBeGreaterThan(20);
    expect(Math.max(...all.stops.map((stop: { distanceM: number }) => stop.distanceM))).toBeLessThanOrEqual(5000);
    expect((await api.get(wide)).body.count).toBe(20);
    expect((await api.get(`${wide}&limit=abc`)).body.count).toBe(20);
    expect((await api.get(`${wide}&limit=0`)).body.count).toBe(1);
    expect((await api.get(`${wide}&limit=1000`)).body.count).toBe(all.count);
  });

  it('answers an empty collection out of coverage and 400 without a position', async () => {
    expect((await api.get('/transit/stops?lat=31.95&lng=35.91')).body).toEqual({ provider: 'svc-transit', count: 0, stops: [] });
    const missing = await api.get('/transit/stops?lat=30');
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('/transit/routes', () => {
  it('filters by type code and bbox, with typeLabel and a precision-5 shape', async () => {
    const { body } = await api.get('/transit/routes?type=1');
    expect(body).toMatchObject({ provider: 'svc-transit', count: 3, type: 1, bbox: null });
    for (const route of body.routes) {
      expect(route).toMatchObject({ type: 'metro', typeLabel: 'Metro', routeType: 1 });
      const points = polyline.decode(route.shape, 5);
      expect(points.length).toBeGreaterThan(10);
      for (const [lat, lng] of points) {
        expect(lat).toBeGreaterThan(29.8);
        expect(lat).toBeLessThan(30.2);
        expect(lng).toBeGreaterThan(31.1);
        expect(lng).toBeLessThan(31.4);
      }
    }
    expect((await api.get('/transit/routes?type=3')).body.count).toBe(0);
    const helwan = (await api.get('/transit/routes?bbox=31.32,29.84,31.34,29.86')).body;
    expect(helwan).toMatchObject({ count: 1, bbox: [31.32, 29.84, 31.34, 29.86] });
    expect(helwan.routes[0].routeId).toBe('L1');
    expect((await api.get('/transit/routes?type=metro')).status).toBe(400);
    expect((await api.get('/transit/routes?bbox=1,2,3')).status).toBe(400);
  });
});

describe('POST /transit/plan', () => {
  it('plans walk–transit–walk on one line with the timetable times', async () => {
    const { status, body } = await api.post('/transit/plan', { from: HELWAN, to: SADAT, departAt: '2016-03-01T08:00:00+02:00' }, token);
    // POST answers 201 (spec part 1, Conventions)
    expect(status).toBe(201);
    expect(body).toMatchObject({ provider: 'svc-transit', found: true, transfers: 0 });
    expect(body.legs.map((leg: { mode: string }) => leg.mode)).toEqual(['walk', 'transit', 'walk']);
    const ride = body.legs[1];
    expect(ride).toMatchObject({ route: { routeId: 'L1', shortName: 'M1' }, board: { stopId: '10_HLW_METRO_N', name: 'Helwan' }, alight: { stopId: '86_SAD_METRO_N', name: 'Sadat' } });
    // stop_times.txt: Helwan departs 6:00:15, Sadat arrives 6:43:20
    expect(ride.durationS).toBe(43 * 60 + 5);
  });

  it('changes lines with a walk between platforms', async () => {
    const { body } = await api.post('/transit/plan', { from: HELWAN, to: { lat: 29.9810333, lng: 31.2123084 }, departAt: '2016-03-01T08:00:00+02:00' }, token);
    expect(body.found).toBe(true);
    expect(body.legs.map((leg: { mode: string }) => leg.mode)).toEqual(['walk', 'transit', 'walk', 'transit', 'walk']);
    expect(body.legs[3].route.routeId).toBe('L2');
  });

  it('answers found:false out of coverage, and 400 with messages for bad from/to', async () => {
    const far = await api.post('/transit/plan', { from: { lat: 31.95, lng: 35.91 }, to: { lat: 31.97, lng: 35.93 } }, token);
    expect(far.status).toBe(201);
    expect(far.body).toMatchObject({ provider: 'svc-transit', found: false, reason: 'out_of_coverage', nearestOriginStops: [], nearestDestStops: [] });
    expect(far.body.walkAlternative.distanceM).toBeGreaterThan(0);
    for (const body of [{}, { from: HELWAN }, { from: { lat: 91, lng: 0 }, to: SADAT }, { from: 'here', to: SADAT }, { from: HELWAN, to: SADAT, departAt: 'tomorrow' }]) {
      const refused = await api.post('/transit/plan', body, token);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
      expect(Array.isArray(refused.body.message)).toBe(true);
    }
  });

  it('needs a key or a bearer token', async () => {
    expect((await api.post('/transit/plan', { from: HELWAN, to: SADAT })).status).toBe(401);
  });
});

describe('/transit/gbfs', () => {
  it('lists the docked station and free vehicles nearest first, with filters', async () => {
    const near = `/transit/gbfs?lat=30.0444&lng=31.2357&radius=1000`;
    const { status, body } = await api.get(near);
    expect(status).toBe(200);
    expect(body).toMatchObject({ provider: 'svc-micromobility', filters: { vehicleType: null, minBikes: null, minDocks: null }, count: 3 });
    expect(body.stations[0]).toMatchObject({ name: 'Tahrir Square', vehicleType: 'bike', bikesAvailable: bikesAtStation, docksAvailable: 20 - bikesAtStation, distanceM: 0 });
    expect(body.stations.slice(1).map((s: { vehicleType: string; docksAvailable: number }) => [s.vehicleType, s.docksAvailable])).toEqual([
      ['ebike', 0],
      ['scooter', 0],
    ]);
    const scooters = (await api.get(`${near}&type=scooter`)).body;
    expect(scooters).toMatchObject({ filters: { vehicleType: 'scooter' }, count: 1 });
    expect((await api.get(`${near}&minDocks=1`)).body.count).toBe(1);
    expect((await api.get(`${near}&minBikes=2`)).body.count).toBe(1);
    expect((await api.get(`/transit/gbfs?lat=30.0444&lng=31.2357&radius=50`)).body.count).toBe(1);
    expect((await api.get(`${near}&type=car`)).status).toBe(400);
  });

  it('re-reads the feed on its ttl', async () => {
    bikesAtStation = 2;
    const deadline = Date.now() + 30_000;
    let seen = 7;
    while (Date.now() < deadline && seen !== 2) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      seen = (await api.get('/transit/gbfs?lat=30.0444&lng=31.2357&radius=10')).body.stations[0].bikesAvailable;
    }
    expect(seen).toBe(2);
  }, 40_000);
});

describe('a server with no feed', () => {
  it('answers empty collections, never an error', async () => {
    const bare = apiClient(empty.baseUrl);
    expect((await bare.get(`/transit/stops?lat=${SADAT.lat}&lng=${SADAT.lng}`)).body).toEqual({ provider: 'svc-transit', count: 0, stops: [] });
    expect((await bare.get('/transit/routes')).body).toEqual({ provider: 'svc-transit', count: 0, routes: [], type: null, bbox: null });
    expect((await bare.get('/transit/gbfs?lat=30&lng=31')).body).toMatchObject({ count: 0, stations: [] });
    const bareToken = (await registerUser(bare, 'rider')).token;
    expect((await bare.post('/transit/plan', { from: HELWAN, to: SADAT }, bareToken)).body).toMatchObject({ found: false, reason: 'out_of_coverage' });
  });
});

describe('OSM stops and lines of the map pack (Monaco)', () => {
  beforeAll(async () => {
    const monacoPack = join(scratch, 'monaco.svcpack');
    await ingestToFile({ input: OSM_FILES.monaco }, monacoPack);
    monaco = await startServerProcess({ DATA_DIR: 'memory://', DATA_PACK: monacoPack });
  }, 240_000);
  // Square Beaumarchais, node 280490389 (highway=bus_stop), served by lines 1, 2 and 6
  const BEAUMARCHAIS = { lat: 43.7395, lng: 7.4253 };

  it('serves the pack\'s stops nearest first with the lines calling at them, ids that cannot be a feed\'s', async () => {
    const client = apiClient(monaco.baseUrl);
    const { status, body } = await client.get(`/transit/stops?lat=${BEAUMARCHAIS.lat}&lng=${BEAUMARCHAIS.lng}&radius=400&limit=50`);
    expect(status).toBe(200);
    expect(body.count).toBeGreaterThan(3);
    const distances = body.stops.map((stop: { distanceM: number }) => stop.distanceM);
    expect(distances).toEqual([...distances].sort((a: number, b: number) => a - b));
    for (const stop of body.stops) {
      expect(stop).toMatchObject({ source: 'osm', attribution: '© OpenStreetMap contributors, ODbL' });
      expect(stop.id).toMatch(/^osm-(node|way|relation)-\d+$/);
      expect(stop.id).not.toContain(':');
    }
    const square = body.stops.find((stop: { id: string }) => stop.id === 'osm-node-280490389');
    expect(square).toMatchObject({ stopId: 'node/280490389', name: 'Square Beaumarchais' });
    expect(square.routeIds).toEqual(expect.arrayContaining(['relation/2207100', 'relation/2211941']));
  });

  it('serves the route relations by type (route=bus → 3, route=train → 2) with shapes and ordered stops', async () => {
    const client = apiClient(monaco.baseUrl);
    const buses = (await client.get('/transit/routes?type=3')).body;
    expect(buses.count).toBe(10);
    const bus1 = buses.routes.find((route: { id: string }) => route.id === 'osm-route-2207095');
    expect(bus1).toMatchObject({ routeId: 'relation/2207095', shortName: '1', longName: 'Bus 1: Monaco-Ville => Saint-Roman', type: 'bus', typeLabel: 'Bus', routeType: 3, color: null, source: 'osm' });
    const shape = polyline.decode(bus1.shape, 5);
    expect(shape.length).toBeGreaterThan(100);
    for (const [lat, lng] of shape) expect(lat > 43.7 && lat < 43.8 && lng > 7.38 && lng < 7.46).toBe(true);
    expect(bus1.stopIds).toHaveLength(11);
    const trains = (await client.get('/transit/routes?type=2')).body;
    expect(trains.routes.map((route: { shortName: string }) => route.shortName).sort()).toEqual(['EN 17/18', 'TER 4', 'TER 5', 'TER 6', 'TGV 512', 'Thello']);
    expect(trains.routes.find((route: { shortName: string }) => route.shortName === 'TER 4')).toMatchObject({ color: '#F2B600', typeLabel: 'Rail' });
    // a box away from Monaco keeps no line with geometry
    expect((await client.get('/transit/routes?bbox=31,30,31.1,30.1')).body.count).toBe(0);
  });

  it('does not plan on OSM lines: they have no timetable, and none is made up', async () => {
    const client = apiClient(monaco.baseUrl);
    const rider = (await registerUser(client, 'rider')).token;
    // two stops of Bus 1, about 1.5 km apart
    const { status, body } = await client.post('/transit/plan', { from: BEAUMARCHAIS, to: { lat: 43.7306, lng: 7.4201 } }, rider);
    expect(status).toBe(201);
    expect(body).toMatchObject({ found: false, reason: 'out_of_coverage', nearestOriginStops: [] });
  });

  it('draws the lines and stops on the transit overlay with the OSM attribution', async () => {
    const client = apiClient(monaco.baseUrl);
    const { body } = await client.get('/map/overlays/transit?bbox=7.40,43.72,7.44,43.76&limit=5000');
    expect(body.metadata).toMatchObject({ hasData: true, attribution: '© OpenStreetMap contributors, ODbL' });
    const line = body.features.find((feature: { properties: { id: string } }) => feature.properties.id === 'osm-route-2207095');
    expect(line.properties).toMatchObject({ kind: 'line', mode: 'bus', routeRef: '1', network: 'osm', source: 'osm' });
    expect(['LineString', 'MultiLineString']).toContain(line.geometry.type);
    const stop = body.features.find((feature: { properties: { id: string } }) => feature.properties.id === 'osm-node-280490389');
    expect(stop.properties).toMatchObject({ kind: 'stop', mode: 'bus', network: 'osm' });
    expect(stop.properties.routeRefs.split(',')).toContain('1');
  });
});
