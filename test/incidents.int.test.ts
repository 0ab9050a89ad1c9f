/**
 * Community incidents (spec part 3 §4.7, §4.1 `avoidIncidents`; votes, expiry and the overlay designed in
 * docs/incidents-feedback.md) against a started server whose clock the test moves (CLOCK_OFFSET_FILE):
 * reports by users and keys, merging of nearby duplicates, votes, expiry per type, the bbox overlay, and
 * a planned route that goes around a blocking incident and comes back when it is cleared or expires.
 */
import polyline from '@mapbox/polyline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { keysWithScopes } from './support/api-keys.js';
import { middleOf, planRoute } from './support/plan-route.js';
import { useServer } from './support/server-fixture.js';
import { testClock } from './support/test-clock.js';

const clock = testClock();
const fixture = useServer(clock.env);
const api = fixture.api;
const HOUR = 3_600_000;
/** Far from the planned route (north-west of it), for incidents that must not steer it. */
const AWAY = { lat: 30.085, lng: 31.305 };
/** ~110 m per 0.001° of latitude. */
const north = (point: { lat: number; lng: number }, meters: number) => ({ lat: point.lat + meters / 111_320, lng: point.lng });

let alice: string;
let bob: string;
let key: string;

beforeAll(async () => {
  alice = (await registerUser(api, 'alice')).token;
  bob = (await registerUser(api, 'bob')).token;
  key = (await keysWithScopes(api, { traffic: true })).keys[0]!;
});
afterAll(() => clock.remove());

describe('POST /incidents', () => {
  it('refuses anonymous callers, unknown types and coordinates off the globe', async () => {
    expect((await api.post('/incidents', { incidentType: 'jam', ...AWAY })).status).toBe(401);
    const unknown = await api.post('/incidents', { incidentType: 'flood', ...AWAY }, alice);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_ERROR');
    expect((await api.post('/incidents', { incidentType: 'jam', lat: 91, lng: 31 }, alice)).status).toBe(400);
  });

  it('files a report by a user or a key, with its type expiry and blocking flag', async () => {
    const jam = await api.post('/incidents', { incidentType: 'jam', ...AWAY, description: 'slow' }, alice);
    expect(jam.status).toBe(201);
    expect(jam.body).toMatchObject({ incidentType: 'jam', status: 'active', blocking: false, merged: false, reports: 1, confidence: 0.5, description: 'slow' });
    expect(Date.parse(jam.body.expiresAt) - Date.parse(jam.body.reportedAt)).toBe(1 * HOUR);
    const camera = await api.post('/incidents', { incidentType: 'camera', ...north(AWAY, 500) }, undefined, { 'x-api-key': key });
    expect(camera.status).toBe(201);
    expect(Date.parse(camera.body.expiresAt) - Date.parse(camera.body.reportedAt)).toBe(30 * 24 * HOUR);
    const closure = await api.post('/incidents', { incidentType: 'closure', ...north(AWAY, 1000) }, alice);
    expect(closure.body).toMatchObject({ blocking: true, expiresAt: null });
  });

  it('merges a report within 100 m of a live one of the same type and raises its confidence, once per voice', async () => {
    const spot = north(AWAY, 2000);
    const first = (await api.post('/incidents', { incidentType: 'police', ...spot }, alice)).body;
    const again = (await api.post('/incidents', { incidentType: 'police', ...north(spot, 5) }, alice)).body;
    expect(again).toMatchObject({ id: first.id, merged: true, reports: 1, confidence: 0.5 });
    const second = (await api.post('/incidents', { incidentType: 'police', ...north(spot, 60) }, bob)).body;
    expect(second).toMatchObject({ id: first.id, merged: true, reports: 2, confidence: 0.75 });
    const third = (await api.post('/incidents', { incidentType: 'police', ...north(spot, -40) }, undefined, { 'x-api-key': key })).body;
    expect(third).toMatchObject({ id: first.id, reports: 3, confidence: 0.88 });
    // another type, or farther than 100 m, is another incident
    const hazard = (await api.post('/incidents', { incidentType: 'hazard', ...spot }, bob)).body;
    expect(hazard.id).not.toBe(first.id);
    const far = (await api.post('/incidents', { incidentType: 'police', ...north(spot, 150) }, bob)).body;
    expect(far).toMatchObject({ merged: false, reports: 1 });
  });
});

describe('GET /incidents (overlay) and GET /incidents/{id}', () => {
  it('lists live incidents inside the box, filtered by type', async () => {
    const spot = north(AWAY, 3000);
    const made = (await api.post('/incidents', { incidentType: 'hazard', ...spot }, alice)).body;
    const bbox = `${spot.lng - 0.001},${spot.lat - 0.001},${spot.lng + 0.001},${spot.lat + 0.001}`;
    const listed = await api.get(`/incidents?bbox=${bbox}`, alice);
    expect(listed.status).toBe(200);
    expect(listed.body.incidents.map((incident: { id: string }) => incident.id)).toEqual([made.id]);
    expect((await api.get(`/incidents?bbox=${bbox}&types=jam,closure`, alice)).body.count).toBe(0);
    expect((await api.get(`/incidents?bbox=${bbox}&types=meteor`, alice)).status).toBe(400);
    expect((await api.get('/incidents', alice)).status).toBe(400);
    expect((await api.get('/incidents?bbox=31,30,33,31', alice)).status).toBe(400);
    expect((await api.get(`/incidents?bbox=${bbox}`)).status).toBe(401);
    expect((await api.get(`/incidents/${made.id}`, bob)).body).toMatchObject({ id: made.id, status: 'active' });
    expect((await api.get('/incidents/00000000-0000-4000-8000-000000000000', bob)).status).toBe(404);
  });
});

describe('votes and expiry', () => {
  it('a confirmation extends a jam; clears as many as its supporters end it; an ended incident takes no votes', async () => {
    const jam = (await api.post('/incidents', { incidentType: 'jam', ...north(AWAY, 4000) }, alice)).body;
    clock.advance(30 * 60_000);
    const confirmed = await api.post(`/incidents/${jam.id}/votes`, { vote: 'confirm' }, bob);
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.reports).toBe(2);
    expect(Date.parse(confirmed.body.expiresAt) - Date.parse(jam.expiresAt)).toBeGreaterThanOrEqual(30 * 60_000);
    expect((await api.post(`/incidents/${jam.id}/votes`, { vote: 'maybe' }, bob)).status).toBe(400);
    // bob changes his mind: one clear against alice's report
    const oneClear = (await api.post(`/incidents/${jam.id}/votes`, { vote: 'clear' }, bob)).body;
    expect(oneClear).toMatchObject({ status: 'cleared', reports: 1, clears: 1 });
    const late = await api.post(`/incidents/${jam.id}/votes`, { vote: 'confirm' }, alice);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('STATE_CONFLICT');
    expect((await api.post('/incidents/00000000-0000-4000-8000-000000000000/votes', { vote: 'clear' }, alice)).status).toBe(404);
  });

  it('a jam expires an hour after its last report; a closure stays until cleared', async () => {
    const spot = north(AWAY, 5000);
    const jam = (await api.post('/incidents', { incidentType: 'jam', ...spot }, alice)).body;
    const closure = (await api.post('/incidents', { incidentType: 'closure', ...north(spot, 300) }, alice)).body;
    clock.advance(HOUR + 1000);
    expect((await api.get(`/incidents/${jam.id}`, alice)).body.status).toBe('expired');
    const bbox = `${spot.lng - 0.01},${spot.lat - 0.01},${spot.lng + 0.01},${spot.lat + 0.01}`;
    const ids = (await api.get(`/incidents?bbox=${bbox}`, alice)).body.incidents.map((incident: { id: string }) => incident.id);
    expect(ids).toEqual([closure.id]);
    // a new report where the expired jam was starts a new incident
    expect((await api.post('/incidents', { incidentType: 'jam', ...spot }, bob)).body.id).not.toBe(jam.id);
    expect((await api.post(`/incidents/${jam.id}/votes`, { vote: 'confirm' }, bob)).status).toBe(409);
    clock.advance(40 * 24 * HOUR);
    expect((await api.get(`/incidents/${closure.id}`, alice)).body.status).toBe('active');
  });
});

describe('/routing/plan avoidIncidents', () => {
  it('routes around a closure on the route, reports it, and comes back when it is cleared', async () => {
    const before = await planRoute(api, alice);
    expect(before.body.incidentConstraints).toEqual({ applied: true, avoided: [], unavoidable: [] });
    const closure = (await api.post('/incidents', { incidentType: 'closure', ...middleOf(before.points) }, alice)).body;
    const around = await planRoute(api, alice);
    expect(around.shape).not.toBe(before.shape);
    expect(around.body.incidentConstraints.avoided).toEqual([expect.objectContaining({ id: closure.id, incidentType: 'closure' })]);
    expect(around.body.exactFallback.used).toBe(true);
    // the avoided point is farther than 30 m from the new route? at least it no longer passes through it
    expect(around.points.some(([lat, lng]) => Math.hypot((lat - closure.lat) * 111_320, (lng - closure.lng) * 96_000) < 5)).toBe(false);
    // the caller may choose to drive through
    const ignoring = await planRoute(api, alice, { avoidIncidents: false });
    expect(ignoring.shape).toBe(before.shape);
    expect(ignoring.body.incidentConstraints).toEqual({ applied: false, avoided: [], unavoidable: [] });
    // the reporter clears it: the route comes back
    await api.post(`/incidents/${closure.id}/votes`, { vote: 'clear' }, alice);
    const after = await planRoute(api, alice);
    expect(after.shape).toBe(before.shape);
    expect(after.body.incidentConstraints.avoided).toEqual([]);
  });

  it('goes around an accident until it expires, and ignores non-blocking types', async () => {
    const before = await planRoute(api, bob);
    const hazard = (await api.post('/incidents', { incidentType: 'hazard', ...middleOf(before.points) }, bob)).body;
    expect(hazard.blocking).toBe(false);
    expect((await planRoute(api, bob)).shape).toBe(before.shape);
    await api.post('/incidents', { incidentType: 'accident', ...middleOf(before.points) }, bob);
    const around = await planRoute(api, bob);
    expect(around.shape).not.toBe(before.shape);
    expect(around.body.incidentConstraints.avoided).toHaveLength(1);
    clock.advance(3 * HOUR + 1000);
    const after = await planRoute(api, bob);
    expect(after.shape).toBe(before.shape);
    expect(after.body.incidentConstraints.avoided).toEqual([]);
  });
});

describe('navigation sessions and incidents ahead', () => {
  it('re-plans when a closure appears ahead on the route, with an incident_ahead event, once', async () => {
    const driver = (await registerUser(api, 'driver')).token;
    const created = await api.post('/navigation/sessions', { origin: { lat: 30.0626, lng: 31.3219 }, destination: { lat: 30.07, lng: 31.34 } }, driver);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const session = created.body;
    const points = polyline.decode(session.routeShape, 6) as [number, number][];
    const fix = { lat: points[1]![0], lng: points[1]![1] };
    const first = await api.post(`/navigation/sessions/${session.sessionId}/positions`, { positions: [fix] }, driver);
    expect(first.body.newEvents.map((event: { type: string }) => event.type)).not.toContain('incident_ahead');
    const closure = (await api.post('/incidents', { incidentType: 'closure', ...middleOf(points) }, driver)).body;
    // sessions look for new incidents at most every 5 s
    await new Promise((resolve) => setTimeout(resolve, 5_200));
    const next = await api.post(`/navigation/sessions/${session.sessionId}/positions`, { positions: [fix] }, driver);
    expect(next.status).toBe(201);
    const types = next.body.newEvents.map((event: { type: string }) => event.type);
    expect(types).toEqual(expect.arrayContaining(['incident_ahead', 'rerouted']));
    expect(types.indexOf('incident_ahead')).toBeLessThan(types.indexOf('rerouted'));
    expect(next.body.newEvents.find((event: { type: string }) => event.type === 'incident_ahead').data).toEqual({ incidentId: closure.id, incidentType: 'closure', lat: closure.lat, lng: closure.lng });
    expect(next.body.reroute.shape).not.toBe(session.routeShape);
    const snapshot = (await api.get(`/navigation/sessions/${session.sessionId}`, driver)).body;
    expect(snapshot.routeShape).toBe(next.body.reroute.shape);
    // the same incident raises no second event
    await new Promise((resolve) => setTimeout(resolve, 5_200));
    const later = await api.post(`/navigation/sessions/${session.sessionId}/positions`, { positions: [fix] }, driver);
    expect(later.body.newEvents.map((event: { type: string }) => event.type)).not.toContain('incident_ahead');
    await api.post(`/incidents/${closure.id}/votes`, { vote: 'clear' }, driver);
  }, 60_000);
});
