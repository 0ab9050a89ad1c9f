/**
 * Live fleets across processes, on the real services (Postgres, Redis, NATS):
 * create on A, stream on A and B, add a stop through B; then kill -9 A and
 * carry on through B, which takes the fleet over from the store with its plan
 * and its locked stops.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { sharedDeployment } from './support/services.js';
import { connectStream, fleetStreamUrl, type Frame } from './support/stream-client.js';

/** Nasr City streets. */
const DEPOT = { lat: 30.0626, lng: 31.3219 };
const STOPS = [
  { id: 'a', lat: 30.055, lng: 31.33 },
  { id: 'b', lat: 30.0655, lng: 31.3105 },
  { id: 'c', lat: 30.0675, lng: 31.3285 },
];
const shared = {
  ...sharedDeployment('fleet'),
  JWT_SECRET: 'fleet-failover-test-secret-0123456789abcdef',
};
const servers: ServerProcess[] = [];

afterAll(async () => {
  for (const server of servers.reverse()) await server.stop('SIGKILL').catch(() => undefined);
});

const planFrame = (version: number) => (frame: Frame) => frame.type === 'plan' && frame.planVersion === version;
const plannedStops = (plan: { routes: { stopIds: string[] }[] }) => plan.routes.flatMap((route) => route.stopIds);

describe('live fleets across processes', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let token: string;

  beforeAll(async () => {
    a = await startServerProcess(shared);
    servers.push(a);
    b = await startServerProcess(shared);
    servers.push(b);
    token = (await registerUser(apiClient(a.baseUrl), 'fleet-failover')).token;
  });

  it('streams one fleet in two processes; after kill -9 of its owner the other takes it over, locked stops kept', { timeout: 90_000 }, async () => {
    const apiA = apiClient(a.baseUrl);
    const apiB = apiClient(b.baseUrl);
    const created = await apiA.post('/optimize/fleets', { vehicles: [{ id: 'van-1', start: DEPOT }, { id: 'van-2', start: DEPOT }], stops: STOPS }, token);
    expect(created.status).toBe(201);
    const fleetId = created.body.fleetId;
    const headers = { authorization: `Bearer ${token}` };
    const onA = await connectStream(fleetStreamUrl(a.baseUrl, fleetId), headers);
    const onB = await connectStream(fleetStreamUrl(b.baseUrl, fleetId), headers);
    await Promise.all([onA, onB].map((stream) => stream.waitFor((frame) => frame.type === 'ready')));

    // B forwards to the owner on A; the new plan reaches both processes' subscribers
    onB.send({ type: 'add_stops', stops: [{ id: 'd', lat: 30.07, lng: 31.34 }], id: 'add' });
    expect(await onB.waitFor((frame) => frame.id === 'add')).toMatchObject({ type: 'ack', changeSeq: 2 });
    for (const stream of [onA, onB]) expect(plannedStops((await stream.waitFor(planFrame(2), 20_000)).plan)).toContain('d');
    const done = (await onB.waitFor(planFrame(2))).plan.routes.find((route: { stopIds: string[] }) => route.stopIds.length > 0).stopIds[0];
    expect((await apiB.post(`/optimize/fleets/${fleetId}/events`, { events: [{ type: 'complete_stop', stopId: done }] }, token)).status).toBe(202);
    await onB.waitFor(planFrame(3), 20_000);

    const exited = new Promise((resolve) => a.child.once('exit', resolve));
    a.child.kill('SIGKILL');
    await exited;
    onB.send({ type: 'cancel_stop', stopId: 'd', id: 'after-kill' });
    expect(await onB.waitFor((frame) => frame.id === 'after-kill', 20_000)).toMatchObject({ type: 'ack', changeSeq: 4, planVersion: 3 });
    const fourth = await onB.waitFor(planFrame(4), 20_000);
    expect(plannedStops(fourth.plan)).not.toContain('d');
    expect(plannedStops(fourth.plan)).not.toContain(done);
    expect(fourth.plan.routes.flatMap((route: { completedStopIds: string[] }) => route.completedStopIds)).toEqual([done]);
    // log lines are written in batches (at least every 200 ms)
    await expect.poll(() => b.output.some((line) => line.includes('fleet taken over') && line.includes(fleetId)), { timeout: 5_000 }).toBe(true);
    const versions = onB.frames.filter((frame) => frame.type === 'plan').map((frame) => frame.planVersion);
    expect(versions).toEqual([1, 2, 3, 4]);
    await onB.close();
  });
});
