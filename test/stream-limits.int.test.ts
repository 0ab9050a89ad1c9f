/**
 * WebSocket limits of the stream channels (navigation sessions, live fleets), black-box: sockets per user, per
 * API key and per client address (behind a trusted proxy), unauthenticated sockets per address and their time
 * to authenticate, the message size limit (an error frame, then 1009), and client messages held to the same
 * input checks as HTTP bodies (NUL, lone surrogates, nesting depth).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { keysWithScopes } from './support/api-keys.js';
import { useServer } from './support/server-fixture.js';
import { connectStream, fleetStreamUrl, streamUrl, type StreamClient } from './support/stream-client.js';

const AUTH_TIMEOUT_MS = 3_000;
const fixture = useServer({
  WS_MAX_PER_USER: '2',
  WS_MAX_PER_KEY: '3',
  WS_MAX_PER_IP: '4',
  WS_MAX_UNAUTHENTICATED_PER_IP: '2',
  WS_AUTH_TIMEOUT_MS: String(AUTH_TIMEOUT_MS),
  // the test client is the proxy: X-Forwarded-For names the client address each test counts against
  TRUSTED_PROXIES: '127.0.0.1',
});
const api = fixture.api;
const ORIGIN = { lat: 30.0626, lng: 31.3219 };
const DESTINATION = { lat: 30.07, lng: 31.34 };

interface Streamer {
  token: string;
  sessionId: string;
}

async function streamer(label: string): Promise<Streamer> {
  const { token } = await registerUser(api, label);
  const created = await api.post('/navigation/sessions', { origin: ORIGIN, destination: DESTINATION }, token);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { token, sessionId: created.body.sessionId };
}

const from = (address: string) => ({ 'x-forwarded-for': address });
const bearer = (token: string, address: string) => ({ authorization: `Bearer ${token}`, ...from(address) });

/** A navigation stream that got its ready frame. */
async function streaming(who: Streamer, address: string): Promise<StreamClient> {
  const stream = await connectStream(streamUrl(fixture.server.baseUrl, who.sessionId), bearer(who.token, address));
  await stream.waitFor((frame) => frame.type === 'ready');
  return stream;
}

/** The socket was opened, then closed at once with 4429 after an error frame naming the limit. */
async function expectTooMany(stream: StreamClient, limit: string, max: number): Promise<void> {
  const refusal = await stream.waitFor((frame) => frame.type === 'error');
  expect(refusal).toMatchObject({ statusCode: 429, code: 'TOO_MANY_STREAMS', details: { limit, max } });
  expect((await stream.closed).code).toBe(4429);
  expect(stream.frames.some((frame) => frame.type === 'ready')).toBe(false);
}

describe('stream limits', () => {
  let alice: Streamer;

  beforeAll(async () => {
    alice = await streamer('alice');
  });

  it('caps the sockets of one user across channels; a closed socket frees its slot', async () => {
    const fleet = await api.post('/optimize/fleets', { name: 'limits', vehicles: [{ id: 'van', start: ORIGIN }], stops: [{ id: 's1', lat: DESTINATION.lat, lng: DESTINATION.lng }] }, alice.token);
    expect(fleet.status, JSON.stringify(fleet.body)).toBe(201);
    const navigation = await streaming(alice, '198.51.100.1');
    const fleetStream = await connectStream(fleetStreamUrl(fixture.server.baseUrl, fleet.body.fleetId), bearer(alice.token, '198.51.100.2'));
    await fleetStream.waitFor((frame) => frame.type === 'ready');
    // the third, from yet another address, by handshake credentials and by an auth message alike
    await expectTooMany(await connectStream(streamUrl(fixture.server.baseUrl, alice.sessionId), bearer(alice.token, '198.51.100.3')), 'user', 2);
    const late = await connectStream(streamUrl(fixture.server.baseUrl, alice.sessionId), from('198.51.100.3'));
    late.send({ type: 'auth', token: alice.token });
    await expectTooMany(late, 'user', 2);
    await fleetStream.close();
    const again = await streaming(alice, '198.51.100.3');
    await Promise.all([navigation.close(), again.close()]);
  });

  it('caps the sockets of one API key', async () => {
    const { keys } = await keysWithScopes(api, { routing: true });
    const key = keys[0]!;
    const created = await api.post('/navigation/sessions', { origin: ORIGIN, destination: DESTINATION }, undefined, { 'x-api-key': key });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const url = streamUrl(fixture.server.baseUrl, created.body.sessionId, `api_key=${encodeURIComponent(key)}`);
    const open: StreamClient[] = [];
    for (let index = 0; index < 3; index++) {
      open.push(await connectStream(url, from(`198.51.100.${10 + index}`)));
      await open[index]!.waitFor((frame) => frame.type === 'ready');
    }
    await expectTooMany(await connectStream(url, from('198.51.100.13')), 'key', 3);
    await open.shift()!.close();
    const again = await connectStream(url, from('198.51.100.13'));
    await again.waitFor((frame) => frame.type === 'ready');
    await Promise.all([...open, again].map((stream) => stream.close()));
  });

  it('caps the sockets of one client address, authenticated or not', async () => {
    const address = '203.0.113.20';
    const [bob, carol] = await Promise.all([streamer('bob'), streamer('carol')]);
    const open = [await streaming(bob, address), await streaming(bob, address), await streaming(carol, address), await streaming(carol, address)];
    await expectTooMany(await connectStream(streamUrl(fixture.server.baseUrl, alice.sessionId), bearer(alice.token, address)), 'ip', 4);
    await expectTooMany(await connectStream(streamUrl(fixture.server.baseUrl, alice.sessionId), from(address)), 'ip', 4);
    // another address is not affected
    const elsewhere = await streaming(alice, '203.0.113.21');
    await open.pop()!.close();
    open.push(await streaming(carol, address));
    await Promise.all([...open, elsewhere].map((stream) => stream.close()));
  });

  it('caps the unauthenticated sockets of one client address; authenticating frees the slot', async () => {
    const address = '203.0.113.30';
    const first = await connectStream(streamUrl(fixture.server.baseUrl, alice.sessionId), from(address));
    const second = await connectStream(streamUrl(fixture.server.baseUrl, alice.sessionId), from(address));
    await expectTooMany(await connectStream(streamUrl(fixture.server.baseUrl, alice.sessionId), from(address)), 'unauthenticated_ip', 2);
    first.send({ type: 'auth', token: alice.token });
    await first.waitFor((frame) => frame.type === 'ready');
    const third = await connectStream(streamUrl(fixture.server.baseUrl, alice.sessionId), from(address));
    await second.close();
    const fourth = await connectStream(streamUrl(fixture.server.baseUrl, alice.sessionId), from(address));
    fourth.send({ type: 'ping', id: 'p' });
    // not authenticated yet, but open: the ping is refused with a frame, not with a close
    expect(await fourth.waitFor((frame) => frame.type === 'error')).toMatchObject({ statusCode: 401, id: 'p' });
    await Promise.all([first.close(), third.close(), fourth.close()]);
  });

  it('closes a socket that does not authenticate in time with 4401, after an error frame', async () => {
    const startedAt = Date.now();
    const stream = await connectStream(streamUrl(fixture.server.baseUrl, alice.sessionId), from('203.0.113.40'));
    const closed = await Promise.race([stream.closed, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), AUTH_TIMEOUT_MS + 4_000))]);
    expect(closed?.code).toBe(4401);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(AUTH_TIMEOUT_MS - 500);
    expect(stream.frames).toEqual([expect.objectContaining({ type: 'error', statusCode: 401, code: 'UNAUTHENTICATED' })]);
  });

  it('answers a message over the size limit with an error frame, then closes with 1009', async () => {
    const stream = await streaming(alice, '203.0.113.50');
    stream.send({ type: 'ping', id: 'big', padding: 'x'.repeat(100_000) });
    const refusal = await stream.waitFor((frame) => frame.type === 'error');
    expect(refusal).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE', details: { limitBytes: 65_536 } });
    expect((await stream.closed).code).toBe(1009);
  });

  it('refuses NUL, lone surrogates and deep nesting in messages with an error frame naming the field', async () => {
    const stream = await streaming(alice, '203.0.113.60');
    const answerTo = (id: string) => stream.waitFor((frame) => frame.id === id);
    // fields no schema looks closely at (the correlation id, a field the schema drops) are checked too
    stream.send({ type: 'fix', fix: ORIGIN, id: 'nul\u0000' });
    expect(await answerTo('nul\u0000')).toMatchObject({
      type: 'error',
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: ['id: must not contain NUL (U+0000) characters'],
      details: { issues: [{ location: 'message', path: 'id', code: 'invalid_characters' }] },
    });
    stream.send({ type: 'fixes', fixes: [{ ...ORIGIN, note: 'lost \ud83d' }], id: 'surrogate' });
    expect(await answerTo('surrogate')).toMatchObject({ type: 'error', code: 'VALIDATION_ERROR', message: ['fixes.0.note: must not contain unpaired UTF-16 surrogates'] });
    stream.send({ type: 'fix', fix: { ...ORIGIN, capturedAt: '2024-05-01T10:00:00Z\u0000' }, id: 'captured' });
    expect(await answerTo('captured')).toMatchObject({ type: 'error', code: 'VALIDATION_ERROR', message: ['fix.capturedAt: must not contain NUL (U+0000) characters'] });
    let deep: unknown = 1;
    for (let level = 0; level < 70; level++) deep = [deep];
    stream.send({ type: 'ping', id: 'deep', extra: deep });
    expect(await answerTo('deep')).toMatchObject({ type: 'error', code: 'VALIDATION_ERROR', details: { issues: [{ code: 'too_deep' }] } });
    // the socket stays open and the session took no fix
    stream.send({ type: 'ping', id: 'after' });
    expect(await answerTo('after')).toMatchObject({ type: 'pong' });
    expect(stream.frames.some((frame) => frame.type === 'ack' || frame.type === 'progress')).toBe(false);
    await stream.close();
  });

  it('holds fleet messages to the same checks', async () => {
    const fleet = await api.post('/optimize/fleets', { name: 'checks', vehicles: [{ id: 'van', start: ORIGIN }], stops: [{ id: 's1', lat: DESTINATION.lat, lng: DESTINATION.lng }] }, alice.token);
    expect(fleet.status, JSON.stringify(fleet.body)).toBe(201);
    const stream = await connectStream(fleetStreamUrl(fixture.server.baseUrl, fleet.body.fleetId), bearer(alice.token, '203.0.113.70'));
    await stream.waitFor((frame) => frame.type === 'ready');
    stream.send({ type: 'cancel_stop', stopId: 's1', id: 'nul\u0000' });
    expect(await stream.waitFor((frame) => frame.id === 'nul\u0000')).toMatchObject({ type: 'error', statusCode: 400, code: 'VALIDATION_ERROR', message: ['id: must not contain NUL (U+0000) characters'] });
    stream.send({ type: 'add_stops', stops: [{ id: 's2', lat: ORIGIN.lat, lng: ORIGIN.lng, label: '\udc00' }], id: 'surrogate' });
    expect(await stream.waitFor((frame) => frame.id === 'surrogate')).toMatchObject({ type: 'error', code: 'VALIDATION_ERROR', message: ['stops.0.label: must not contain unpaired UTF-16 surrogates'] });
    expect(stream.frames.some((frame) => frame.type === 'ack')).toBe(false);
    await stream.close();
  });
});
