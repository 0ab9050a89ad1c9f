/**
 * The routing endpoints over HTTP against a started server on the embedded
 * Nasr City data: access rules, the trip's guarantees (legs, shapes, lengths,
 * Arabic guidance), matrices that agree with routes, the planner, stop
 * ordering, errors, and the external-engine pass-through.
 */
import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import { haversineMeters } from '../src/solvers/graph/geodesy.js';
import { apiClient, registerUser } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';
import { startServerProcess, serverTestTimeout } from './support/server-process.js';
import { readJson } from './support/services.js';

const fixture = useServer();
const api = fixture.api;

/** Real places in Nasr City: Emarat Al Cinema Street, Al Nasr Road, Makram Ebeid area, Al Tayaran Street's north end. */
const POINTS = [
  { lat: 30.0626, lon: 31.3219 },
  { lat: 30.07, lon: 31.34 },
  { lat: 30.055, lon: 31.33 },
  { lat: 30.0655, lon: 31.3105 },
];

let token: string | undefined;
async function caller(): Promise<string> {
  token ??= (await registerUser(api, 'router')).token;
  return token;
}

async function route(payload: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return api.post('/routing/route', { payload, ...extra }, await caller());
}

describe('access', () => {
  it('serves profiles and maneuver types to anyone, and refuses anonymous routing POSTs with 401', async () => {
    const profiles = await api.get('/routing/profiles');
    expect(profiles.status).toBe(200);
    expect(profiles.body.provider).toBe('svc-routing');
    const byCosting = Object.fromEntries(profiles.body.profiles.map((profile: { costing: string; available: boolean }) => [profile.costing, profile.available]));
    expect(byCosting).toMatchObject({ auto: true, pedestrian: true, bicycle: true, wheelchair: true, truck: false });
    expect(profiles.body.preferences).toEqual(['fastest', 'shortest', 'balanced']);
    const types = await api.get('/routing/maneuver-types');
    expect(types.body.types).toHaveLength(39);
    expect(types.body.types.map((entry: { code: number }) => entry.code)).toEqual([...Array(39).keys()]);
    expect(types.body).toMatchObject({ junctionWindowTypes: [10, 11, 15, 16], decisionExcludedTypes: [0, 1, 4] });
    const anonymous = await api.post('/routing/route', { payload: { locations: POINTS.slice(0, 2) } });
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /routing/route', () => {
  it('answers a trip with one leg per pair of locations whose shape starts and ends at the snapped inputs', async () => {
    const response = await route({ locations: POINTS.slice(0, 3), costing: 'auto' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ provider: 'svc', available: true, path: '/routing/route' });
    const trip = response.body.data.trip;
    expect(trip.status).toBe(0);
    expect(trip.legs).toHaveLength(2);
    trip.legs.forEach((leg: { shape: string; maneuvers: { begin_shape_index: number; end_shape_index: number; length: number }[]; summary: { length: number } }, index: number) => {
      const shape = polyline.decode(leg.shape, 6);
      const [from, to] = [POINTS[index]!, POINTS[index + 1]!];
      // within the snapping distance: these inputs lie within 150 m of a road
      expect(haversineMeters(from.lat, from.lon, shape[0]![0], shape[0]![1])).toBeLessThan(150);
      expect(haversineMeters(to.lat, to.lon, shape[shape.length - 1]![0], shape[shape.length - 1]![1])).toBeLessThan(150);
      let previousEnd = 0;
      for (const maneuver of leg.maneuvers) {
        expect(maneuver.begin_shape_index).toBe(previousEnd);
        expect(maneuver.end_shape_index).toBeGreaterThanOrEqual(maneuver.begin_shape_index);
        previousEnd = maneuver.end_shape_index;
      }
      expect(previousEnd).toBe(shape.length - 1);
      const total = leg.maneuvers.reduce((sum, maneuver) => sum + maneuver.length, 0);
      expect(Math.abs(total - leg.summary.length)).toBeLessThanOrEqual(leg.summary.length * 0.01 + 0.002);
    });
    expect(response.body.labels).toMatchObject({ purpose: 'route_labels', parsed: { label: expect.stringMatching(/^Via /), tip: expect.any(String) } });
  });

  it('narrates in Arabic with Arabic street names for language ar, and in miles when asked', async () => {
    const arabic = await route({ locations: POINTS.slice(0, 2), directions_options: { language: 'ar' } });
    const instructions: string[] = arabic.body.data.trip.legs[0].maneuvers.map((maneuver: { instruction: string }) => maneuver.instruction);
    expect(instructions.every((text) => /[\u0600-\u06FF]/.test(text))).toBe(true);
    expect(instructions.join(' ')).toMatch(/شارع|طريق/);
    expect(arabic.body.labels.parsed.label).toMatch(/^عبر /);
    const miles = await route({ locations: POINTS.slice(0, 2), units: 'miles' });
    const kilometers = await route({ locations: POINTS.slice(0, 2) });
    expect(miles.body.data.trip.units).toBe('miles');
    expect(miles.body.data.trip.summary.length).toBeCloseTo(kilometers.body.data.trip.summary.length / 1.609344, 2);
  });

  it('skips the labels with includeLabels: false', async () => {
    const response = await route({ locations: POINTS.slice(0, 2) }, { includeLabels: false });
    expect(response.body.labels).toEqual({ unavailable: false, purpose: 'route_labels', content: '' });
  });

  it('gives clear 400s: bad payloads, truck without truck data, a location far from any road', async () => {
    const empty = await api.post('/routing/route', { payload: {} }, await caller());
    expect(empty.status).toBe(400);
    const bad = await route({ locations: [POINTS[0]], costing: 'hovercraft' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(bad.body.message).toEqual(expect.arrayContaining([expect.stringMatching(/^payload\.locations/), expect.stringMatching(/^payload\.costing/)]));
    const truck = await route({ locations: POINTS.slice(0, 2), costing: 'truck' });
    expect(truck.status).toBe(400);
    expect(truck.body.code).toBe('COSTING_UNAVAILABLE');
    const far = await route({ locations: [POINTS[0], { lat: 30.3, lon: 31.7, search_cutoff: 1000 }] });
    expect(far.status).toBe(400);
    expect(far.body).toMatchObject({ code: 'NO_ROAD_NEARBY', details: { locationIndex: 1, cutoffMeters: 1000 } });
  });
});

describe('POST /routing/matrix', () => {
  it('gives entries equal to the single routes between the same points', async () => {
    const response = await api.post('/routing/matrix', { payload: { locations: POINTS, costing: 'auto' } }, await caller());
    expect(response.status).toBe(201);
    const rows = response.body.data.sources_to_targets;
    expect(rows).toHaveLength(POINTS.length);
    for (const [from, to] of [[0, 1], [2, 3], [3, 0]] as const) {
      const single = await route({ locations: [POINTS[from], POINTS[to]] }, { includeLabels: false });
      const summary = single.body.data.trip.summary;
      expect(rows[from][to]).toMatchObject({ from_index: from, to_index: to });
      expect(Math.abs(rows[from][to].time - summary.time)).toBeLessThanOrEqual(1);
      expect(rows[from][to].distance).toBeCloseTo(summary.length, 2);
    }
    expect(rows[1][1]).toMatchObject({ time: 0, distance: 0 });
  });
});

describe('POST /routing/plan and /routing/optimize', () => {
  it('plans with stop ordering, avoidances read from constraintsText, speed limits and empty constraint reports', async () => {
    const response = await api.post(
      '/routing/plan',
      { locations: POINTS.map(({ lat, lon }) => ({ lat, lon })), constraintsText: 'No tolls, ring before arrival', includeAttributes: true, language: 'ar' },
      await caller(),
    );
    expect(response.status).toBe(201);
    expect(response.body.data.trip.legs).toHaveLength(3);
    expect(response.body.optimizedOrder[0]).toBe(0);
    expect(response.body.optimizedOrder[3]).toBe(3);
    expect(response.body.avoid).toEqual(['tolls']);
    expect(response.body.parsedConstraints).toMatchObject({ source: 'rules', avoid: ['tolls'], unparsed: ['ring before arrival'] });
    expect(response.body.incidentConstraints).toEqual({ applied: true, avoided: [], unavoidable: [] });
    expect(response.body.routeSpeedLimits).toHaveLength(3);
    expect(response.body.labels.parsed.label).toMatch(/^عبر/);
  });

  it('names each maneuver\'s speed limit speedLimitKph with includeAttributes (null where unknown), matching routeSpeedLimits', async () => {
    // from Al Doctor Hassan Ibrahim Street (maxspeed 20) onto roads with and without a tagged limit
    const locations = [{ lat: 30.065596, lon: 31.337844 }, POINTS[1], POINTS[2]];
    const response = await api.post('/routing/plan', { locations, includeAttributes: true, includeLabels: false, optimize: false }, await caller());
    expect(response.status).toBe(201);
    const legs = response.body.data.trip.legs as { maneuvers: { type: number; begin_shape_index: number; speedLimitKph?: unknown }[] }[];
    const limits: (number | null)[] = [];
    legs.forEach((leg, legIndex) => {
      const stretches = response.body.routeSpeedLimits[legIndex] as { begin_shape_index: number; end_shape_index: number; speed_limit: number | null }[];
      for (const maneuver of leg.maneuvers) {
        expect(maneuver).toHaveProperty('speedLimitKph');
        const limit = maneuver.speedLimitKph as number | null;
        expect(limit === null || (Number.isInteger(limit) && limit > 0)).toBe(true);
        limits.push(limit);
        // the limit where the maneuver begins: the stretch it travels on (the arrival: the stretch it ends)
        const at = maneuver.begin_shape_index;
        const stretch = stretches.find((item) => item.begin_shape_index <= at && at < item.end_shape_index) ?? stretches.find((item) => item.end_shape_index === at);
        expect(limit, `leg ${legIndex} maneuver at shape index ${at}`).toBe(stretch!.speed_limit);
      }
    });
    expect(limits.some((limit) => limit !== null)).toBe(true);
    expect(limits).toContain(null);
    const plain = await api.post('/routing/plan', { locations, includeLabels: false, optimize: false }, await caller());
    expect(plain.body.data.trip.legs[0].maneuvers.some((maneuver: object) => 'speedLimitKph' in maneuver)).toBe(false);
    expect(plain.body.routeSpeedLimits).toBeUndefined();
  });

  it('refuses unknown avoid values and truck with 400', async () => {
    const avoid = await api.post('/routing/plan', { locations: POINTS.slice(0, 2), avoid: ['potholes'] }, await caller());
    expect(avoid.status).toBe(400);
    expect(avoid.body.details.issues[0].path).toBe('avoid.0');
    const truck = await api.post('/routing/plan', { locations: POINTS.slice(0, 2), costing: 'truck' }, await caller());
    expect(truck.status).toBe(400);
  });

  it('orders stops for the shortest tour, first and last fixed, no longer than the given order', async () => {
    const given = [POINTS[0], POINTS[1], POINTS[3], POINTS[2], POINTS[0]];
    const optimized = await api.post('/routing/optimize', { payload: { locations: given } }, await caller());
    expect(optimized.status).toBe(201);
    const order = optimized.body.data.trip.locations.map((location: { original_index: number }) => location.original_index);
    expect(order[0]).toBe(0);
    expect(order[order.length - 1]).toBe(4);
    expect([...order].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(optimized.body.data.optimal).toBe(true);
    const plain = await route({ locations: given }, { includeLabels: false });
    expect(optimized.body.data.trip.summary.time).toBeLessThanOrEqual(plain.body.data.trip.summary.time + 1);
  });
});

describe('external engine', () => {
  it('answers 201 available: false with the request when ROUTING_ENGINE_URL does not answer', { timeout: serverTestTimeout(1) }, async () => {
    const server = await startServerProcess({ ROUTING_ENGINE_URL: 'http://127.0.0.1:9/' });
    try {
      const user = await fetch(`${server.baseUrl}/api/v1/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `ext.${Date.now()}@example.jo`, password: 'correct horse battery staple', name: 'ext' }),
      });
      const { accessToken } = (await readJson(user)) as { accessToken: string };
      const payload = { locations: POINTS.slice(0, 2), costing: 'motorcycle' };
      const response = await fetch(`${server.baseUrl}/api/v1/routing/route`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
        body: JSON.stringify({ payload }),
      });
      expect(response.status).toBe(201);
      expect(await readJson(response)).toEqual({ provider: 'svc', available: false, path: '/routing/route', request: payload, reason: 'unreachable' });
    } finally {
      await server.stop();
    }
  });
});

describe('overload', () => {
  it('answers at once 201 available: false with reason "busy" and Retry-After when the workers are busy and the waiting line is full', { timeout: serverTestTimeout(1) }, async () => {
    const server = await startServerProcess({ WORKER_THREADS: '1', SOLVER_QUEUE_LIMIT: '1' });
    try {
      const busyApi = apiClient(server.baseUrl);
      const { token: busyToken } = await registerUser(busyApi, 'busy');
      // an hour's walk covers all of Nasr City: each isochrone keeps the one worker busy for a while
      const isochrone = () => busyApi.post('/routing/isochrone', { locations: [POINTS[0]], costing: 'pedestrian', contours: [{ time: 60 }] }, busyToken);
      const burst = await Promise.all(Array.from({ length: 12 }, isochrone));
      // the engine's own failure: the availability envelope of part 1 §7 / part 3 §4.1, never a 5xx
      expect(burst.map((response) => response.status)).toEqual(Array(12).fill(201));
      // the one waiting place may be another request's or the server's own (a hierarchy build is never refused)
      expect(burst.filter((response) => response.body.available === true).length).toBeGreaterThanOrEqual(1);
      const refused = burst.filter((response) => response.body.available === false);
      expect(refused.length).toBeGreaterThan(0);
      for (const response of refused) {
        expect(response.headers.get('retry-after')).toBe('1');
        expect(response.body).toEqual({
          provider: 'svc',
          available: false,
          path: '/routing/isochrone',
          request: { locations: [POINTS[0]], costing: 'pedestrian', contours: [{ time: 60 }], polygons: false, denoise: 1, generalize: 0, show_locations: false },
          reason: 'busy',
          retryAfterSeconds: 1,
        });
      }
      // the line drains: the next request is served
      const next = await isochrone();
      expect(next.status).toBe(201);
      expect(next.body.available).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
