/**
 * Chaos: the NATS server of a two-process deployment dies and comes back (issue #33, chaos 2). The bus is a NATS
 * server this test owns (`support/nats-server.ts`), on a port of its own, with Postgres and Redis the shared ones.
 * While it is away both processes say so on /ready (503 naming `bus`) and a session keeps being driven on its
 * owner; when it is back on the same port both reconnect by themselves, and a socket watching the session from the
 * other process — whose frames came over the bus — ends with every event exactly once, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.js';
import { readiness, until } from './support/chaos.js';
import { driveAlong, type DriveFix } from './support/drive.js';
import { startOwnNatsServer, type OwnNatsServer } from './support/nats-server.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { sharedDeployment, usingRealServices } from './support/services.js';
import { connectStream, streamUrl, type Frame, type StreamClient } from './support/stream-client.js';

const ORIGIN = { lat: 30.0626, lng: 31.3219 };
const DESTINATION = { lat: 30.07, lng: 31.34 };
const SESSIONS = 4;
const BATCH = 5;

const eventsOf = (frames: Frame[]) => frames.filter((frame) => frame.type === 'event').map((frame) => frame.event);
const arrived = (frame: Frame) => frame.type === 'event' && frame.event.type === 'arrived';

describe.skipIf(!usingRealServices)('NATS restarted under a two-process deployment (real services only: the embedded bus lives in the process)', () => {
  let nats: OwnNatsServer;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    nats = await startOwnNatsServer();
    const shared = { ...sharedDeployment('chaosnats'), NATS_URL: nats.url, JWT_SECRET: 'chaos-nats-test-secret-0123456789abcdef0123' };
    servers.push(await startServerProcess(shared));
    servers.push(await startServerProcess(shared));
  });

  afterAll(async () => {
    for (const server of servers.reverse()) await server.stop('SIGKILL').catch(() => undefined);
    await nats?.close();
  });

  it('reports the outage on /ready, reconnects by itself, and the watching sockets end with every event once', { timeout: 180_000 }, async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const apiA = apiClient(a.baseUrl);
    const { token } = await registerUser(apiA, 'chaos-nats');
    const headers = { authorization: `Bearer ${token}` };
    const drives: { sessionId: string; batches: DriveFix[][]; phone: StreamClient; watch: StreamClient; acked: number }[] = [];
    for (let index = 0; index < SESSIONS; index++) {
      const session = (await apiA.post('/navigation/sessions', { origin: ORIGIN, destination: DESTINATION }, token)).body;
      const fixes = driveAlong(session.route, { noiseMeters: 4, seed: 40 + index, startTime: Date.now() });
      const batches: DriveFix[][] = [];
      for (let at = 0; at < fixes.length; at += BATCH) batches.push(fixes.slice(at, at + BATCH));
      // the phone on the owner (A), a watch on B: B's frames come over the bus
      const phone = await connectStream(streamUrl(a.baseUrl, session.sessionId), headers);
      const watch = await connectStream(streamUrl(b.baseUrl, session.sessionId), headers);
      await Promise.all([phone.waitFor((frame) => frame.type === 'ready'), watch.waitFor((frame) => frame.type === 'ready')]);
      drives.push({ sessionId: session.sessionId, batches, phone, watch, acked: 0 });
    }
    const driveOn = async (drive: (typeof drives)[number], until: number) => {
      while (drive.acked < Math.min(until, drive.batches.length) && !drive.phone.frames.some(arrived)) {
        const id = `b${drive.acked}`;
        drive.phone.send({ type: 'fixes', fixes: drive.batches[drive.acked], id });
        await drive.phone.waitFor((frame) => frame.id === id, 30_000);
        drive.acked++;
      }
    };
    await Promise.all(drives.map((drive) => driveOn(drive, Math.floor(drive.batches.length / 3))));
    expect(drives.every((drive) => eventsOf(drive.watch.frames).length > 0)).toBe(true);

    await nats.stop();
    // both processes report the bus while it is away (their other dependencies stay fine)
    for (const server of [a, b]) {
      const ready = await until(() => readiness(server), (value) => value.status === 503, 20_000);
      expect(ready).toEqual({ status: 503, failed: ['bus'] });
    }
    expect((await fetch(`${a.baseUrl}/health`)).status).toBe(200);
    // the owner serves its sessions meanwhile: the phones drive on (their events are stored as ever)
    await Promise.all(drives.map((drive) => driveOn(drive, Math.floor((2 * drive.batches.length) / 3))));
    // events were raised that the watches on B could not get meanwhile
    const behind = drives.filter((drive) => eventsOf(drive.phone.frames).length > eventsOf(drive.watch.frames).length);
    expect(behind.length).toBeGreaterThan(0);

    await nats.start();
    for (const server of [a, b]) expect(await until(() => readiness(server), (value) => value.status === 200, 60_000)).toEqual({ status: 200, failed: [] });
    await Promise.all(
      drives.map(async (drive) => {
        await driveOn(drive, drive.batches.length);
        await drive.watch.waitFor(arrived, 60_000);
      }),
    );

    const apiB = apiClient(b.baseUrl);
    for (const drive of drives) {
      const log = await apiB.get(`/navigation/sessions/${drive.sessionId}/events?since=0`, token);
      expect(log.body.status).toBe('arrived');
      const seqs = log.body.events.map((event: { seq: number }) => event.seq);
      expect(seqs).toEqual(seqs.map((_: number, index: number) => index + 1));
      expect(eventsOf(drive.phone.frames), drive.sessionId).toEqual(log.body.events);
      // what the watch missed while the bus was away was filled in from the log: nothing lost, nothing twice
      expect(eventsOf(drive.watch.frames), drive.sessionId).toEqual(log.body.events);
    }
    // and the bus carries commands again: B serves a read of a session A owns
    expect((await apiB.get(`/navigation/sessions/${drives[0]!.sessionId}`, token)).body).toMatchObject({ status: 'arrived' });
    await Promise.all(drives.flatMap((drive) => [drive.phone.close(), drive.watch.close()]));
  });
});
