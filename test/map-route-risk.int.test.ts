/**
 * POST /map/route-risk and the planner's logistics zones (issue #29; docs/map-data.md, Route risk), black-box:
 * a server over the default Nasr City pack with WEATHER_URL pointing at a fake Open-Meteo server this test
 * starts (heavy rain every hour) and an operator. A route is scored routed and as its polyline; a logistics zone
 * created through the admin API and an incident reported through the incidents API change the score and its
 * reasons; bad input is a 400; /routing/plan goes around an avoid zone and prices a penalize zone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import polyline from '@mapbox/polyline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from './support/admin-cli.js';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { sharedDeployment, usingRealServices } from './support/services.js';

const ORIGIN = { lat: 30.0626, lon: 31.3219 };
const DESTINATION = { lat: 30.07, lon: 31.34 };
const FACTORS = ['traffic', 'weather', 'incidents', 'logistics_zones', 'enforcement'];

let server: ServerProcess;
let api: ApiClient;
let adminToken: string;
let userToken: string;
let dataDir: string | undefined;
let weatherServer: Server;
/** Calls the fake provider has answered: the process's one adapter caches each 0.1° cell. */
let weatherCalls = 0;

/** Heavy rain (6 mm/h, WMO 63) every hour from 2 h ago for 4 days, as Open-Meteo answers. */
function fakeForecast(): unknown {
  const start = Math.floor(Date.now() / 3_600_000) * 3600 - 7200;
  const time = Array.from({ length: 98 }, (_, i) => start + i * 3600);
  return { latitude: 30.1, longitude: 31.3, hourly: { time, weather_code: time.map(() => 63), precipitation: time.map(() => 6), wind_gusts_10m: time.map(() => 20), visibility: time.map(() => 20_000) } };
}

beforeAll(async () => {
  weatherServer = createServer((_request, response) => {
    weatherCalls++;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(fakeForecast()));
  });
  await new Promise<void>((resolve) => weatherServer.listen(0, '127.0.0.1', resolve));
  const port = (weatherServer.address() as AddressInfo).port;
  const weather = { WEATHER_URL: `http://127.0.0.1:${port}/v1/forecast`, WEATHER_ALLOWED_HOSTS: `127.0.0.1:${port}` };
  let env: Record<string, string>;
  let cliEnv: Record<string, string>;
  if (usingRealServices) {
    env = { ...sharedDeployment('route_risk'), ...weather };
    cliEnv = { DATABASE_URL: env.DATABASE_URL!, DATABASE_SCHEMA: env.DATABASE_SCHEMA! };
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'route-risk-'));
    env = { DATA_DIR: dataDir, ...weather };
    cliEnv = { DATA_DIR: dataDir };
  }
  // the embedded database belongs to one process: register, stop, grant the role, start again
  const first = await startServerProcess(env);
  const admin = await registerUser(apiClient(first.baseUrl), 'risk-operator');
  if (!usingRealServices) await first.stop();
  const granted = await runAdminCli(['grant-role', admin.email, 'admin'], cliEnv);
  expect(granted.code, granted.stderr).toBe(0);
  server = usingRealServices ? first : await startServerProcess(env);
  api = apiClient(server.baseUrl);
  adminToken = admin.token;
  userToken = (await registerUser(api, 'risk-user')).token;
}, 240_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  weatherServer?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const square = (lng: number, lat: number, half: number) => ({
  type: 'Polygon',
  coordinates: [[[lng - half, lat - half], [lng + half, lat - half], [lng + half, lat + half], [lng - half, lat + half], [lng - half, lat - half]]],
});
const factorOf = (holder: { factors: any[] }, factor: string) => holder.factors.find((entry: any) => entry.factor === factor);
/** Whether any point of a trip's legs lies inside the square. */
function crosses(trip: any, zone: ReturnType<typeof square>): boolean {
  const ring = zone.coordinates[0]! as [number, number][];
  const [west, south] = ring[0]!;
  const [east, north] = ring[2]!;
  return trip.legs.some((leg: any) => polyline.decode(leg.shape, 6).some(([lat, lng]) => lng >= west && lng <= east && lat >= south && lat <= north));
}

let routed: any;

describe('POST /map/route-risk', () => {
  it('scores a routed route per segment with every factor, weather from the provider, nothing invented', async () => {
    const response = await api.post('/map/route-risk', { origin: ORIGIN, destination: DESTINATION, segmentMeters: 500 }, userToken);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    routed = response.body;
    expect(routed.route).toMatchObject({ source: 'routed', costing: 'auto', durationSource: 'engine', segmentMeters: 500 });
    expect(routed.route.distanceMeters).toBeGreaterThan(1_000);
    expect(routed.segments.length).toBe(Math.ceil(routed.route.distanceMeters / 500));
    expect(routed.factors.map((factor: any) => factor.factor)).toEqual(FACTORS);
    // the fake provider's heavy rain, with its numbers as the reason
    expect(factorOf(routed, 'weather')).toMatchObject({ available: true, value: 0.7 });
    expect(factorOf(routed, 'weather').reasons[0]).toMatch(/heavy rain forecast .*6 mm\/h/);
    // nothing learned here, no enforcement assets in this pack: unavailable, with why
    expect(factorOf(routed, 'traffic')).toMatchObject({ available: false, value: 0 });
    expect(factorOf(routed, 'traffic').reasons[0]).toMatch(/no learned traffic profile/);
    expect(factorOf(routed, 'enforcement')).toMatchObject({ available: false, value: 0 });
    expect(factorOf(routed, 'incidents')).toMatchObject({ available: true, value: 0 });
    for (const segment of routed.segments) {
      expect(segment.factors.map((factor: any) => factor.factor)).toEqual(FACTORS);
      for (const factor of segment.factors) expect(factor.reasons.length).toBeGreaterThan(0);
      // rain alone: 100 × 0.6 × 0.7
      expect(segment.score).toBe(Math.round(100 * routed.formula.weights.weather * 0.7));
      expect(segment.level).toBe('moderate');
    }
    expect(routed.score).toBe(routed.segments[0].score);
    expect(routed.formula.segment).toMatch(/1 − Π/);
  });

  it('shares the weather adapter with the weather layer: the origin’s cell is not fetched twice', async () => {
    const callsAfterRisk = weatherCalls;
    expect(callsAfterRisk).toBeGreaterThan(0);
    const point = await api.get(`/map/weather/point?lat=${ORIGIN.lat}&lng=${ORIGIN.lon}`, userToken);
    expect(point.status).toBe(200);
    expect(point.body).toMatchObject({ hasData: true, cell: { lat: 30.1, lng: 31.3 } });
    expect(weatherCalls).toBe(callsAfterRisk);
  });

  it('scores the same route given as its polyline and as GeoJSON alike', async () => {
    const byPolyline = await api.post('/map/route-risk', { polyline: routed.route.shape, segmentMeters: 500 }, userToken);
    expect(byPolyline.status).toBe(200);
    expect(byPolyline.body.route).toMatchObject({ source: 'polyline', costing: null, durationSeconds: null });
    expect(Math.abs(byPolyline.body.route.distanceMeters - routed.route.distanceMeters)).toBeLessThanOrEqual(2);
    expect(byPolyline.body.score).toBe(routed.score);
    const coordinates = polyline.decode(routed.route.shape, 6).map(([lat, lng]) => [lng, lat]);
    const byGeometry = await api.post('/map/route-risk', { geometry: { type: 'LineString', coordinates }, segmentMeters: 500 }, userToken);
    expect(byGeometry.status).toBe(200);
    expect(byGeometry.body.segments.length).toBe(byPolyline.body.segments.length);
  });

  it('reads a logistics zone an operator creates on the route, and an incident reported on it', async () => {
    const body = { polyline: routed.route.shape, segmentMeters: 500 };
    const before = (await api.post('/map/route-risk', body, userToken)).body;
    const middle = before.segments[Math.floor(before.segments.length / 2)];
    const zone = await api.post('/admin/logistics-zones', { name: 'Risk test hazard zone', zoneType: 'hazard', riskScore: 0.9, costMultiplier: 1.5, routingPolicy: 'penalize', geometry: square(middle.from[0], middle.from[1], 0.0008) }, adminToken);
    expect(zone.status).toBe(201);
    const withZone = (await api.post('/map/route-risk', body, userToken)).body;
    const zoned = withZone.segments.filter((segment: any) => factorOf(segment, 'logistics_zones').value > 0);
    expect(zoned.length).toBeGreaterThan(0);
    for (const segment of zoned) {
      expect(factorOf(segment, 'logistics_zones')).toMatchObject({ available: true, value: 0.9, weight: withZone.formula.weights.logistics_zones });
      expect(factorOf(segment, 'logistics_zones').reasons[0]).toMatch(/m inside hazard zone "Risk test hazard zone" \(risk 0\.9, cost ×1\.5, policy penalize/);
      expect(segment.score).toBeGreaterThan(middle.score);
    }
    expect(withZone.score).toBeGreaterThan(before.score);
    expect(factorOf(withZone, 'logistics_zones').reasons.join(' ')).toContain(zone.body.id);

    const last = withZone.segments.at(-1);
    const point = last.to;
    const reported = await api.post('/incidents', { incidentType: 'closure', lat: point[1], lng: point[0], description: 'route risk test closure' }, userToken);
    expect(reported.status).toBe(201);
    const withIncident = (await api.post('/map/route-risk', body, userToken)).body;
    // the planner's tests below start without it
    await api.patch(`/admin/logistics-zones/${zone.body.id}`, { active: false }, adminToken);
    const closed = withIncident.segments.at(-1);
    expect(factorOf(closed, 'incidents').value).toBeGreaterThan(0);
    expect(factorOf(closed, 'incidents').reasons.join(' ')).toMatch(new RegExp(`closure reported \\d+ m from the route .*${reported.body.id}`));
    expect(closed.score).toBeGreaterThan(last.score);
    // the route's score moves with the mean (the worst segment may still be the zone's)
    expect(withIncident.score).toBeGreaterThanOrEqual(withZone.score);
  });

  it('says the weather is unknown beyond the forecast instead of assuming it', async () => {
    const later = (await api.post('/map/route-risk', { polyline: routed.route.shape, departAt: new Date(Date.now() + 10 * 86_400_000).toISOString() }, userToken)).body;
    expect(factorOf(later, 'weather')).toMatchObject({ available: false, value: 0 });
    expect(factorOf(later, 'weather').reasons[0]).toMatch(/outside the forecast/);
  });

  it('answers 400 for a bad route, too many points, an unknown costing, and no route', async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ polyline: 'not a polyline!' }, 'VALIDATION_ERROR', /not an encoded polyline/],
      [{ polyline: routed.route.shape, origin: ORIGIN, destination: DESTINATION }, 'VALIDATION_ERROR', /exactly one route/],
      [{ origin: ORIGIN }, 'VALIDATION_ERROR', /origin and destination go together/],
      [{ geometry: { type: 'LineString', coordinates: [[31.3, 30], [231.3, 30]] } }, 'VALIDATION_ERROR', /outside ±180/],
      [{ geometry: { type: 'LineString', coordinates: Array.from({ length: 10_001 }, (_, i) => [31.3 + i * 1e-6, 30.06]) } }, 'VALIDATION_ERROR', /at most 10000 positions/],
      [{ origin: ORIGIN, destination: DESTINATION, costing: 'hovercraft' }, 'VALIDATION_ERROR', /costing: must be one of/],
      [{ origin: ORIGIN, destination: DESTINATION, costing: 'truck' }, 'COSTING_UNAVAILABLE', /Truck routing/],
      [{ origin: ORIGIN, destination: { lat: 30.3, lon: 31.7 } }, 'NO_ROAD_NEARBY', /No road/],
    ];
    for (const [body, code, message] of cases) {
      const response = await api.post('/map/route-risk', body, userToken);
      expect(response.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(response.body.code).toBe(code);
      expect(String(response.body.message)).toMatch(message);
    }
    expect((await api.post('/map/route-risk', { polyline: routed.route.shape })).status).toBe(401);
  });
});

describe('logistics zones in /routing/plan', () => {
  const zonesToRetire: string[] = [];
  afterAll(async () => {
    for (const id of zonesToRetire) await api.patch(`/admin/logistics-zones/${id}`, { active: false }, adminToken);
  });
  const plan = (extra: Record<string, unknown> = {}) => api.post('/routing/plan', { locations: [ORIGIN, DESTINATION], avoidIncidents: false, avoidReported: false, includeLabels: false, ...extra }, userToken);

  it('goes around an avoid zone the route crossed, and prices a penalize zone by its multiplier', async () => {
    const plain = (await plan()).body;
    expect(plain.logisticsZones).toMatchObject({ applied: true, avoided: [], crossed: [] });
    const shape = polyline.decode(plain.data.trip.legs[0].shape, 6);
    const [lat, lng] = shape[Math.floor(shape.length / 2)]!;
    const area = square(lng, lat, 0.0006);
    const avoid = await api.post('/admin/logistics-zones', { name: 'Plan avoid zone', zoneType: 'restricted', riskScore: 0.5, costMultiplier: 1, routingPolicy: 'avoid', geometry: area }, adminToken);
    expect(avoid.status).toBe(201);
    zonesToRetire.push(avoid.body.id);
    expect(crosses(plain.data.trip, area)).toBe(true);
    const around = (await plan()).body;
    expect(around.logisticsZones.avoided.map((zone: any) => zone.id)).toEqual([avoid.body.id]);
    expect(crosses(around.data.trip, area)).toBe(false);
    expect(around.data.trip.summary.time).toBeGreaterThanOrEqual(plain.data.trip.summary.time);
    // asked not to apply zones: the first route again
    const ignored = (await plan({ applyLogisticsZones: false })).body;
    expect(ignored.logisticsZones.applied).toBe(false);
    expect(crosses(ignored.data.trip, area)).toBe(true);

    await api.patch(`/admin/logistics-zones/${avoid.body.id}`, { routingPolicy: 'penalize', costMultiplier: 3 }, adminToken);
    const priced = (await plan()).body;
    expect(crosses(priced.data.trip, area)).toBe(true);
    const crossed = priced.logisticsZones.crossed.find((zone: any) => zone.id === avoid.body.id);
    expect(crossed).toMatchObject({ routingPolicy: 'penalize', costMultiplier: 3 });
    expect(crossed.seconds).toBeGreaterThan(0);
    expect(crossed.penaltySeconds).toBeCloseTo(crossed.seconds * 2, -1);
    expect(priced.logisticsZones.adjustedTime).toBe(Math.round(priced.data.trip.summary.time + priced.logisticsZones.penaltySeconds));
    expect(priced.logisticsZones.legs[0].adjustedTime).toBeGreaterThan(priced.logisticsZones.legs[0].time);
    // a restricted zone crossed is a warning
    expect(priced.logisticsZones.warnings.join(' ')).toMatch(/restricted zone "Plan avoid zone"/);
  });
});
