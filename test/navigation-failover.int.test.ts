/**
 * Sessions across processes, on the real services (Postgres, Redis, NATS):
 * create on A and stream on B; then kill -9 the owner mid-drive and carry on
 * through the survivor, with no event lost or duplicated.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.js';
import { driveAlong } from './support/drive.js';
import { useServerCluster } from './support/server-cluster.js';
import type { ServerProcess } from './support/server-process.js';
import { connectStream, streamUrl, type Frame } from './support/stream-client.js';

const ORIGIN = { lat: 30.0626, lng: 31.3219 };
const DESTINATION = { lat: 30.07, lng: 31.34 };
const { start } = useServerCluster('nav', 'navigation-failover-test-secret-0123456789abcdef');

const eventsOf = (frames: Frame[]) => frames.filter((frame) => frame.type === 'event').map((frame) => frame.event);

describe('navigation sessions across processes', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let token: string;

  beforeAll(async () => {
    a = await start();
    b = await start();
    token = (await registerUser(apiClient(a.baseUrl), 'failover')).token;
  });

  it('streams a session driven on A to a watch-only socket on B (phone and watch on different processes)', async () => {
    const created = await apiClient(a.baseUrl).post('/navigation/sessions', { origin: ORIGIN, destination: DESTINATION }, token);
    const session = created.body;
    const phone = await connectStream(streamUrl(a.baseUrl, session.sessionId), { authorization: `Bearer ${token}` });
    const watch = await connectStream(streamUrl(b.baseUrl, session.sessionId), { authorization: `Bearer ${token}` });
    await Promise.all([phone.waitFor((frame) => frame.type === 'ready'), watch.waitFor((frame) => frame.type === 'ready')]);
    const fixes = driveAlong(session.route, { noiseMeters: 5, seed: 32, startTime: Date.now() });
    for (let index = 0; index < fixes.length; index += 5) phone.send({ type: 'fixes', fixes: fixes.slice(index, index + 5) });
    await watch.waitFor((frame) => frame.type === 'event' && frame.event.type === 'arrived', 30_000);
    expect(eventsOf(watch.frames)).toEqual(eventsOf(phone.frames));
    const progress = watch.frames.filter((frame) => frame.type === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    await Promise.all([phone.close(), watch.close()]);
  });

  it('creates on A, streams on B; after kill -9 of A mid-drive B takes over with every event exactly once', { timeout: 90_000 }, async () => {
    const apiA = apiClient(a.baseUrl);
    const apiB = apiClient(b.baseUrl);
    const created = await apiA.post('/navigation/sessions', { origin: ORIGIN, destination: DESTINATION }, token);
    expect(created.status).toBe(201);
    const session = created.body;
    // B serves the session's REST reads through the owner on A
    expect((await apiB.get(`/navigation/sessions/${session.sessionId}`, token)).body).toMatchObject({ sessionId: session.sessionId, status: 'active' });

    const stream = await connectStream(streamUrl(b.baseUrl, session.sessionId), { authorization: `Bearer ${token}` });
    await stream.waitFor((frame) => frame.type === 'ready');
    const fixes = driveAlong(session.route, { noiseMeters: 5, seed: 31, startTime: Date.now() });
    const batches: (typeof fixes)[] = [];
    for (let index = 0; index < fixes.length; index += 5) batches.push(fixes.slice(index, index + 5));
    const half = Math.floor(batches.length / 2);
    for (let index = 0; index < half; index++) {
      stream.send({ type: 'fixes', fixes: batches[index], id: `b${index}` });
      await stream.waitFor((frame) => frame.id === `b${index}`);
    }
    const beforeKill = eventsOf(stream.frames).length;
    expect(beforeKill).toBeGreaterThan(0);
    // a batch in flight as the owner dies
    stream.send({ type: 'fixes', fixes: batches[half], id: `b${half}` });
    // kill -9, leaving the shared schema in place (stop() would drop it)
    const exited = new Promise((resolve) => a.child.once('exit', resolve));
    a.child.kill('SIGKILL');
    await exited;
    for (let index = half + 1; index < batches.length; index++) stream.send({ type: 'fixes', fixes: batches[index], id: `b${index}` });
    await stream.waitFor((frame) => frame.type === 'event' && frame.event.type === 'arrived', 60_000).catch((error) => {
      console.log(JSON.stringify(stream.frames.filter((frame) => frame.type !== 'progress').slice(-30)));
      console.log(b.output.filter((line) => !line.includes('"msg":"request"')).slice(-30).join('\n'));
      throw error;
    });

    const streamed = eventsOf(stream.frames);
    expect(streamed.map((event) => event.seq)).toEqual(streamed.map((_, index) => index + 1));
    const log = await apiB.get(`/navigation/sessions/${session.sessionId}/events?since=0`, token);
    expect(log.body.status).toBe('arrived');
    expect(log.body.events).toEqual(streamed);
    expect(streamed.filter((event) => event.type === 'arrived')).toHaveLength(1);
    // each maneuver completed once, in order
    const completed = streamed.filter((event) => event.type === 'maneuver_completed').map((event) => event.data.maneuverIndex);
    expect(completed).toEqual([...new Set(completed)].sort((x, y) => x - y));
    // log lines are written in batches (at least every 200 ms): under load the line may still be on its way
    await expect.poll(() => b.output.some((line) => line.includes('navigation session taken over') && line.includes(session.sessionId)), { timeout: 5_000 }).toBe(true);
    const snapshot = await apiB.get(`/navigation/sessions/${session.sessionId}`, token);
    expect(snapshot.body.eventSeq).toBe(streamed.length);
    await stream.close();
  });

  it('hands its sessions back on SIGTERM with the progress last answered, even progress not yet written', { timeout: 60_000 }, async () => {
    const c = await start();
    const apiC = apiClient(c.baseUrl);
    const session = (await apiC.post('/navigation/sessions', { origin: ORIGIN, destination: DESTINATION }, token)).body;
    const path = `/navigation/sessions/${session.sessionId}`;
    const fixes = driveAlong(session.route, { noiseMeters: 0, seed: 7, startTime: Date.now() });
    await apiC.post(`${path}/positions`, { positions: fixes.slice(0, 3) }, token);
    // one more fix that raises no event: answered from memory, written at the next checkpoint or on shutdown
    const quiet = await apiC.post(`${path}/positions`, { positions: fixes.slice(3, 4) }, token);
    expect(quiet.body.newEvents).toEqual([]);
    const answered = (await apiC.get(path, token)).body;
    const exited = new Promise((resolve) => c.child.once('exit', resolve));
    c.child.kill('SIGTERM');
    await exited;
    const served = (await apiClient(b.baseUrl).get(path, token)).body;
    expect(served.lastFix).toEqual(answered.lastFix);
    expect(served.progress).toEqual(answered.progress);
    expect(served.eventSeq).toBe(answered.eventSeq);
  });
});
