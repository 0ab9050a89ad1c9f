/**
 * The navigation stream over a real WebSocket: fixes in, progress, events and
 * re-routes out; resume with since; several watchers; authentication in the
 * handshake or the first message; refusals.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { driveAlong } from './support/drive.js';
import { useServer } from './support/server-fixture.js';
import { connectStream, streamUrl, type Frame } from './support/stream-client.js';

const fixture = useServer();
const api = fixture.api;
const ORIGIN = { lat: 30.0626, lng: 31.3219 };
const DESTINATION = { lat: 30.07, lng: 31.34 };
let token: string;
let otherToken: string;

beforeAll(async () => {
  token = (await registerUser(api, 'streamer')).token;
  otherToken = (await registerUser(api, 'outsider')).token;
});

async function createSession() {
  const created = await api.post('/navigation/sessions', { origin: ORIGIN, destination: DESTINATION }, token);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

const bearer = () => ({ authorization: `Bearer ${token}` });
const eventsOf = (frames: Frame[]) => frames.filter((frame) => frame.type === 'event').map((frame) => frame.event);

describe('navigation stream', () => {
  it('is described in the OpenAPI document with its protocol and frame schemas', async () => {
    const document = (await api.get('/openapi.json')).body;
    const operation = document.paths['/api/v1/navigation/sessions/{id}/stream'].get;
    expect(operation.description).toContain('"type":"fix"');
    expect(JSON.stringify(operation.responses)).toContain('resumedFrom');
  });

  it('streams a drive: ready, a progress frame per fix, every event once in order, ending arrived', async () => {
    const session = await createSession();
    const stream = await connectStream(streamUrl(fixture.server.baseUrl, session.sessionId), bearer());
    const ready = await stream.waitFor((frame) => frame.type === 'ready');
    expect(ready.session).toMatchObject({ sessionId: session.sessionId, status: 'active', eventSeq: 0 });
    const fixes = driveAlong(session.route, { noiseMeters: 5, seed: 21, startTime: Date.now() });
    let messages = 0;
    for (let index = 0; index < fixes.length; index += 3) {
      const batch = fixes.slice(index, index + 3);
      stream.send(batch.length === 1 ? { type: 'fix', fix: batch[0], id: `m${messages}` } : { type: 'fixes', fixes: batch, id: `m${messages}` });
      messages++;
    }
    await stream.waitFor((frame) => frame.type === 'event' && frame.event.type === 'arrived', 30_000);
    // every message is answered: an ack, or once arrived a 409 (the session takes no more fixes)
    const lastAnswer = await stream.waitFor((frame) => frame.id === `m${messages - 1}`, 10_000);
    if (lastAnswer.type === 'error') expect(lastAnswer).toMatchObject({ statusCode: 409, code: 'SESSION_ENDED' });
    const events = eventsOf(stream.frames);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events[events.length - 1].type).toBe('arrived');
    const progress = stream.frames.filter((frame) => frame.type === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((frame) => frame.fixSeq)).toEqual([...progress.map((frame) => frame.fixSeq)].sort((a, b) => a - b));
    expect(progress[progress.length - 1]).toMatchObject({ status: 'arrived', distanceRemainingMeters: 0 });
    expect(stream.frames.some((frame) => frame.type === 'status' && frame.status === 'arrived')).toBe(true);
    // the event log over REST holds the same events
    const log = await api.get(`/navigation/sessions/${session.sessionId}/events?since=0`, token);
    expect(log.body.events).toEqual(events);
    await stream.close();
  });

  it('resumes with since: after a reconnect every event arrives exactly once, in order', async () => {
    const session = await createSession();
    const fixes = driveAlong(session.route, { noiseMeters: 5, seed: 22, startTime: Date.now() });
    const half = Math.floor(fixes.length / 2);
    const first = await connectStream(streamUrl(fixture.server.baseUrl, session.sessionId), bearer());
    await first.waitFor((frame) => frame.type === 'ready');
    first.send({ type: 'fixes', fixes: fixes.slice(0, 20), id: 'a' });
    await first.waitFor((frame) => frame.type === 'ack' && frame.id === 'a');
    const seen = eventsOf(first.frames);
    const lastSeen = seen.length > 1 ? seen[seen.length - 2].seq : 0; // pretend the last one was lost on the way
    await first.close();
    // events happen while nobody is connected
    for (let index = 20; index < half; index += 10) await api.post(`/navigation/sessions/${session.sessionId}/positions`, { positions: fixes.slice(index, Math.min(index + 10, half)) }, token);
    const second = await connectStream(streamUrl(fixture.server.baseUrl, session.sessionId, `since=${lastSeen}`), bearer());
    const ready = await second.waitFor((frame) => frame.type === 'ready');
    expect(ready.resumedFrom).toBe(lastSeen);
    for (let index = half; index < fixes.length; index += 10) second.send({ type: 'fixes', fixes: fixes.slice(index, index + 10) });
    await second.waitFor((frame) => frame.type === 'event' && frame.event.type === 'arrived', 30_000);
    const resumed = eventsOf(second.frames).map((event) => event.seq);
    const all = (await api.get(`/navigation/sessions/${session.sessionId}/events?since=0`, token)).body.events.map((event: { seq: number }) => event.seq);
    expect(resumed).toEqual(all.filter((seq: number) => seq > lastSeen));
    await second.close();
  });

  it('lets several sockets watch one session (phone and watch), each getting every event', async () => {
    const session = await createSession();
    const phone = await connectStream(streamUrl(fixture.server.baseUrl, session.sessionId), bearer());
    const watch = await connectStream(streamUrl(fixture.server.baseUrl, session.sessionId), bearer());
    await Promise.all([phone.waitFor((frame) => frame.type === 'ready'), watch.waitFor((frame) => frame.type === 'ready')]);
    const fixes = driveAlong(session.route, { noiseMeters: 5, seed: 23, startTime: Date.now() });
    for (let index = 0; index < fixes.length; index += 10) phone.send({ type: 'fixes', fixes: fixes.slice(index, index + 10) });
    await Promise.all([phone, watch].map((socket) => socket.waitFor((frame) => frame.type === 'event' && frame.event.type === 'arrived', 30_000)));
    expect(eventsOf(watch.frames)).toEqual(eventsOf(phone.frames));
    expect(watch.frames.some((frame) => frame.type === 'ack')).toBe(false);
    await Promise.all([phone.close(), watch.close()]);
  });

  it('authenticates with the first message when the handshake has no credentials', async () => {
    const session = await createSession();
    const stream = await connectStream(streamUrl(fixture.server.baseUrl, session.sessionId));
    stream.send({ type: 'fix', fix: ORIGIN });
    const refused = await stream.waitFor((frame) => frame.type === 'error');
    expect(refused).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
    stream.send({ type: 'auth', token });
    await stream.waitFor((frame) => frame.type === 'ready');
    stream.send({ type: 'ping', id: 'p' });
    expect(await stream.waitFor((frame) => frame.type === 'pong')).toMatchObject({ id: 'p' });
    await stream.close();
  });

  it('refuses another caller (403), an unknown session (404), no valid credentials (401), and bad messages (400 frames)', async () => {
    const session = await createSession();
    await expect(connectStream(streamUrl(fixture.server.baseUrl, session.sessionId), { authorization: `Bearer ${otherToken}` })).rejects.toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    await expect(connectStream(streamUrl(fixture.server.baseUrl, '00000000-0000-4000-8000-000000000000'), bearer())).rejects.toMatchObject({ status: 404 });
    await expect(connectStream(streamUrl(fixture.server.baseUrl, session.sessionId), { authorization: 'Bearer nonsense' })).rejects.toMatchObject({ status: 401 });
    await expect(connectStream(streamUrl(fixture.server.baseUrl, session.sessionId, 'since=-3'), bearer())).rejects.toMatchObject({ status: 400 });
    await expect(connectStream(streamUrl(fixture.server.baseUrl, session.sessionId, 'since=5'), bearer())).rejects.toMatchObject({ status: 400, body: { details: { eventSeq: 0 } } });
    const stream = await connectStream(streamUrl(fixture.server.baseUrl, session.sessionId), bearer());
    await stream.waitFor((frame) => frame.type === 'ready');
    stream.send({ type: 'fixes', fixes: Array.from({ length: 51 }, () => ORIGIN), id: 'big' });
    expect(await stream.waitFor((frame) => frame.type === 'error')).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR', id: 'big' });
    stream.send({ type: 'teleport' });
    await stream.waitFor((frame) => frame.type === 'error', 5_000, stream.frames.length);
    const closing = await connectStream(streamUrl(fixture.server.baseUrl, session.sessionId));
    closing.send({ type: 'auth', token: otherToken });
    expect(await closing.closed).toMatchObject({ code: 4403 });
    await stream.close();
  });

  it('takes an API key in the query string, held to its scopes; sessions belong to the key', async () => {
    const user = await registerUser(api, 'keyholder');
    await api.post('/developer/enroll', undefined, user.token);
    const organization = (await api.post('/developer/organizations', { name: 'Fleet' }, user.token)).body;
    const project = (await api.post('/developer/projects', { name: 'Nav', organizationId: organization.id }, user.token)).body;
    const routingKey = (await api.post('/developer/api-keys', { projectId: project.id, label: 'nav', scopes: { routing: true } }, user.token)).body;
    const otherKey = (await api.post('/developer/api-keys', { projectId: project.id, label: 'maps', scopes: { routing: false, tiles: true } }, user.token)).body;
    const created = await api.post('/navigation/sessions', { origin: ORIGIN, destination: DESTINATION }, undefined, { 'x-api-key': routingKey.key });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const stream = await connectStream(streamUrl(fixture.server.baseUrl, created.body.sessionId, `api_key=${encodeURIComponent(routingKey.key)}`));
    await stream.waitFor((frame) => frame.type === 'ready');
    stream.send({ type: 'fix', fix: ORIGIN, id: 'k1' });
    expect(await stream.waitFor((frame) => frame.id === 'k1')).toMatchObject({ type: 'ack', accepted: 1 });
    await stream.close();
    // a key without the routing scope, and the owner's own bearer token (a different caller than its key), are refused
    await expect(connectStream(streamUrl(fixture.server.baseUrl, created.body.sessionId, `api_key=${encodeURIComponent(otherKey.key)}`))).rejects.toMatchObject({ status: 403 });
    await expect(connectStream(streamUrl(fixture.server.baseUrl, created.body.sessionId), { authorization: `Bearer ${user.token}` })).rejects.toMatchObject({ status: 403 });
  });
});
