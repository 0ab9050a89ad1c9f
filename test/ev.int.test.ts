/**
 * EV charging (spec part 3 §2.7, §4.6), black-box. The real Jordan Open Charge
 * Map records (CC BY 4.0, ../shared/data/ev) and two test-only OCM-format
 * records on Nasr City roads (test/fixtures/ev, labelled as invented) are
 * imported with `npm run ingest -- --ev`; three invented
 * `amenity=charging_station` nodes are added to a temporary copy of the Nasr
 * City OSM extract, which is ingested into the pack the server runs on. One
 * OSM node and one OCM record are the same site (merged), one OSM node is
 * private (left out), one OCM record is offline (never planned on).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngestCli } from './support/admin-cli.js';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { OSM_FILES, SHARED_DATA } from './support/osm-data.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { sharedDeployment, usingRealServices } from './support/services.js';

const TEST_ONLY_OCM = fileURLToPath(new URL('./fixtures/ev/ocm-nasr-city-test-only.json', import.meta.url));
const JORDAN_OCM = `${SHARED_DATA}ev/openchargemap-JO`;

// invented charging stations (test-only), on roads of the route FROM → TO below
const TEST_ONLY_OSM_NODES = `
  <node id="99000000001" lat="30.0683" lon="31.3339" version="1"><tag k="amenity" v="charging_station"/><tag k="name" v="TEST FIXTURE OSM charger (not real)"/><tag k="network" v="EVolt Test"/><tag k="socket:type2_combo" v="2"/><tag k="socket:type2_combo:output" v="120 kW"/></node>
  <node id="99000000002" lat="30.0606" lon="31.3252" version="1"><tag k="amenity" v="charging_station"/><tag k="socket:type2" v="1"/><tag k="socket:type2:output" v="22 kW"/></node>
  <node id="99000000003" lat="30.0693" lon="31.3442" version="1"><tag k="amenity" v="charging_station"/><tag k="access" v="private"/><tag k="socket:type2_combo" v="1"/><tag k="socket:type2_combo:output" v="350 kW"/></node>
`;
const FROM = { lat: 30.0528, lng: 31.3251 };
const TO = { lat: 30.0753, lng: 31.3599 };
const NASR_CITY_BBOX = '31.30,30.04,31.38,30.10';
const AMMAN_BBOX = '35.5,31.6,36.2,32.2';

let server: ServerProcess;
let api: ApiClient;
let token: string;
const scratch = mkdtempSync(join(tmpdir(), 'ev-int-'));

beforeAll(async () => {
  const xml = gunzipSync(readFileSync(OSM_FILES.nasrCityXmlGz)).toString('utf8');
  const firstWay = xml.indexOf('<way ');
  writeFileSync(join(scratch, 'nasr-city-ev-test.osm'), xml.slice(0, firstWay) + TEST_ONLY_OSM_NODES + xml.slice(firstWay));
  const packed = await runIngestCli([join(scratch, 'nasr-city-ev-test.osm'), '--out', join(scratch, 'packs'), '--quiet'], {});
  expect(packed.code, packed.stderr).toBe(0);
  expect(packed.stdout).toMatch(/ev_charger\s+3\b/);

  const ocmFolder = join(scratch, 'ocm');
  cpSync(JORDAN_OCM, ocmFolder, { recursive: true });
  cpSync(TEST_ONLY_OCM, join(ocmFolder, 'test-only.json'));
  let databaseEnv: Record<string, string>;
  if (usingRealServices) databaseEnv = sharedDeployment('ev');
  else databaseEnv = { DATA_DIR: join(scratch, 'data') };
  const cliEnv = { DATA_DIR: databaseEnv.DATA_DIR ?? 'memory://', ...(databaseEnv.DATABASE_URL ? { DATABASE_URL: databaseEnv.DATABASE_URL, DATABASE_SCHEMA: databaseEnv.DATABASE_SCHEMA! } : {}) };
  const imported = await runIngestCli(['--ev', ocmFolder], cliEnv);
  expect(imported.code, imported.stderr).toBe(0);
  expect(imported.stdout).toContain('imported 7 Open Charge Map stations');
  server = await startServerProcess({ ...databaseEnv, DATA_PACK: join(scratch, 'packs', 'nasr-city-ev-test.svcpack') });
  api = apiClient(server.baseUrl);
  token = (await registerUser(api, 'driver')).token;
}, 180_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

describe('npm run ingest -- --ev', () => {
  it('refuses a malformed export naming the file, exit 1', async () => {
    const broken = join(scratch, 'broken.json');
    writeFileSync(broken, JSON.stringify({ ID: 5, AddressInfo: { Title: 'no position' } }));
    const result = await runIngestCli(['--ev', broken], { DATA_DIR: join(scratch, 'unused') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${broken}: POI 5 has no valid AddressInfo.Latitude/Longitude`);
  });
});

const ids = (body: { stations: { id: string }[] }): string[] => body.stations.map((station) => station.id);

describe('GET /ev/stations', () => {
  it('lists the stations of a bbox strongest first, the OCM and OSM records of one site merged', async () => {
    const { status, body } = await api.get(`/ev/stations?bbox=${NASR_CITY_BBOX}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ provider: 'svc-ev', count: 3, total: 3, minKw: null, connector: null, availableOnly: false, network: null });
    expect(body.attribution).toContain('OpenStreetMap');
    expect(ids(body)).toEqual(['ocm:990000002', 'osm:node/99000000001', 'ocm:990000001']);
    const [offline, osm, merged] = body.stations;
    expect(offline).toMatchObject({ status: 'offline', maxKw: 350, connectors: [{ type: 'GB/T', kw: 350, count: 1 }] });
    expect(osm).toMatchObject({ name: 'TEST FIXTURE OSM charger (not real)', network: 'EVolt Test', status: 'operational', lat: 30.0683, lng: 31.3339, maxKw: 120, connectors: [{ type: 'CCS', kw: 120, count: 2 }] });
    // OCM connectors and pricing, OSM position
    expect(merged).toMatchObject({ network: null, status: 'operational', lat: 30.0606, lng: 31.3252, maxKw: 60, pricing: 'TEST 0.10/kWh', sources: ['ocm:990000001', 'osm:node/99000000002'] });
    expect(merged.connectors).toEqual([{ type: 'CCS', kw: 60, count: 2 }]);
  });

  it('shows the real Jordan OCM stations with their fields of §2.7', async () => {
    const { body } = await api.get(`/ev/stations?bbox=${AMMAN_BBOX}`);
    expect(ids(body)).toEqual(['ocm:462346', 'ocm:188265', 'ocm:188402', 'ocm:85356', 'ocm:313364']);
    expect(body.stations[3]).toMatchObject({ name: 'Dead Sea Marriott Resort', network: 'Tesla Motors (Worldwide)', maxKw: 22, status: 'operational', pricing: null, address: 'Dead Sea Road, Sowayma, 6010' });
    expect(body.stations[4].maxKw).toBeNull();
  });

  it('filters by minKw, connector, available and network, and echoes them', async () => {
    expect(ids((await api.get(`/ev/stations?bbox=${NASR_CITY_BBOX}&minKw=100`)).body)).toEqual(['ocm:990000002', 'osm:node/99000000001']);
    const ccs = (await api.get(`/ev/stations?bbox=${NASR_CITY_BBOX}&connector=CCS`)).body;
    expect(ids(ccs)).toEqual(['osm:node/99000000001', 'ocm:990000001']);
    expect(ccs.connector).toBe('CCS');
    expect(ids((await api.get(`/ev/stations?bbox=${NASR_CITY_BBOX}&connector=GB/T`)).body)).toEqual(['ocm:990000002']);
    const available = (await api.get(`/ev/stations?bbox=${NASR_CITY_BBOX}&available=1`)).body;
    expect(ids(available)).toEqual(['osm:node/99000000001', 'ocm:990000001']);
    expect(available.availableOnly).toBe(true);
    const network = (await api.get(`/ev/stations?bbox=${NASR_CITY_BBOX}&network=${encodeURIComponent('EVolt Test')}&minKw=50`)).body;
    expect(network).toMatchObject({ count: 1, total: 1, network: 'EVolt Test', minKw: 50 });
    expect(ids((await api.get(`/ev/stations?bbox=${NASR_CITY_BBOX}&network=Unknown`)).body)).toEqual(['ocm:990000002', 'ocm:990000001']);
  });

  it('count is what the limit lets through, total what matched', async () => {
    const { body } = await api.get(`/ev/stations?bbox=${NASR_CITY_BBOX}&limit=1`);
    expect(body).toMatchObject({ count: 1, total: 3 });
    expect(ids(body)).toEqual(['ocm:990000002']);
    expect((await api.get(`/ev/stations?bbox=${NASR_CITY_BBOX}&limit=100000`)).body.count).toBe(3);
  });

  it('answers 400 for a missing or malformed bbox and bad filters', async () => {
    for (const query of ['', 'bbox=1,2,3', 'bbox=a,b,c,d', 'bbox=31.4,30.0,31.3,30.1', `bbox=${NASR_CITY_BBOX}&connector=Schuko`, `bbox=${NASR_CITY_BBOX}&minKw=lots`]) {
      const { status, body } = await api.get(`/ev/stations?${query}`);
      expect(status, query).toBe(400);
      expect(body.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('GET /ev/networks', () => {
  it('counts stations per network, Unknown for none', async () => {
    const { status, body } = await api.get('/ev/networks');
    expect(status).toBe(200);
    expect(body).toMatchObject({ provider: 'svc-ev', count: 3 });
    expect(body.networks).toEqual([
      { network: 'Unknown', count: 6, maxKw: 350 },
      { network: 'EVolt Test', count: 1, maxKw: 120 },
      { network: 'Tesla Motors (Worldwide)', count: 1, maxKw: 22 },
    ]);
  });
});

describe('POST /ev/plan', () => {
  const plan = (body: Record<string, unknown>) => api.post('/ev/plan', { from: FROM, to: TO, ...body }, token);

  it('a trip within the charge: feasible, no stops, on the routed distance', async () => {
    const { status, body } = await plan({ rangeKm: 20 });
    expect(status).toBe(201);
    expect(body).toMatchObject({ provider: 'svc-ev', feasible: true, chargingNeeded: false, stopCount: 0, stops: [] });
    // 4.2 km as the crow flies; the road corridor is longer
    expect(body.totalKm).toBeGreaterThan(5.5);
    expect(body.totalKm).toBeLessThan(9);
    expect(body.reason).toBeUndefined();
  });

  it('a trip that needs a stop charges at the strongest operational station in reach', async () => {
    // 80 % of 7 km less the 15 % reserve: 4.55 km, short of the ~6.2 km route; the offline 350 kW site is skipped
    const { body } = await plan({ rangeKm: 7 });
    expect(body).toMatchObject({ feasible: true, chargingNeeded: true, stopCount: 1 });
    expect(body.stops[0].station.id).toBe('osm:node/99000000001');
    expect(body.stops[0].atKm).toBeGreaterThan(2.5);
    expect(body.stops[0].atKm).toBeLessThan(3.5);
    expect(body.stops[0].detourKm).toBeLessThan(1);
    expect(body.arrivalPercent).toBeGreaterThanOrEqual(15);
  });

  it('no charger in reach: no_chargers_in_corridor with the gap', async () => {
    const { body } = await plan({ rangeKm: 1 });
    expect(body).toMatchObject({ feasible: false, chargingNeeded: true, stopCount: 0, stops: [], reason: 'no_chargers_in_corridor' });
    expect(body.gap.atKm).toBeCloseTo(0.65, 0);
    expect(Math.abs(body.gap.lat - FROM.lat)).toBeLessThan(0.02);
  });

  it('a gap after earlier stops keeps them', async () => {
    const { body } = await plan({ rangeKm: 4 });
    expect(body).toMatchObject({ feasible: false, reason: 'no_chargers_in_corridor', stopCount: 2 });
    expect(body.stops.map((stop: { station: { id: string } }) => stop.station.id)).toEqual(['ocm:990000001', 'osm:node/99000000001']);
    expect(body.gap.atKm).toBeGreaterThan(body.stops[1].atKm);
    expect(body.gap.atKm).toBeLessThan(body.totalKm);
  });

  it('answers 400 for missing from/to and a non-positive rangeKm, 401 without a key', async () => {
    expect((await api.post('/ev/plan', { to: TO, rangeKm: 10 }, token)).status).toBe(400);
    expect((await api.post('/ev/plan', { from: FROM, rangeKm: 10 }, token)).status).toBe(400);
    expect((await plan({ rangeKm: 0 })).status).toBe(400);
    expect((await plan({ rangeKm: -5 })).status).toBe(400);
    expect((await plan({})).status).toBe(400);
    expect((await plan({ rangeKm: 10, reservePercent: 50, chargeToPercent: 40 })).status).toBe(400);
    expect((await api.post('/ev/plan', { from: FROM, to: TO, rangeKm: 10 })).status).toBe(401);
  });
});
