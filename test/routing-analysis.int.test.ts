/**
 * Isochrones and map matching over HTTP against a started server (the
 * embedded Nasr City map data), with a developer key of scope `routing` and a
 * signed-in user's bearer token.
 */
import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import { RoutingEngine } from '../src/solvers/routing/routing-engine.js';
import { registerUser, type ApiClient } from './support/api-client.js';
import { simulateTrace } from './support/gps-traces.js';
import { routingPack } from './support/routing-packs.js';
import { useServer } from './support/server-fixture.js';
import { readJson } from './support/services.js';

const fixture = useServer();
const api = fixture.api;
const ORIGIN = { lat: 30.0626, lon: 31.3219 };
const FAR_AWAY = { lat: 30.2, lon: 31.6 };

let token: string;
let apiKey: string;
let engine: RoutingEngine;

async function developerKey(client: ApiClient, scopes: Record<string, boolean>): Promise<string> {
  const user = await registerUser(client, 'routing-analysis');
  await client.post('/developer/enroll', undefined, user.token);
  const organization = (await client.post('/developer/organizations', { name: 'Org' }, user.token)).body;
  const project = (await client.post('/developer/projects', { name: 'App', organizationId: organization.id }, user.token)).body;
  return (await client.post('/developer/api-keys', { projectId: project.id, label: 'k', scopes }, user.token)).body.key;
}

const post = (path: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${fixture.server.baseUrl}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

beforeAll(async () => {
  token = (await registerUser(api, 'routing-analysis')).token;
  apiKey = await developerKey(api, { routing: true });
  engine = new RoutingEngine(await routingPack('nasrCityPbf'));
});

describe('POST /routing/isochrone', () => {
  it('refuses anonymous callers and keys without the routing scope', async () => {
    const body = { locations: [ORIGIN], contours: [{ time: 5 }] };
    expect((await post('/routing/isochrone', body, {})).status).toBe(401);
    const other = await developerKey(api, { routing: false, geo: true });
    const refused = await post('/routing/isochrone', body, { 'x-api-key': other });
    expect(refused.status).toBe(403);
    expect(await readJson(refused)).toMatchObject({ code: 'FORBIDDEN', details: { missingScopes: ['routing'] } });
  });

  it('answers one GeoJSON feature per contour, largest first, inside the engine envelope', async () => {
    const response = await post('/routing/isochrone', { locations: [ORIGIN], costing: 'auto', contours: [{ time: 3 }, { time: 8, color: '00ff00' }], polygons: true, id: 'trip-1' }, { 'x-api-key': apiKey });
    expect(response.status).toBe(201);
    const body = await readJson(response);
    expect(body).toMatchObject({ provider: 'svc', available: true, path: '/routing/isochrone', data: { type: 'FeatureCollection', id: 'trip-1' } });
    const features = body.data.features;
    expect(features.map((feature: { properties: { contour: number } }) => feature.properties.contour)).toEqual([8, 3]);
    expect(features[0].properties).toMatchObject({ metric: 'time', color: '#00ff00' });
    for (const feature of features) {
      expect(['Polygon', 'MultiPolygon']).toContain(feature.geometry.type);
      const ring = feature.geometry.type === 'Polygon' ? feature.geometry.coordinates[0] : feature.geometry.coordinates[0][0];
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      // around the origin, in Nasr City
      for (const [lon, lat] of ring) {
        expect(Math.abs(lat - ORIGIN.lat)).toBeLessThan(0.1);
        expect(Math.abs(lon - ORIGIN.lon)).toBeLessThan(0.1);
      }
    }
  });

  it('draws lines by default and distance contours on request', async () => {
    const response = await api.post('/routing/isochrone', { locations: [ORIGIN], costing: 'pedestrian', contours: [{ distance: 1 }] }, token);
    expect(response.status).toBe(201);
    expect(response.body.data.features[0].properties).toMatchObject({ contour: 1, metric: 'distance' });
    expect(['LineString', 'MultiLineString']).toContain(response.body.data.features[0].geometry.type);
  });

  it('rejects bad input with 400s that say what is wrong', async () => {
    const cases: [unknown, string][] = [
      [{ locations: [ORIGIN], contours: [1, 2, 3, 4, 5].map((time) => ({ time })) }, 'contours'],
      [{ locations: [ORIGIN], contours: [{ time: 121 }] }, 'contours.0.time'],
      [{ locations: [ORIGIN], contours: [{ distance: 201 }] }, 'contours.0.distance'],
      [{ locations: [ORIGIN], contours: [{ time: 5 }, { distance: 2 }] }, 'contours'],
      [{ locations: [ORIGIN], contours: [{ time: 5, distance: 2 }] }, 'contours.0'],
      [{ locations: [{ lat: 91, lon: 31 }], contours: [{ time: 5 }] }, 'locations.0.lat'],
      [{ locations: [ORIGIN, ORIGIN], contours: [{ time: 5 }] }, 'locations'],
      [{ locations: [ORIGIN], contours: [{ time: 5 }], costing: 'rocket' }, 'costing'],
      [{ contours: [{ time: 5 }] }, 'locations'],
    ];
    for (const [body, field] of cases) {
      const response = await api.post('/routing/isochrone', body, token);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(response.body.details.issues.map((issue: { path: string }) => issue.path)).toContain(field);
    }
  });

  it('answers NO_ROAD_NEARBY for an origin away from every road', async () => {
    const response = await api.post('/routing/isochrone', { locations: [FAR_AWAY], contours: [{ time: 5 }] }, token);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'NO_ROAD_NEARBY', details: { reason: 'origin_not_near_road', locationIndex: 0 } });
  });
});

describe('the OpenAPI document', () => {
  it('describes both endpoints with their request bodies', async () => {
    const document = await readJson(await fetch(`${fixture.server.baseUrl}/api/v1/openapi.json`));
    for (const path of ['/api/v1/routing/isochrone', '/api/v1/routing/map-match']) {
      expect(document.paths[path]?.post?.requestBody, path).toBeDefined();
    }
  });
});

describe('POST /routing/map-match', () => {
  function trace() {
    const outcome = engine.route({ metric: { costing: 'auto', preference: 'fastest', avoid: [] }, locations: [ORIGIN, { lat: 30.0511, lon: 31.3447 }] });
    if (!outcome.ok) throw new Error(outcome.code);
    const leg = outcome.legs[0]!;
    const ways = leg.edges.map((edge) => engine.pack.sections['ways.osmId'][engine.pack.sections['graph.edgeWay'][edge]!]!);
    return { ways, fixes: simulateTrace(engine.pack, leg, { intervalSeconds: 1, noiseMeters: 8, seed: 21, startTime: 1_700_000_000 }) };
  }

  it('refuses anonymous callers', async () => {
    expect((await post('/routing/map-match', { shape: [ORIGIN, ORIGIN] }, {})).status).toBe(401);
  });

  it('matches a noisy trace of a real drive to the roads it took', async () => {
    const { ways, fixes } = trace();
    const response = await post('/routing/map-match', { shape: fixes, costing: 'auto', shape_match: 'map_snap', trace_options: { search_radius: 50, gps_accuracy: 8 } }, { 'x-api-key': apiKey });
    expect(response.status).toBe(201);
    const body = await readJson(response);
    expect(body).toMatchObject({ provider: 'svc', available: true, path: '/routing/map-match', data: { units: 'kilometers', sub_matches: 1 } });
    const data = body.data;
    expect(data.matched_points).toHaveLength(fixes.length);
    expect(data.matched_points[0]).toMatchObject({ type: 'matched', edge_index: 0, time: fixes[0]!.time });
    expect(data.confidence_score).toBeGreaterThan(0.5);
    const matchedWays = new Set(data.edges.map((edge: { way_id: number }) => edge.way_id));
    expect(ways.filter((way) => matchedWays.has(way)).length / ways.length).toBeGreaterThanOrEqual(0.95);
    expect(data.edges.some((edge: { names: string[] }) => edge.names.length > 0)).toBe(true);
    // the shape is polyline6 and the edges index into it
    const shape = polyline.decode(data.shape, 6);
    expect(data.edges[data.edges.length - 1].end_shape_index).toBe(shape.length - 1);
    expect(Math.abs(shape[0]![0] - fixes[0]!.lat)).toBeLessThan(0.001);
  });

  it('takes the trace as an encoded polyline too', async () => {
    const { fixes } = trace();
    const shape = fixes.map((fix) => ({ lat: fix.lat, lon: fix.lon }));
    const encoded = polyline.encode(shape.map((fix) => [fix.lat, fix.lon]), 6);
    const [fromShape, fromPolyline] = await Promise.all([api.post('/routing/map-match', { shape }, token), api.post('/routing/map-match', { encoded_polyline: encoded }, token)]);
    expect(fromPolyline.status).toBe(201);
    expect(fromPolyline.body.data.edges.map((edge: { id: number }) => edge.id)).toEqual(fromShape.body.data.edges.map((edge: { id: number }) => edge.id));
  });

  it('rejects bad traces with 400s', async () => {
    const point = { lat: ORIGIN.lat, lon: ORIGIN.lon };
    const cases: [unknown, string][] = [
      [{ shape: Array.from({ length: 2_001 }, () => point) }, 'shape'],
      [{ shape: [point] }, 'shape'],
      [{ shape: [point, { lat: 30, lon: 181 }] }, 'shape.1.lon'],
      [{}, 'shape'],
      [{ shape: [point, point], encoded_polyline: 'abc' }, 'shape'],
      [{ shape: [point, point], trace_options: { search_radius: 500 } }, 'trace_options.search_radius'],
      [{ shape: [point, point], shape_match: 'edge_walk' }, 'shape_match'],
    ];
    for (const [body, field] of cases) {
      const response = await api.post('/routing/map-match', body, token);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(response.body.details.issues.map((issue: { path: string }) => issue.path)).toContain(field);
    }
  });

  it('answers NO_ROAD_NEARBY when no point is near a road', async () => {
    const response = await api.post('/routing/map-match', { shape: [FAR_AWAY, { lat: FAR_AWAY.lat + 0.001, lon: FAR_AWAY.lon }] }, token);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'NO_ROAD_NEARBY', details: { reason: 'trace_not_near_roads', searchRadiusMeters: 50 } });
  });
});
