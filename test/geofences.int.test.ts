/**
 * Geofences (designed; docs/geofences.md) black-box: a project's circle and polygon zones, a car driven along
 * a real route of the embedded Nasr City pack posting its fixes, enter and leave in order, hysteresis that
 * keeps jitter at a boundary quiet, dwell once per visit, and signed webhooks received by a local receiver
 * started by the test. Ownership: another project's zone is not found; the `geo` scope is required.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import polyline from '@mapbox/polyline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../src/services/webhooks/webhook-signature.js';
import { apiClient, type ApiClient } from './support/api-client.js';
import { keysWithScopes } from './support/api-keys.js';
import { lineLength, pointAlong } from './support/drive.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

const FROM = { lat: 30.0626, lon: 31.3219 };
const TO = { lat: 30.07, lon: 31.34 };
const M_PER_DEG = 111_320;

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}
const deliveries: Delivery[] = [];
let receiver: Server;
let hookUrl: string;
let server: ServerProcess;
let api: ApiClient;
let key: string;
let otherKey: string;
let noGeoKey: string;

const withKey = (k: string) => ({ 'x-api-key': k });
const post = (path: string, body: unknown, k = key) => api.post(path, body, undefined, withKey(k));
const get = (path: string, k = key) => api.get(path, undefined, withKey(k));
const del = async (path: string, k = key) => (await fetch(`${server.baseUrl}/api/v1${path}`, { method: 'DELETE', headers: withKey(k) })).status;

/** Offsets a point by metres north and east. */
const offset = (lat: number, lng: number, north: number, east: number): [number, number] => [lat + north / M_PER_DEG, lng + east / (M_PER_DEG * Math.cos((lat * Math.PI) / 180))];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  hookUrl = `http://127.0.0.1:${port}/hooks/geofences`;
  server = await startServerProcess({ WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}` });
  api = apiClient(server.baseUrl);
  [key, noGeoKey] = (await keysWithScopes(api, { geo: true, routing: true }, { routing: true })).keys as [string, string];
  otherKey = (await keysWithScopes(api, { geo: true })).keys[0]!;
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('geofences', () => {
  it('needs the geo scope and refuses shapes it cannot evaluate', async () => {
    const circle = { type: 'circle', center: { lat: 30.06, lng: 31.33 }, radiusM: 100 };
    expect((await post('/geofences', { name: 'x', shape: circle }, noGeoKey)).status).toBe(403);
    expect((await api.post('/geofences', { name: 'x', shape: circle })).status).toBe(401);
    const cases: [unknown, RegExp][] = [
      [{ name: 'x', shape: { type: 'polygon', coordinates: [[31.3, 30.0], [31.31, 30.0]] } }, /coordinates/],
      [{ name: 'x', shape: { type: 'polygon', coordinates: [[31.3, 30.0], [31.31, 30.0], [31.32, 30.0]] } }, /encloses no area/],
      [{ name: 'x', shape: { type: 'polygon', coordinates: [[31.0, 30.0], [32.5, 30.0], [32.5, 30.5]] } }, /spans at most 1 degree/],
      [{ name: 'x', shape: { type: 'circle', center: { lat: 30, lng: 31 }, radiusM: 0 } }, /radiusM/],
      [{ name: 'x', shape: circle, webhookUrl: 'http://10.0.0.1/hook' }, /webhookUrl/],
      [{ name: 'x', shape: { type: 'square' } }, /shape/],
    ];
    cases.push([{ deviceId: 'd', fixes: [{ lat: 30, lng: 31, at: new Date(Date.now() - 1000).toISOString() }, { lat: 30, lng: 31, at: new Date(Date.now() - 5000).toISOString() }] }, /time order/]);
    cases.push([{ deviceId: 'd', lat: 30, lng: 31, at: new Date(Date.now() - 2 * 86_400_000).toISOString() }, /24 hours/]);
    cases.push([{ deviceId: 'a b', lat: 30, lng: 31 }, /deviceId|letters/]);
    for (const [body, message] of cases) {
      const response = await post('deviceId' in (body as object) ? '/geofences/evaluate' : '/geofences', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(response.body.message)).toMatch(message);
    }
  });

  it('fires enter and leave along a driven route, signed webhooks in order, scoped to the project', async () => {
    const routed = await api.post('/routing/route', { payload: { locations: [FROM, TO] }, includeLabels: false }, undefined, withKey(key));
    expect(routed.status).toBe(201);
    const points = polyline.decode(routed.body.data.trip.legs[0].shape, 6) as [number, number][];
    const length = lineLength(points);
    expect(length).toBeGreaterThan(1_000);
    // zone sites the route passes once: no point more than 300 m further along (or back) comes within 250 m
    const metresBetween = (a: [number, number], b: [number, number]) => Math.hypot((a[0] - b[0]) * M_PER_DEG, (a[1] - b[1]) * M_PER_DEG * Math.cos((a[0] * Math.PI) / 180));
    const passedOnce = (at: number) => {
      const site = pointAlong(points, at);
      for (let m = 0; m <= length; m += 10) if (Math.abs(m - at) > 300 && metresBetween(site, pointAlong(points, m)) < 250) return false;
      return true;
    };
    const siteNear = (fraction: number) => {
      for (let step = 0; step < 40; step++) for (const sign of [1, -1]) {
        const at = length * fraction + sign * step * 25;
        if (at > 300 && at < length - 300 && passedOnce(at)) return at;
      }
      throw new Error(`no zone site near ${fraction} of the route`);
    };
    const circleAt = siteNear(0.3);
    const gateAt = siteNear(0.7);
    expect(Math.abs(gateAt - circleAt)).toBeGreaterThan(400);
    const [cLat, cLng] = pointAlong(points, circleAt);
    // a gate across the road: 120 m along the local direction of travel, 100 m across it
    const [pLat, pLng] = pointAlong(points, gateAt);
    const [aLat, aLng] = pointAlong(points, gateAt - 60);
    const [bLat, bLng] = pointAlong(points, gateAt + 60);
    const north = (bLat - aLat) * M_PER_DEG;
    const east = (bLng - aLng) * M_PER_DEG * Math.cos((pLat * Math.PI) / 180);
    const norm = Math.hypot(north, east);
    const [un, ue] = [north / norm, east / norm];
    const corner = (along: number, across: number) => offset(pLat, pLng, un * along - ue * across, ue * along + un * across);
    const square = [corner(-60, -50), corner(60, -50), corner(60, 50), corner(-60, 50)].map(([lat, lng]) => [lng, lat]);

    const circleZone = await post('/geofences', { name: 'Depot', shape: { type: 'circle', center: { lat: cLat, lng: cLng }, radiusM: 120 }, hysteresisM: 15, webhookUrl: hookUrl, metadata: { site: 'depot-1' } });
    expect(circleZone.status).toBe(201);
    expect(circleZone.body.webhookSecret).toMatch(/^whsec_/);
    const polygonZone = await post('/geofences', { name: 'Customer', shape: { type: 'polygon', coordinates: [...square, square[0]] }, hysteresisM: 15, webhookUrl: hookUrl });
    expect(polygonZone.status).toBe(201);
    expect(polygonZone.body.shape.coordinates).toHaveLength(4);
    const farZone = await post('/geofences', { name: 'Elsewhere', shape: { type: 'circle', center: { lat: 30.2, lng: 31.5 }, radiusM: 500 } });
    expect(farZone.status).toBe(201);
    expect(farZone.body.webhookSecret).toBeUndefined();

    // another project sees none of them
    expect((await get(`/geofences/${circleZone.body.id}`, otherKey)).status).toBe(404);
    expect((await get('/geofences', otherKey)).body.total).toBe(0);
    const listed = await get('/geofences');
    expect(listed.body.items.map((zone: { id: string }) => zone.id)).toEqual([circleZone.body.id, polygonZone.body.id, farZone.body.id]);

    // drive: one fix every 10 m, one second apart, sent as the device buffered them (up to 500 a call)
    const start = Date.now() - 10 * 60_000;
    const fixes: { lat: number; lng: number; at: string }[] = [];
    for (let meters = 0; meters <= length; meters += 10) {
      const [lat, lng] = pointAlong(points, meters);
      fixes.push({ lat, lng, at: new Date(start + fixes.length * 1000).toISOString() });
    }
    expect(fixes.length).toBeLessThanOrEqual(500);
    const first = await post('/geofences/evaluate', { deviceId: 'car-1', ...fixes[0] });
    expect(first.body).toMatchObject({ inside: [], events: [], fixes: 1 });
    const driven = await post('/geofences/evaluate', { deviceId: 'car-1', fixes: fixes.slice(1) });
    expect(driven.status).toBe(201);
    expect(driven.body.inside).toEqual([]);
    const events = (driven.body.events as { geofenceId: string; type: string; fix: number }[]).map((event) => ({ ...event, fix: event.fix + 1 }));
    expect(events.map((event) => [event.geofenceId, event.type])).toEqual([
      [circleZone.body.id, 'enter'],
      [circleZone.body.id, 'leave'],
      [polygonZone.body.id, 'enter'],
      [polygonZone.body.id, 'leave'],
    ]);
    // hysteresis: entered only 15 m inside the circle, left only 15 m outside
    const distanceToCenter = (fix: number) => {
      const [lat, lng] = pointAlong(points, fix * 10);
      return Math.hypot((lat - cLat) * M_PER_DEG, (lng - cLng) * M_PER_DEG * Math.cos((cLat * Math.PI) / 180));
    };
    expect(distanceToCenter(events[0]!.fix)).toBeLessThanOrEqual(105 + 1);
    expect(distanceToCenter(events[0]!.fix - 1)).toBeGreaterThan(105 - 1);
    expect(distanceToCenter(events[1]!.fix)).toBeGreaterThanOrEqual(135 - 1);

    // webhooks: two per zone, signed with the zone's secret, in seq order
    const deadline = Date.now() + 20_000;
    while (deliveries.length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(deliveries).toHaveLength(4);
    const bodies = deliveries.map((delivery) => {
      const parsed = JSON.parse(delivery.body.toString('utf8'));
      const secret = parsed.geofenceId === circleZone.body.id ? circleZone.body.webhookSecret : polygonZone.body.webhookSecret;
      expect(verifyWebhookSignature(secret, delivery.headers, delivery.body)).toMatchObject({ valid: true, webhookId: `${parsed.geofenceId}:${parsed.seq}` });
      expect(verifyWebhookSignature(secret, delivery.headers, Buffer.from(delivery.body.toString('utf8').replace('car-1', 'car-2'))).valid).toBe(false);
      expect(delivery.headers['webhook-id']).toBe(`${parsed.geofenceId}:${parsed.seq}`);
      return parsed;
    });
    const ofZone = (id: string) => bodies.filter((body) => body.geofenceId === id).map((body) => [body.seq, body.type]);
    expect(ofZone(circleZone.body.id)).toEqual([[1, 'enter'], [2, 'leave']]);
    expect(ofZone(polygonZone.body.id)).toEqual([[1, 'enter'], [2, 'leave']]);
    expect(bodies.find((body) => body.geofenceId === circleZone.body.id).data).toMatchObject({ deviceId: 'car-1', name: 'Depot', metadata: { site: 'depot-1' } });

    const log = await get(`/geofences/${circleZone.body.id}/webhook-deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.deliveries.map((attempt: { seq: number; outcome: string; httpStatus: number }) => [attempt.seq, attempt.outcome, attempt.httpStatus])).toEqual([
      [2, 'delivered', 204],
      [1, 'delivered', 204],
    ]);
    expect((await get(`/geofences/${circleZone.body.id}/webhook-deliveries`, otherKey)).status).toBe(404);
    expect((await api.delete(`/geofences/${farZone.body.id}`, undefined)).status).toBe(401);
  }, 120_000);

  it('keeps state in the hysteresis band and fires dwell once per visit', async () => {
    const center = { lat: 30.05, lng: 31.3 };
    const zone = (await post('/geofences', { name: 'Yard', shape: { type: 'circle', center, radiusM: 150 }, hysteresisM: 20, dwellSec: 60 })).body;
    const start = Date.now() - 60 * 60_000;
    const at = (seconds: number) => new Date(start + seconds * 1000).toISOString();
    // metres from the centre along a meridian: the band is 130 to 170 m
    const fix = async (metres: number, seconds: number) => {
      const [lat, lng] = offset(center.lat, center.lng, metres, 0);
      const response = await post('/geofences/evaluate', { deviceId: 'truck-7', lat, lng, at: at(seconds) });
      expect(response.status).toBe(201);
      return response.body as { inside: string[]; events: { type: string; geofenceId: string }[] };
    };
    const types = (body: { events: { type: string }[] }) => body.events.map((event) => event.type);
    expect(types(await fix(200, 0))).toEqual([]);
    expect(types(await fix(160, 1))).toEqual([]);
    expect((await fix(140, 2)).inside).toEqual([]);
    const entered = await fix(120, 3);
    expect(types(entered)).toEqual(['enter']);
    expect(entered.inside).toEqual([zone.id]);
    expect(types(await fix(160, 4))).toEqual([]);
    expect(types(await fix(140, 30))).toEqual([]);
    expect(types(await fix(100, 64))).toEqual(['dwell']);
    expect(types(await fix(100, 90))).toEqual([]);
    const left = await fix(175, 91);
    expect(types(left)).toEqual(['leave']);
    expect(left.inside).toEqual([]);
    // a second visit dwells again
    expect(types(await fix(0, 100))).toEqual(['enter']);
    expect(types(await fix(0, 170))).toEqual(['dwell']);
    // far away in one jump: left
    expect(types(await fix(50_000, 171))).toEqual(['leave']);
    // a deleted zone is no longer evaluated; another project cannot delete it
    expect(await del(`/geofences/${zone.id}`, otherKey)).toBe(404);
    expect(await del(`/geofences/${zone.id}`)).toBe(200);
    expect(await fix(0, 200)).toMatchObject({ inside: [], events: [] });
    expect((await get(`/geofences/${zone.id}`)).status).toBe(404);
  });
});
