/**
 * Live fleets over REST and a real WebSocket: create a fleet on Nasr City
 * streets, two dispatchers subscribed, stops added, completed (locked) and
 * cancelled, resume with since, refusals and error frames.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { keysWithScopes } from './support/api-keys.js';
import { useServer } from './support/server-fixture.js';
import { connectStream, fleetStreamUrl, type Frame, type StreamClient } from './support/stream-client.js';

const fixture = useServer();
const api = fixture.api;
let token: string;
let otherToken: string;

/** Real points in Nasr City (the embedded data), on streets the routing engine snaps to. */
const DEPOT = { lat: 30.0626, lng: 31.3219 };
const EAST_DEPOT = { lat: 30.0585, lng: 31.3365 };
const STOPS = [
  { id: 'abbas-akkad', lat: 30.055, lng: 31.33 },
  { id: 'makram-ebeid', lat: 30.0655, lng: 31.3105 },
  { id: 'tayaran', lat: 30.0675, lng: 31.3285 },
];
const NEW_STOP = { id: 'mostafa-nahas', lat: 30.07, lng: 31.34 };
const LATE_STOP = { id: 'youssef-abbas', lat: 30.0605, lng: 31.3155 };

beforeAll(async () => {
  token = (await registerUser(api, 'dispatcher')).token;
  otherToken = (await registerUser(api, 'outsider')).token;
});

const bearer = () => ({ authorization: `Bearer ${token}` });
const plannedStops = (plan: { routes: { stopIds: string[] }[] }) => plan.routes.flatMap((route) => route.stopIds);

async function createFleet() {
  const created = await api.post(
    '/optimize/fleets',
    {
      name: 'Nasr City deliveries',
      vehicles: [
        { id: 'van-west', start: DEPOT, end: DEPOT },
        { id: 'van-east', start: EAST_DEPOT },
      ],
      stops: STOPS.map((stop) => ({ ...stop, serviceSeconds: 120 })),
    },
    token,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function subscribe(fleetId: string, query = ''): Promise<StreamClient> {
  const stream = await connectStream(fleetStreamUrl(fixture.server.baseUrl, fleetId, query), bearer());
  await stream.waitFor((frame) => frame.type === 'ready');
  return stream;
}

const planFrame = (version: number) => (frame: Frame) => frame.type === 'plan' && frame.planVersion === version;

describe('live fleets', () => {
  it('creates a fleet and answers it with its first plan, every stop on a route', async () => {
    const fleet = await createFleet();
    expect(fleet).toMatchObject({ name: 'Nasr City deliveries', planVersion: 1, changeSeq: 1, plan: { planVersion: 1, feasible: true, unassignedStopIds: [] } });
    expect(plannedStops(fleet.plan).sort()).toEqual(STOPS.map((stop) => stop.id).sort());
    expect(fleet.plan.routes.map((route: { vehicleId: string }) => route.vehicleId)).toEqual(['van-west', 'van-east']);
    const read = await api.get(`/optimize/fleets/${fleet.fleetId}/plan`, token);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ fleetId: fleet.fleetId, planVersion: 1, plan: { planVersion: 1 } });
  }, 30_000);

  it('fleet stream: add a stop → a new plan that contains it, with a diff, arrives on two subscribers', async () => {
    const fleet = await createFleet();
    const dispatcher = await subscribe(fleet.fleetId);
    const supervisor = await subscribe(fleet.fleetId);
    dispatcher.send({ type: 'add_stops', stops: [NEW_STOP], id: 'add-1' });
    const ack = await dispatcher.waitFor((frame) => frame.id === 'add-1');
    expect(ack).toMatchObject({ type: 'ack', changeSeq: 2, planVersion: 1 });
    for (const stream of [dispatcher, supervisor]) {
      const frame = await stream.waitFor(planFrame(2), 20_000);
      expect(frame).toMatchObject({ fleetId: fleet.fleetId, previousPlanVersion: 1, plan: { changeSeq: 2 }, diff: { added: [NEW_STOP.id], removed: [] } });
      expect(plannedStops(frame.plan)).toContain(NEW_STOP.id);
      expect(frame.diff.changedVehicleIds.length).toBeGreaterThan(0);
    }
    // the supervisor sent nothing, so it got no acks; both saw the same plan
    expect(supervisor.frames.some((frame) => frame.type === 'ack')).toBe(false);
    expect((await supervisor.waitFor(planFrame(2))).plan).toEqual((await dispatcher.waitFor(planFrame(2))).plan);
    await Promise.all([dispatcher.close(), supervisor.close()]);
  }, 40_000);

  it('keeps a completed stop locked on its vehicle through later plans, and refuses to cancel it', async () => {
    const fleet = await createFleet();
    const stream = await subscribe(fleet.fleetId);
    const route = fleet.plan.routes.find((each: { stopIds: string[] }) => each.stopIds.length > 0);
    const done = route.stopIds[0];
    const completed = await api.post(`/optimize/fleets/${fleet.fleetId}/events`, { events: [{ type: 'complete_stop', stopId: done }] }, token);
    expect(completed.status).toBe(202);
    expect(completed.body).toMatchObject({ changeSeq: 2, replanning: true });
    const second = await stream.waitFor(planFrame(2), 20_000);
    expect(second.diff.removed).toEqual([done]);
    stream.send({ type: 'add_stops', stops: [LATE_STOP], id: 'late' });
    const third = await stream.waitFor(planFrame(3), 20_000);
    for (const plan of [second.plan, third.plan]) {
      const owner = plan.routes.find((each: { vehicleId: string }) => each.vehicleId === route.vehicleId);
      expect(owner.completedStopIds).toEqual([done]);
      expect(plannedStops(plan)).not.toContain(done);
    }
    expect(plannedStops(third.plan)).toContain(LATE_STOP.id);
    const cancel = await api.post(`/optimize/fleets/${fleet.fleetId}/events`, { events: [{ type: 'cancel_stop', stopId: done }] }, token);
    expect(cancel.status).toBe(409);
    expect(cancel.body).toMatchObject({ code: 'STOP_CLOSED', details: { stopId: done, status: 'completed' } });
    stream.send({ type: 'cancel_stop', stopId: done, id: 'again' });
    expect(await stream.waitFor((frame) => frame.id === 'again')).toMatchObject({ type: 'error', statusCode: 409, code: 'STOP_CLOSED' });
    const stored = await api.get(`/optimize/fleets/${fleet.fleetId}`, token);
    expect(stored.body.stops.find((stop: { id: string }) => stop.id === done)).toMatchObject({ status: 'completed', completedBy: route.vehicleId });
    await stream.close();
  }, 60_000);

  it('resumes with since: a subscriber behind the current plan gets it first, then every newer version in order', async () => {
    const fleet = await createFleet();
    await api.post(`/optimize/fleets/${fleet.fleetId}/events`, { events: [{ type: 'add_stops', stops: [NEW_STOP] }] }, token);
    await expect.poll(async () => (await api.get(`/optimize/fleets/${fleet.fleetId}/plan`, token)).body.planVersion, { timeout: 20_000, interval: 250 }).toBe(2);
    const stream = await subscribe(fleet.fleetId, 'since=1');
    const resync = await stream.waitFor(planFrame(2));
    expect(resync).toMatchObject({ resync: true, previousPlanVersion: 1, diff: null });
    expect(plannedStops(resync.plan)).toContain(NEW_STOP.id);
    stream.send({ type: 'cancel_stop', stopId: NEW_STOP.id });
    const next = await stream.waitFor(planFrame(3), 20_000);
    expect(next.diff.removed).toEqual([NEW_STOP.id]);
    const versions = stream.frames.filter((frame) => frame.type === 'plan').map((frame) => frame.planVersion);
    expect(versions).toEqual([2, 3]);
    await stream.close();
  }, 60_000);

  it('refuses another caller (403 over REST and at the handshake), an unknown fleet (404), no credentials (401), a since past the current plan (400)', async () => {
    const fleet = await createFleet();
    expect((await api.get(`/optimize/fleets/${fleet.fleetId}`, otherToken)).status).toBe(403);
    expect((await api.post(`/optimize/fleets/${fleet.fleetId}/events`, { events: [{ type: 'reoptimize' }] }, otherToken)).status).toBe(403);
    await expect(connectStream(fleetStreamUrl(fixture.server.baseUrl, fleet.fleetId), { authorization: `Bearer ${otherToken}` })).rejects.toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    await expect(connectStream(fleetStreamUrl(fixture.server.baseUrl, '00000000-0000-4000-8000-000000000000'), bearer())).rejects.toMatchObject({ status: 404 });
    await expect(connectStream(fleetStreamUrl(fixture.server.baseUrl, fleet.fleetId), { authorization: 'Bearer nonsense' })).rejects.toMatchObject({ status: 401 });
    await expect(connectStream(fleetStreamUrl(fixture.server.baseUrl, fleet.fleetId, 'since=7'), bearer())).rejects.toMatchObject({ status: 400, body: { details: { planVersion: 1 } } });
    expect((await api.get(`/optimize/fleets/${fleet.fleetId}`)).status).toBe(401);
    // authenticated by the first message as another caller: an error frame, then the socket closes 4403
    const late = await connectStream(fleetStreamUrl(fixture.server.baseUrl, fleet.fleetId));
    late.send({ type: 'auth', token: otherToken, id: 'who' });
    expect(await late.waitFor((frame) => frame.id === 'who')).toMatchObject({ type: 'error', statusCode: 403 });
    expect((await late.closed).code).toBe(4403);
  }, 30_000);

  it('takes an API key with the optimize scope (query string); the fleet belongs to the key, not to its owner\'s bearer', async () => {
    const { userToken, keys } = await keysWithScopes(api, { optimize: true }, { routing: true });
    const [optimizeKey, routingKey] = keys as [string, string];
    const created = await api.post('/optimize/fleets', { vehicles: [{ id: 'van', start: DEPOT }], stops: STOPS }, undefined, { 'x-api-key': optimizeKey });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const fleetId = created.body.fleetId;
    const stream = await connectStream(fleetStreamUrl(fixture.server.baseUrl, fleetId, `api_key=${encodeURIComponent(optimizeKey)}`));
    await stream.waitFor((frame) => frame.type === 'ready');
    stream.send({ type: 'position', vehicleId: 'van', lat: 30.0626, lng: 31.3219, id: 'p1' });
    expect(await stream.waitFor((frame) => frame.id === 'p1')).toMatchObject({ type: 'ack', changeSeq: 1 });
    await stream.close();
    await expect(connectStream(fleetStreamUrl(fixture.server.baseUrl, fleetId, `api_key=${encodeURIComponent(routingKey)}`))).rejects.toMatchObject({ status: 403, body: { details: { missingScopes: ['optimize'] } } });
    await expect(connectStream(fleetStreamUrl(fixture.server.baseUrl, fleetId), { authorization: `Bearer ${userToken}` })).rejects.toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
  }, 30_000);

  it('answers bad messages with error frames and keeps the stream open', async () => {
    const fleet = await createFleet();
    const stream = await subscribe(fleet.fleetId);
    stream.send({ type: 'teleport', id: 'm1' });
    stream.send({ type: 'add_stops', stops: [{ lat: 95, lng: 31.33 }], id: 'm2' });
    stream.send({ type: 'complete_stop', stopId: 'no-such-stop', id: 'm3' });
    stream.send({ type: 'add_stops', stops: [{ id: STOPS[0]!.id, lat: 30.06, lng: 31.33 }], id: 'm4' });
    for (const id of ['m1', 'm2', 'm3', 'm4']) expect(await stream.waitFor((frame) => frame.id === id)).toMatchObject({ type: 'error', statusCode: 400, code: 'VALIDATION_ERROR' });
    stream.send({ type: 'ping', id: 'still-there' });
    expect(await stream.waitFor((frame) => frame.type === 'pong')).toMatchObject({ id: 'still-there' });
    expect(stream.frames.filter((frame) => frame.type === 'plan').map((frame) => frame.planVersion)).toEqual([1]);
    const bad = await api.post('/optimize/fleets', { vehicles: [] }, token);
    expect(bad.status).toBe(400);
    // the embedded data has no truck attributes: a fleet that cannot be planned is refused as such
    const truck = await api.post('/optimize/fleets', { costing: 'truck', vehicles: [{ id: 'lorry', start: DEPOT }], stops: STOPS }, token);
    expect(truck.status).toBe(400);
    expect(truck.body).toMatchObject({ code: 'COSTING_UNAVAILABLE' });
    await stream.close();
  }, 30_000);
});
