/**
 * Navigation sessions over HTTP: a real route through Nasr City, driven with
 * one fix a second and 5 m of noise, produces approaching → completed … →
 * arrived; a detour produces exactly one off_route and one rerouted, and the
 * new route leads to the destination.
 */
import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { distanceToLine, driveAlong, haversineMeters, lineLength, type DriveFix } from './support/drive.js';
import { useServer } from './support/server-fixture.js';

const fixture = useServer();
const api = fixture.api;
const ORIGIN = { lat: 30.0626, lng: 31.3219 };
const DESTINATION = { lat: 30.07, lng: 31.34, name: 'Al Tayaran Street' };
let token: string;
let otherToken: string;

beforeAll(async () => {
  token = (await registerUser(api, 'driver')).token;
  otherToken = (await registerUser(api, 'stranger')).token;
});

async function createSession(body: Record<string, unknown> = {}) {
  const created = await api.post('/navigation/sessions', { origin: ORIGIN, destination: DESTINATION, ...body }, token);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** Sends the fixes in batches; answers every event the server reported. */
async function send(sessionId: string, fixes: DriveFix[], batch = 5) {
  const events: { seq: number; type: string; data: Record<string, unknown> }[] = [];
  let last: Record<string, any> | undefined;
  for (let index = 0; index < fixes.length; index += batch) {
    const response = await api.post(`/navigation/sessions/${sessionId}/positions`, { positions: fixes.slice(index, index + batch) }, token);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    events.push(...response.body.newEvents);
    last = response.body;
    if (response.body.status !== 'active') break;
  }
  return { events, last: last! };
}

describe('navigation sessions', () => {
  it('creates a session with its route, maneuvers and expiry', async () => {
    const session = await createSession();
    expect(session).toMatchObject({ status: 'active', costing: 'auto', language: 'en-US', eventSeq: 0, destination: { lat: DESTINATION.lat, lng: DESTINATION.lng, name: DESTINATION.name } });
    expect(session.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(session.maneuvers.length).toBeGreaterThan(2);
    expect(session.route.shape).toBe(session.routeShape);
    expect(session.distanceRemainingMeters).toBe(session.distanceMeters);
    const hours = (Date.parse(session.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(5.9);
    expect(hours).toBeLessThan(6.1);
    const points = polyline.decode(session.routeShape, 6) as [number, number][];
    expect(haversineMeters(points[points.length - 1]!, [DESTINATION.lat, DESTINATION.lng])).toBeLessThan(60);
  });

  it('drives to the destination: every maneuver approached before it is completed, then arrived', async () => {
    const session = await createSession();
    const fixes = driveAlong(session.route, { noiseMeters: 5, seed: 7, startTime: Date.now() });
    const { events, last } = await send(session.sessionId, fixes);
    const types = events.map((event) => event.type);
    expect(types).not.toContain('off_route');
    expect(types[types.length - 1]).toBe('arrived');
    expect(types.filter((type) => type === 'arrived')).toHaveLength(1);
    // seq is gapless and increasing
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    const completed = events.filter((event) => event.type === 'maneuver_completed').map((event) => event.data.maneuverIndex as number);
    const approached = events.filter((event) => event.type === 'maneuver_approaching').map((event) => event.data.maneuverIndex as number);
    // every turn between departure and arrival is announced and then passed, in order
    const turns = session.maneuvers.slice(1, -1).map((maneuver: { index: number }) => maneuver.index);
    expect(completed).toEqual(turns);
    for (const index of completed) {
      const approachedAt = events.findIndex((event) => event.type === 'maneuver_approaching' && event.data.maneuverIndex === index);
      const completedAt = events.findIndex((event) => event.type === 'maneuver_completed' && event.data.maneuverIndex === index);
      expect(approachedAt, `maneuver ${index} approached`).toBeGreaterThanOrEqual(0);
      expect(approachedAt).toBeLessThan(completedAt);
    }
    expect(approached).toEqual([...approached].sort((a, b) => a - b));
    expect(last).toMatchObject({ status: 'arrived', distanceRemainingMeters: 0, durationRemainingSeconds: 0 });
    expect(last.progress.arrived).toBe(true);

    const read = await api.get(`/navigation/sessions/${session.sessionId}/events?since=0`, token);
    expect(read.body).toMatchObject({ sessionId: session.sessionId, status: 'arrived', eventSeq: events.length });
    expect(read.body.events).toEqual(events);
    const tail = await api.get(`/navigation/sessions/${session.sessionId}/events?since=${events.length - 2}`, token);
    expect(tail.body.events.map((event: { seq: number }) => event.seq)).toEqual([events.length - 1, events.length]);
    // an arrived session takes no more fixes
    const late = await api.patch(`/navigation/sessions/${session.sessionId}`, fixes[fixes.length - 1], token);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'SESSION_ENDED', statusCode: 409 });
  });

  it('re-plans once after a detour, and the new route leads to the destination', async () => {
    const session = await createSession();
    const original = polyline.decode(session.routeShape, 6) as [number, number][];
    const length = lineLength(original);
    const start = Date.now();
    const firstHalf = driveAlong(session.route, { noiseMeters: 5, seed: 11, startTime: start, toMeters: length * 0.4 });
    const before = await send(session.sessionId, firstHalf);
    expect(before.events.map((event) => event.type)).not.toContain('off_route');
    // the detour: a real road away from the route, driven until well outside the corridor
    const turnOff = firstHalf[firstHalf.length - 1]!;
    const away = await api.post('/routing/route', { payload: { locations: [{ lat: turnOff.lat, lon: turnOff.lng }, { lat: 30.045, lon: 31.36 }] }, includeLabels: false }, token);
    const detourShape = away.body.data.trip.legs[0].shape as string;
    const detourRoute = { shape: detourShape, maneuvers: [{ distanceMeters: 1, timeSeconds: 0.1, cumulativeMeters: 0 }], distanceMeters: lineLength(polyline.decode(detourShape, 6) as [number, number][]) };
    const detour = driveAlong(detourRoute, { noiseMeters: 5, seed: 12, startTime: start + firstHalf.length * 1000, intervalSeconds: 1 }).map((fix) => ({ ...fix, speed: 9 }));
    const outside = detour.findIndex((fix, index) => index > 0 && distanceToLine(original, [fix.lat, fix.lng]) > 80);
    expect(outside, 'the detour leaves the route').toBeGreaterThan(0);
    // the driver follows the detour until the server re-plans, then the new route
    const offRoad: { type: string }[] = [];
    for (const fix of detour) {
      const response = await api.post(`/navigation/sessions/${session.sessionId}/positions`, { positions: [fix] }, token);
      offRoad.push(...response.body.newEvents);
      if (response.body.reroute) break;
    }
    const types = offRoad.map((event) => event.type);
    expect(types.filter((type) => type === 'off_route')).toHaveLength(1);
    expect(types.filter((type) => type === 'rerouted')).toHaveLength(1);
    expect(types.indexOf('off_route')).toBeLessThan(types.indexOf('rerouted'));

    const now = await api.get(`/navigation/sessions/${session.sessionId}`, token);
    expect(now.body.reroutes).toBe(1);
    const replanned = polyline.decode(now.body.routeShape, 6) as [number, number][];
    expect(now.body.routeShape).not.toBe(session.routeShape);
    expect(haversineMeters(replanned[replanned.length - 1]!, [DESTINATION.lat, DESTINATION.lng])).toBeLessThan(60);
    const rest = driveAlong(now.body.route, { noiseMeters: 5, seed: 13, startTime: start + (firstHalf.length + outside + 10) * 1000 });
    const after = await send(session.sessionId, rest);
    expect(after.events.map((event) => event.type), JSON.stringify(after.events)).not.toContain('off_route');
    expect(after.last.status).toBe('arrived');
  });

  it('answers the spec shapes of PATCH, ETA and DELETE', async () => {
    const session = await createSession();
    const [first] = driveAlong(session.route, { noiseMeters: 0, seed: 1, startTime: Date.now(), toMeters: 30 });
    const patched = await api.patch(`/navigation/sessions/${session.sessionId}`, first, token);
    expect(patched.status).toBe(201);
    // the OpenAPI document says the same status the route answers
    const document = (await api.get('/openapi.json')).body;
    expect(Object.keys(document.paths['/api/v1/navigation/sessions/{id}'].patch.responses)).toContain('201');
    expect(Object.keys(patched.body).sort()).toEqual(['distanceRemainingMeters', 'durationRemainingSeconds', 'etaSeconds', 'eventSeq', 'maneuverIndex', 'progress', 'reroute', 'sessionId', 'status'].sort());
    expect(patched.body.progress).toMatchObject({ offRoute: false, arrived: false, maneuverIndex: 0 });
    expect(patched.body.progress.nextManeuver).toMatchObject({ index: 1 });
    expect(patched.body.reroute).toBeNull();
    const eta = await api.get(`/navigation/sessions/${session.sessionId}/eta`, token);
    expect(eta.body).toMatchObject({ sessionId: session.sessionId, available: false, source: 'base' });
    expect(eta.body.etaSeconds).toBeGreaterThan(0);
    const ended = await api.delete(`/navigation/sessions/${session.sessionId}`, token);
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ ended: true, sessionId: session.sessionId, status: 'cancelled' });
    expect((await api.get(`/navigation/sessions/${session.sessionId}`, token)).body.status).toBe('cancelled');
    expect((await api.patch(`/navigation/sessions/${session.sessionId}`, first, token)).status).toBe(409);
  });

  it('keeps sessions to their creator: 403 for another caller, 404 unknown, 401 anonymous', async () => {
    const session = await createSession();
    const other = await api.get(`/navigation/sessions/${session.sessionId}`, otherToken);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    expect((await api.patch(`/navigation/sessions/${session.sessionId}`, ORIGIN, otherToken)).status).toBe(403);
    expect((await api.delete(`/navigation/sessions/${session.sessionId}`, otherToken)).status).toBe(403);
    expect((await api.get('/navigation/sessions/00000000-0000-4000-8000-000000000000', token)).status).toBe(404);
    expect((await api.get('/navigation/sessions/not-a-session', token)).status).toBe(404);
    expect((await api.get(`/navigation/sessions/${session.sessionId}`)).status).toBe(401);
  });

  it('skips resent fixes (same capturedAt) instead of applying them twice', async () => {
    const session = await createSession();
    const fixes = driveAlong(session.route, { noiseMeters: 0, seed: 3, startTime: Date.now(), toMeters: 200 });
    const first = await api.post(`/navigation/sessions/${session.sessionId}/positions`, { positions: fixes }, token);
    expect(first.body.accepted).toBe(fixes.length);
    const again = await api.post(`/navigation/sessions/${session.sessionId}/positions`, { positions: fixes }, token);
    expect(again.body).toMatchObject({ accepted: 0, newEvents: [], eventSeq: first.body.eventSeq });
  });

  it('validates input with 400s', async () => {
    const bad = [
      { origin: ORIGIN },
      { origin: { lat: 91, lng: 0 }, destination: DESTINATION },
      { origin: ORIGIN, destination: DESTINATION, costing: 'rocket' },
      { origin: ORIGIN, destination: DESTINATION, preference: 'scenic' },
    ];
    for (const body of bad) expect((await api.post('/navigation/sessions', body, token)).status, JSON.stringify(body)).toBe(400);
    const session = await createSession();
    const tooMany = Array.from({ length: 51 }, () => ORIGIN);
    expect((await api.post(`/navigation/sessions/${session.sessionId}/positions`, { positions: tooMany }, token)).status).toBe(400);
    expect((await api.post(`/navigation/sessions/${session.sessionId}/positions`, { positions: [] }, token)).status).toBe(400);
    expect((await api.patch(`/navigation/sessions/${session.sessionId}`, { lat: 30 }, token)).status).toBe(400);
    expect((await api.get(`/navigation/sessions/${session.sessionId}/events?since=-1`, token)).status).toBe(400);
  });
});
