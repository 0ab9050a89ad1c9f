/**
 * The stateless navigation helpers over HTTP, on a real route the server
 * itself planned through Nasr City.
 */
import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';

const fixture = useServer();
const api = fixture.api;
let token: string;
let shape: string;
let points: [number, number][];
let maneuvers: { cumulativeMeters: number }[];
let lengthMeters: number;

beforeAll(async () => {
  token = (await registerUser(api, 'navigator')).token;
  const routed = await api.post('/routing/route', { payload: { locations: [{ lat: 30.0626, lon: 31.3219 }, { lat: 30.07, lon: 31.34 }] }, includeLabels: false }, token);
  const leg = routed.body.data.trip.legs[0];
  shape = leg.shape;
  points = polyline.decode(shape, 6);
  lengthMeters = leg.summary.length * 1000;
  let cumulative = 0;
  maneuvers = leg.maneuvers.map((maneuver: { length: number }) => {
    const mark = { cumulativeMeters: cumulative };
    cumulative += maneuver.length * 1000;
    return mark;
  });
});

const at = (index: number) => ({ lat: points[index]![0], lng: points[index]![1] });

describe('POST /navigation/off-route', () => {
  it('keeps a position on the route on it, and puts one 300 m away off it', async () => {
    const on = await api.post('/navigation/off-route', { routeShape: shape, position: at(5) }, token);
    expect(on.status).toBe(201);
    expect(on.body).toMatchObject({ provider: 'svc-navigation', offRoute: false });
    expect(on.body.distanceToRouteMeters).toBeLessThan(1);
    const away = await api.post('/navigation/off-route', { routeShape: shape, position: { lat: at(5).lat + 0.0027, lng: at(5).lng } }, token);
    expect(away.body.offRoute).toBe(true);
    expect(away.body.distanceToRouteMeters).toBeGreaterThan(40);
    const wide = await api.post('/navigation/off-route', { routeShape: shape, position: { lat: at(5).lat + 0.0027, lng: at(5).lng }, thresholdMeters: 500 }, token);
    expect(wide.body.offRoute).toBe(false);
  });

  it('validates: threshold 5–500, a shape of at least 2 points, a caller', async () => {
    expect((await api.post('/navigation/off-route', { routeShape: shape, position: at(0), thresholdMeters: 4 }, token)).status).toBe(400);
    expect((await api.post('/navigation/off-route', { routeShape: shape, position: at(0), thresholdMeters: 501 }, token)).status).toBe(400);
    const single = await api.post('/navigation/off-route', { routeShape: polyline.encode([points[0]!], 6), position: at(0) }, token);
    expect(single.status).toBe(400);
    expect(single.body.message).toEqual(['routeShape: must be a polyline6 shape with at least 2 distinct points']);
    expect((await api.post('/navigation/off-route', { routeShape: shape, position: at(0) })).status).toBe(401);
  });
});

describe('POST /navigation/progress', () => {
  it('reports the whole route left at the start, the next maneuver ahead, and arrival at the end', async () => {
    const start = await api.post('/navigation/progress', { routeShape: shape, position: at(0), maneuvers, baseSeconds: 600 }, token);
    expect(start.status).toBe(201);
    expect(start.body).toMatchObject({ provider: 'svc-navigation', maneuverIndex: 0, arrived: false, progressFraction: 0 });
    expect(start.body.distanceRemainingMeters).toBeCloseTo(lengthMeters, -1);
    expect(start.body.durationRemainingSeconds).toBeCloseTo(600, 0);
    expect(start.body.distanceToNextManeuverMeters).toBeCloseTo(maneuvers[1]!.cumulativeMeters, -1);
    const middle = Math.floor(points.length / 2);
    const halfway = await api.post('/navigation/progress', { routeShape: shape, position: at(middle), maneuvers }, token);
    expect(halfway.body.progressFraction).toBeGreaterThan(0);
    expect(halfway.body.progressFraction).toBeLessThan(1);
    expect(halfway.body.maneuverIndex).toBeGreaterThan(0);
    const end = await api.post('/navigation/progress', { routeShape: shape, position: at(points.length - 1), maneuvers }, token);
    expect(end.body).toMatchObject({ arrived: true, distanceRemainingMeters: 0, progressFraction: 1 });
  });

  it('validates the arrival radius (5–200)', async () => {
    expect((await api.post('/navigation/progress', { routeShape: shape, position: at(0), arrivalRadiusMeters: 201 }, token)).status).toBe(400);
  });
});
