/**
 * The planner's routing constraints (docs/routing.md, "Routing constraints") on the Monaco extract, which
 * carries truck limits (two 3.5 t roads, a 10 t / 8 m one, a 4.3 m clearance): each constrained plan is
 * compared with the plain plan between the same points — the truck over the limit leaves the limited road,
 * the city centre is not entered, left turns drop. Black box: a started server over a Monaco pack.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import polyline from '@mapbox/polyline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestToFile } from '../src/ingest/ingest.js';
import { OSM_FILES } from './support/osm-data.js';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

let server: ServerProcess;
let api: ApiClient;
let token: string;
let workDir: string;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'plan-constraints-monaco-'));
  const pack = join(workDir, 'monaco.svcpack');
  await ingestToFile({ input: OSM_FILES.monaco }, pack);
  // a truck or no-left-turn metric is searched exactly until its hierarchy is built: room for that on a loaded machine
  server = await startServerProcess({ DATA_PACK: pack, DATA_DIR: 'memory://', ROUTING_TIMEOUT_MS: '60000' });
  api = apiClient(server.baseUrl);
  token = (await registerUser(api, 'planner')).token;
}, 240_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  rmSync(workDir, { recursive: true, force: true });
});

type Point = { lat: number; lon: number };
const plan = async (locations: Point[], extra: Record<string, unknown> = {}) => {
  const response = await api.post('/routing/plan', { locations, includeLabels: false, avoidIncidents: false, avoidReported: false, optimize: false, ...extra }, token);
  if (response.status === 201) expect(response.body.available, `engine answered ${response.body.reason}`).toBe(true);
  return response;
};
const shapeOf = (body: any): [number, number][] => body.data.trip.legs.flatMap((leg: { shape: string }) => polyline.decode(leg.shape, 6));
const metersBetween = (a: [number, number], b: Point) => Math.hypot((a[0] - b.lat) * 111_320, (a[1] - b.lon) * 111_320 * Math.cos((b.lat * Math.PI) / 180));
const passes = (body: any, point: Point, meters = 8) => shapeOf(body).some((vertex) => metersBetween(vertex, point) < meters);

// points of OSM way 200959683 (maxweight 3.5 t, 358 m, winding), from its shape
const LIMITED_ROAD = { start: { lat: 43.7490563, lon: 7.4025853 }, middle: { lat: 43.7502149, lon: 7.4026095 }, end: { lat: 43.7512514, lon: 7.4032446 } };

describe('vehicle limits through the truck costing', () => {
  it('a 3 t truck takes the 3.5 t road; a 12 t truck does not', async () => {
    const ends = [LIMITED_ROAD.start, LIMITED_ROAD.end];
    const light = await plan(ends, { costing: 'truck', vehicle: { weightT: 3 } });
    expect(light.status).toBe(201);
    expect(light.body.routingConstraints.vehicle).toMatchObject({ weightT: 3, hazmat: false });
    expect(passes(light.body, LIMITED_ROAD.middle)).toBe(true);
    const heavy = await plan(ends, { costing: 'truck', vehicle: { weightT: 12, hazmat: true } });
    expect(heavy.status === 201 || heavy.status === 400).toBe(true);
    if (heavy.status === 400) {
      // the limited road is the only way between the two points: no route for the heavy truck
      expect(heavy.body.code).toBe('NO_ROUTE');
      return;
    }
    expect(heavy.body.routingConstraints.vehicle).toMatchObject({ weightT: 12, heightM: 4.11, hazmat: 'not_enforced' });
    expect(passes(heavy.body, LIMITED_ROAD.middle)).toBe(false);
    // the heavy truck's locations snap to the nearest road it may use, so its route is another one, not a longer copy
    expect(shapeOf(heavy.body)).not.toEqual(shapeOf(light.body));
  });

  it('refuses vehicle limits without the truck costing, and limits out of range', async () => {
    const car = await plan([LIMITED_ROAD.start, LIMITED_ROAD.end], { vehicle: { weightT: 12 } });
    expect(car.status).toBe(400);
    expect(car.body.details.issues[0].path).toBe('vehicle');
    expect((await plan([LIMITED_ROAD.start, LIMITED_ROAD.end], { costing: 'truck', vehicle: { weightT: -1 } })).status).toBe(400);
    expect((await plan([LIMITED_ROAD.start, LIMITED_ROAD.end], { costing: 'truck', vehicle: { axles: 3 } })).status).toBe(400);
  });
});

describe('avoided areas', () => {
  // across Monaco, west (Fontvieille) to east (Larvotto): the plain route runs through Monte-Carlo
  const ACROSS = [{ lat: 43.7312, lon: 7.4158 }, { lat: 43.7455, lon: 7.4345 }];

  it('avoid the city centre: the plain route crosses Monte-Carlo, the constrained one does not', async () => {
    const plain = await plan(ACROSS, { avoidAreas: [] });
    const avoiding = await plan(ACROSS, { avoidAreas: ['city_centre'] });
    expect(plain.status).toBe(201);
    expect(avoiding.status).toBe(201);
    const area = avoiding.body.routingConstraints.avoidAreas[0];
    expect(area).toMatchObject({ kind: 'city_centre', name: 'Monaco centre', avoided: true, crossed: false });
    const inside = (body: any) => shapeOf(body).some(([lat, lon]) => metersBetween([lat, lon], { lat: 43.7396, lon: 7.4276 }) < 330);
    expect(inside(plain.body)).toBe(true);
    expect(inside(avoiding.body)).toBe(false);
  });

  it('a caller polygon holding a location is reported unavoidable, and the plan still answers', async () => {
    const square: [number, number][] = [[7.415, 43.730], [7.417, 43.730], [7.417, 43.732], [7.415, 43.732]];
    const response = await plan(ACROSS, { avoidPolygons: [square] });
    expect(response.status).toBe(201);
    expect(response.body.routingConstraints.avoidAreas[0]).toMatchObject({ kind: 'polygon', index: 0, avoided: false, reason: 'a location of the plan lies inside it' });
    expect((await plan(ACROSS, { avoidAreas: ['old_town'] })).status).toBe(400);
  });
});

describe('no left turns', () => {
  // pairs across the street grid of Monaco in both directions
  const PAIRS: [Point, Point][] = [
    [{ lat: 43.7312, lon: 7.4158 }, { lat: 43.7455, lon: 7.4345 }],
    [{ lat: 43.7455, lon: 7.4345 }, { lat: 43.7312, lon: 7.4158 }],
    [{ lat: 43.7370, lon: 7.4210 }, { lat: 43.7280, lon: 7.4140 }],
    [{ lat: 43.7400, lon: 7.4260 }, { lat: 43.7330, lon: 7.4190 }],
    [{ lat: 43.7270, lon: 7.4150 }, { lat: 43.7420, lon: 7.4300 }],
  ];

  it('the count of left turns drops and never grows', async () => {
    let plainTotal = 0;
    let avoidingTotal = 0;
    for (const pair of PAIRS) {
      const plain = await plan(pair);
      const avoiding = await plan(pair, { noLeftTurns: true });
      expect(plain.status).toBe(201);
      expect(avoiding.status).toBe(201);
      expect(avoiding.body.routingConstraints.noLeftTurns).toBe(true);
      const lefts = (body: any) => body.data.trip.legs.flatMap((leg: { maneuvers: { type: number }[] }) => leg.maneuvers).filter((maneuver: { type: number }) => [13, 14, 15].includes(maneuver.type)).length;
      expect(plain.body.routingConstraints.leftTurns).toBe(lefts(plain.body));
      expect(avoiding.body.routingConstraints.leftTurns).toBe(lefts(avoiding.body));
      expect(avoiding.body.routingConstraints.leftTurns).toBeLessThanOrEqual(plain.body.routingConstraints.leftTurns);
      plainTotal += plain.body.routingConstraints.leftTurns;
      avoidingTotal += avoiding.body.routingConstraints.leftTurns;
    }
    expect(avoidingTotal).toBeLessThan(plainTotal);
  });
});

describe('/ai/constraints gives a block the planner enforces', () => {
  it('truck limits, no left turns and the city centre spread into /routing/plan as they are', async () => {
    const read = await api.post('/ai/constraints', { text: 'the truck weighs 12 tons, no left turns, avoid the city centre' }, token);
    expect(read.status).toBe(201);
    expect(read.body.plan).toMatchObject({ costing: 'truck', vehicle: { weightT: 12 }, noLeftTurns: true, avoidAreas: ['city_centre'] });
    const planned = await plan([{ lat: 43.7312, lon: 7.4158 }, { lat: 43.7455, lon: 7.4345 }], read.body.plan);
    expect(planned.status).toBe(201);
    expect(planned.body.routingConstraints).toMatchObject({ vehicle: { weightT: 12 }, noLeftTurns: true, avoidAreas: [{ kind: 'city_centre', avoided: true, crossed: false }] });
  });
});
