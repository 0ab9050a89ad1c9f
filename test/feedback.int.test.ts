/**
 * Feedback (spec part 3 §4.8) and its state table (§3), road edits and sign disregards (§4.1) against a
 * started server with an admin and a clock the test moves (CLOCK_OFFSET_FILE): every shape and rule of
 * the spec's table, the editor moves (docs/incidents-feedback.md), problem spots, and a planned route
 * that goes around acknowledged blocking feedback and road edits and comes back when they are fixed,
 * expire after 60 days or are removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { middleOf, planRoute } from './support/plan-route.js';
import { startServerWithAdmin, type ServerWithAdmin } from './support/server-with-admin.js';
import { testClock } from './support/test-clock.js';

const clock = testClock();
const DAY = 86_400_000;
const AWAY = { lat: 30.085, lng: 31.305 };
const east = (point: { lat: number; lng: number }, meters: number) => ({ lat: point.lat, lng: point.lng + meters / 96_400 });

let running: ServerWithAdmin;
let admin: string;
let user: string;
const api = () => running.api;
const report = (body: Record<string, unknown>, token = user) => api().post('/feedback', { source: 'nav_chip', severity: 3, context: { stepIndex: 4, etaSeconds: 300 }, ...body }, token);
const move = (id: string, status: string, note?: string) => api().post(`/admin/feedback/${id}/status`, { status, ...(note ? { note } : {}) }, admin);

beforeAll(async () => {
  running = await startServerWithAdmin('feedback', clock.env);
  admin = running.admin.token;
  user = (await registerUser(running.api, 'driver')).token;
}, 180_000);
afterAll(async () => {
  await running?.stop();
  clock.remove();
});

describe('POST /feedback, GET /feedback/categories, POST /feedback/implicit', () => {
  it('files an open report and refuses what does not fit', async () => {
    const filed = await report({ category: 'road_closed', ...AWAY });
    expect(filed.status).toBe(201);
    expect(filed.body).toEqual({ ok: true, id: expect.any(String), status: 'open' });
    expect((await api().post('/feedback', { source: 'nav_chip', category: 'road_closed', severity: 3, ...AWAY })).status).toBe(401);
    expect((await report({ category: 'ufo', ...AWAY })).status).toBe(400);
    expect((await report({ category: 'road_closed', severity: 9, ...AWAY })).status).toBe(400);
    expect((await report({ category: 'road_closed', lat: 95, lng: 31 })).status).toBe(400);
    expect((await report({ category: 'road_closed', source: 'DROP TABLE', ...AWAY })).status).toBe(400);
  });

  it('lists categories (blocking ones marked), sources and signals, without credentials', async () => {
    const categories = await api().get('/feedback/categories');
    expect(categories.status).toBe(200);
    const blocking = categories.body.categories.filter((category: { blocking: boolean }) => category.blocking).map((category: { id: string }) => category.id);
    expect(blocking).toEqual(['road_closed', 'missing_road', 'illegal_maneuver', 'hazard']);
    expect(categories.body.signals).toEqual(['reroute', 'u_turn', 'dead_end', 'hard_brake', 'long_stop', 'gps_lost', 'failed_arrival']);
  });

  it('takes the known implicit signals and answers an unknown one as the spec says', async () => {
    const known = await api().post('/feedback/implicit', { signal: 'u_turn', ...AWAY, context: { speed: 3 } }, user);
    expect(known.status).toBe(201);
    expect(known.body).toEqual({ ok: true, signal: 'u_turn' });
    const unknown = await api().post('/feedback/implicit', { signal: 'sneeze', ...AWAY }, user);
    expect(unknown.body).toEqual({ ok: false, error: 'unknown signal', signals: ['reroute', 'u_turn', 'dead_end', 'hard_brake', 'long_stop', 'gps_lost', 'failed_arrival'] });
    expect((await api().post('/feedback/implicit', { signal: 'u_turn', ...AWAY })).status).toBe(401);
  });
});

describe('editor moves (state table)', () => {
  it('open → ack → fixed; the avoidance lives only while acknowledged; closed reports do not move', async () => {
    const id = (await report({ category: 'road_closed', ...east(AWAY, 1000) })).body.id;
    expect((await api().get(`/admin/feedback/${id}`, admin)).body).toMatchObject({ status: 'open', blocking: true, routingAvoidance: false });
    const acked = await move(id, 'ack', 'confirmed by patrol');
    expect(acked.status).toBe(201);
    expect(acked.body).toMatchObject({ status: 'ack', routingAvoidance: true, editorNote: 'confirmed by patrol' });
    const avoidances = (await api().get('/admin/feedback/routing-avoidances', admin)).body;
    expect(avoidances).toMatchObject({ provider: 'svc-feedback', ttlDays: 60 });
    expect(avoidances.avoidances).toContainEqual({ id, category: 'road_closed', lat: AWAY.lat, lng: east(AWAY, 1000).lng, source: 'nav_chip', since: acked.body.acknowledgedAt });
    expect(avoidances.count).toBe(avoidances.avoidances.length);
    const twice = await move(id, 'ack');
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'STATE_CONFLICT', details: { status: 'ack', allowed: ['fixed', 'unactionable'] } });
    expect((await move(id, 'fixed')).body).toMatchObject({ status: 'fixed', routingAvoidance: false });
    expect((await api().get('/admin/feedback/routing-avoidances', admin)).body.avoidances.map((entry: { id: string }) => entry.id)).not.toContain(id);
    expect((await move(id, 'ack')).status).toBe(409);
  });

  it('open → unactionable; a non-blocking acknowledgement is no avoidance; lists by status; admins only', async () => {
    const dismissed = (await report({ category: 'hazard', ...east(AWAY, 2000) })).body.id;
    expect((await move(dismissed, 'unactionable')).body.status).toBe('unactionable');
    const naming = (await report({ category: 'wrong_road_name', ...east(AWAY, 2100) })).body.id;
    expect((await move(naming, 'ack')).body).toMatchObject({ status: 'ack', blocking: false, routingAvoidance: false });
    expect((await api().get('/admin/feedback/routing-avoidances', admin)).body.avoidances.map((entry: { id: string }) => entry.id)).not.toContain(naming);
    const listed = (await api().get('/admin/feedback?status=unactionable', admin)).body.reports.map((entry: { id: string }) => entry.id);
    expect(listed).toContain(dismissed);
    expect(listed).not.toContain(naming);
    expect((await move('00000000-0000-4000-8000-000000000000', 'ack')).status).toBe(404);
    expect((await move(naming, 'open')).status).toBe(400);
    expect((await api().post(`/admin/feedback/${naming}/status`, { status: 'fixed' }, user)).status).toBe(403);
    expect((await api().get('/admin/feedback/routing-avoidances', user)).status).toBe(403);
    expect((await api().get('/admin/feedback/problem-spots', user)).status).toBe(403);
  });
});

describe('GET /admin/feedback/problem-spots', () => {
  it('clusters open reports and signals by ~110 m cell, ranked by severity, trust and recency', async () => {
    const strong = { lat: 30.0905, lng: 31.2905 };
    const weak = { lat: 30.0925, lng: 31.2925 };
    await report({ category: 'wrong_turn_instruction', severity: 5, ...strong });
    await report({ category: 'wrong_turn_instruction', severity: 4, source: 'post_trip', ...east(strong, 20) });
    await report({ category: 'wrong_eta', severity: 1, ...east(strong, 30) });
    await api().post('/feedback/implicit', { signal: 'dead_end', ...east(strong, 10) }, user);
    await report({ category: 'wrong_speed_limit', severity: 1, source: 'api', ...weak });
    const bbox = '31.289,30.089,31.294,30.094';
    const spots = await api().get(`/admin/feedback/problem-spots?bbox=${bbox}&limit=100`, admin);
    expect(spots.status).toBe(200);
    expect(spots.body.provider).toBe('svc-feedback');
    expect(spots.body.scanned).toBe(5);
    expect(spots.body.spots).toHaveLength(2);
    const [first, second] = spots.body.spots;
    expect(first).toMatchObject({ count: 4, dominantCategory: 'wrong_turn_instruction', signals: { dead_end: 1 }, sources: { nav_chip: 2, post_trip: 1, implicit: 1 } });
    expect(first.reason).toContain('wrong_turn_instruction');
    expect(second).toMatchObject({ count: 1, dominantCategory: 'wrong_speed_limit', sources: { api: 1 } });
    expect(first.score).toBeGreaterThan(second.score);
    expect(Math.abs(first.lat - strong.lat)).toBeLessThan(0.001);
    expect((await api().get(`/admin/feedback/problem-spots?bbox=${bbox}&limit=1`, admin)).body.spots).toHaveLength(1);
    // a week later the same reports weigh half
    clock.advance(7 * DAY);
    const later = (await api().get(`/admin/feedback/problem-spots?bbox=${bbox}`, admin)).body.spots[0];
    expect(later.score).toBeCloseTo(first.score / 2, 2);
  });
});

describe('/routing/plan avoidReported and road edits', () => {
  it('never routes around an open report; goes around it once acknowledged; comes back when fixed', async () => {
    const before = await planRoute(api(), user);
    const id = (await report({ category: 'road_closed', ...middleOf(before.points) })).body.id;
    const unconfirmed = await planRoute(api(), user);
    expect(unconfirmed.shape).toBe(before.shape);
    expect(unconfirmed.body.reportedConstraints.avoided).toEqual([]);
    await move(id, 'ack');
    const around = await planRoute(api(), user);
    expect(around.shape).not.toBe(before.shape);
    expect(around.body.reportedConstraints).toMatchObject({ applied: true, ttlDays: 60, avoided: [expect.objectContaining({ id, category: 'road_closed' })] });
    expect((await planRoute(api(), user, { avoidReported: false })).shape).toBe(before.shape);
    await move(id, 'fixed');
    expect((await planRoute(api(), user)).shape).toBe(before.shape);
  });

  it('an acknowledged report stops steering 60 days after acknowledgement', async () => {
    const before = await planRoute(api(), user);
    const id = (await report({ category: 'illegal_maneuver', ...middleOf(before.points) })).body.id;
    await move(id, 'ack');
    expect((await planRoute(api(), user)).shape).not.toBe(before.shape);
    clock.advance(59 * DAY);
    expect((await planRoute(api(), user)).body.reportedConstraints.avoided).toHaveLength(1);
    clock.advance(1 * DAY + 1000);
    const after = await planRoute(api(), user);
    expect(after.shape).toBe(before.shape);
    expect(after.body.reportedConstraints.avoided).toEqual([]);
    expect((await api().get('/admin/feedback/routing-avoidances', admin)).body.avoidances.map((entry: { id: string }) => entry.id)).not.toContain(id);
    expect((await api().get(`/admin/feedback/${id}`, admin)).body).toMatchObject({ status: 'ack', routingAvoidance: false });
  });

  it('routes around a closed line and a closed area, and comes back when the edit is removed', async () => {
    const before = await planRoute(api(), user);
    const middle = Math.floor(before.points.length / 2);
    const line = before.points.slice(middle - 2, middle + 3).map(([lat, lng]) => [lng, lat]);
    const created = await api().post('/admin/road-edits', { kind: 'closure', geometry: { type: 'line', coordinates: line }, reason: 'works' }, admin);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'closure', active: true, reason: 'works' });
    const around = await planRoute(api(), user);
    expect(around.shape).not.toBe(before.shape);
    expect(around.body.roadEditConstraints.avoided).toEqual([expect.objectContaining({ id: created.body.id, kind: 'closure', geometryType: 'line' })]);
    expect((await api().get('/admin/road-edits', admin)).body.roadEdits.map((edit: { id: string }) => edit.id)).toContain(created.body.id);
    expect((await api().delete(`/admin/road-edits/${created.body.id}`, admin)).status).toBe(200);
    expect((await api().delete(`/admin/road-edits/${created.body.id}`, admin)).status).toBe(404);
    expect((await planRoute(api(), user)).shape).toBe(before.shape);

    const { lat, lng } = middleOf(before.points);
    const d = 0.0003;
    const ring = [[lng - d, lat - d], [lng + d, lat - d], [lng + d, lat + d], [lng - d, lat + d], [lng - d, lat - d]];
    const area = (await api().post('/admin/road-edits', { kind: 'closure', geometry: { type: 'area', rings: [ring] } }, admin)).body;
    const aroundArea = await planRoute(api(), user);
    expect(aroundArea.shape).not.toBe(before.shape);
    expect(aroundArea.points.some(([pointLat, pointLng]) => Math.abs(pointLat - lat) < d && Math.abs(pointLng - lng) < d)).toBe(false);
    await api().delete(`/admin/road-edits/${area.id}`, admin);
    expect((await planRoute(api(), user)).shape).toBe(before.shape);
    expect((await api().post('/admin/road-edits', { kind: 'closure', geometry: { type: 'line', coordinates: [[31.3, 30.06]] } }, admin)).status).toBe(400);
    expect((await api().post('/admin/road-edits', { kind: 'closure', geometry: { type: 'line', coordinates: line } }, user)).status).toBe(403);
  });

  it('a user who disregards a restriction sign drives through it, kept for later plans and in the export', async () => {
    const before = await planRoute(api(), user);
    const middle = Math.floor(before.points.length / 2);
    const line = before.points.slice(middle - 2, middle + 3).map(([lat, lng]) => [lng, lat]);
    const sign = (await api().post('/admin/road-edits', { kind: 'access_restriction', featureKey: 'sign:no-entry:42', geometry: { type: 'line', coordinates: line } }, admin)).body;
    const other = await registerUser(running.api, 'other');
    expect((await planRoute(api(), other.token)).shape).not.toBe(before.shape);
    const through = await planRoute(api(), user, { disregard: ['sign:no-entry:42'] });
    expect(through.shape).toBe(before.shape);
    expect(through.body.roadEditConstraints.disregarded).toEqual([expect.objectContaining({ id: sign.id, featureKey: 'sign:no-entry:42' })]);
    expect(through.body.disregarded).toEqual(['sign:no-entry:42']);
    // kept: the next plan without `disregard` honours it, and the export lists it
    expect((await planRoute(api(), user)).shape).toBe(before.shape);
    const exported = await api().get('/auth/me/export', user);
    expect(exported.body.signDisregards).toEqual([{ featureKey: 'sign:no-entry:42', createdAt: expect.any(String) }]);
    expect((await api().get('/me/sign-disregards', user)).body.items).toHaveLength(1);
    expect((await api().delete('/me/sign-disregards/sign%3Ano-entry%3A42', user)).status).toBe(200);
    expect((await planRoute(api(), user)).shape).not.toBe(before.shape);
    await api().delete(`/admin/road-edits/${sign.id}`, admin);
  });
});
