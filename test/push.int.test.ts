/**
 * Push delivery of inbox notifications (docs/commute.md, "Push delivery") black-box: a started server with
 * VAPID keys and an FCM-style provider pointing at a local receiver this test starts. A leave-now alert (the
 * commute clock injected so it is due at once) goes to every token of the user: a browser subscription gets
 * an encrypted Web Push message the receiver decrypts with the subscription's keys and a VAPID JWT it
 * verifies; a subscription answered 410 is removed; one answered 503 is retried and delivered; an android
 * token goes to the FCM URL with the bearer credential. `/ready` says which providers are configured.
 */
import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { importJWK, jwtVerify } from 'jose';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { nextMondayAt } from './support/commute-clock.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

const ece = createRequire(import.meta.url)('http_ece') as { decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer };

const HOME = { lat: 30.0626, lng: 31.3219 };
const WORK = { lat: 30.07, lng: 31.34 };
const FCM_CREDENTIAL = 'fcm-test-credential-0123456789';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const received: Received[] = [];
let flakyCalls = 0;
let receiver: Server;
let origin: string;
let server: ServerProcess;
let api: ApiClient;
const vapid = webpush.generateVAPIDKeys();

function subscription(path: string): { token: string; ecdh: ECDH; auth: Buffer } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const token = JSON.stringify({ endpoint: `${origin}${path}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } });
  return { token, ecdh, auth };
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      if (request.url === '/push/gone') response.writeHead(410).end();
      else if (request.url === '/push/flaky') response.writeHead(++flakyCalls === 1 ? 503 : 201).end();
      else response.writeHead(request.url === '/fcm' ? 200 : 201).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  server = await startServerProcess({
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:ops@example.com',
    PUSH_FCM_URL: `${origin}/fcm`,
    PUSH_FCM_TOKEN: FCM_CREDENTIAL,
    WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}`,
    PUSH_POLL_MS: '100',
    PUSH_RETRY_INITIAL_MS: '300',
    COMMUTE_ALERT_INTERVAL_MS: '150',
    COMMUTE_CLOCK_OFFSET_MS: String(nextMondayAt(7 * 60) - Date.now()),
  });
  api = apiClient(server.baseUrl);
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; received ${JSON.stringify(received.map((r) => r.path))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('push delivery', () => {
  it('/ready names the configured push providers', async () => {
    const ready = await fetch(`${server.baseUrl}/ready`);
    const body = (await ready.json()) as { providers: Record<string, string> };
    expect(ready.status).toBe(200);
    expect(body.providers).toEqual({ 'push-web': 'configured', 'push-android': 'configured', 'push-ios': 'not configured' });
  });

  it('delivers a notification to every token, removes a gone one and retries a failing one', async () => {
    const user = await registerUser(api, 'push');
    const ok = subscription('/push/ok');
    const gone = subscription('/push/gone');
    const flaky = subscription('/push/flaky');
    for (const token of [ok.token, gone.token, flaky.token]) expect((await api.post('/me/push-tokens', { token, platform: 'web' }, user.token)).status).toBe(201);
    expect((await api.post('/me/push-tokens', { token: 'fcm-registration-token-1', platform: 'android' }, user.token)).status).toBe(201);
    expect((await api.post('/me/push-tokens', { token: 'apns-device-token-1', platform: 'ios' }, user.token)).status).toBe(201);
    // due at once: the injected clock says 07:00 and the drive plus 5 minutes' buffer ends after 07:00
    const saved = await api.post('/me/commutes', { name: 'Office', home: HOME, work: WORK, arriveBy: '07:05', bufferMin: 5 }, user.token);
    expect(saved.status).toBe(201);

    const delivered = await until('the web push', () => received.find((entry) => entry.path === '/push/ok'));
    expect(delivered.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(delivered.headers.ttl)).toBeGreaterThan(0);
    const payload = JSON.parse(ece.decrypt(delivered.body, { version: 'aes128gcm', privateKey: ok.ecdh, authSecret: ok.auth.toString('base64url') }).toString('utf8'));
    expect(payload).toMatchObject({ type: 'commute_leave_now', title: 'Time to leave: Office', data: { commuteId: saved.body.id } });
    const inbox = (await api.get('/me/notifications', user.token)).body;
    expect(payload.id).toBe(inbox.items[0].id);

    // VAPID (RFC 8292): `vapid t=<ES256 JWT for this origin>, k=<our public key>`
    const authorization = /^vapid t=([^,]+), k=(.+)$/.exec(String(delivered.headers.authorization));
    expect(authorization).not.toBeNull();
    expect(authorization![2]).toBe(vapid.publicKey);
    const raw = Buffer.from(vapid.publicKey, 'base64url');
    const key = await importJWK({ kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') }, 'ES256');
    const { payload: claims } = await jwtVerify(authorization![1]!, key);
    expect(claims).toMatchObject({ aud: origin, sub: 'mailto:ops@example.com' });

    const fcm = await until('the FCM request', () => received.find((entry) => entry.path === '/fcm'));
    expect(fcm.headers.authorization).toBe(`Bearer ${FCM_CREDENTIAL}`);
    expect(JSON.parse(fcm.body.toString('utf8')).message).toMatchObject({ token: 'fcm-registration-token-1', notification: { title: 'Time to leave: Office' }, data: { type: 'commute_leave_now' } });

    // 503 first, then delivered after the backoff
    await until('the retried push', () => (received.filter((entry) => entry.path === '/push/flaky').length >= 2 ? true : undefined));
    expect(flakyCalls).toBe(2);
    // the gone subscription was removed: unregistering it finds nothing, the others are still there
    await until('the gone attempt', () => received.find((entry) => entry.path === '/push/gone'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await api.delete(`/me/push-tokens/${encodeURIComponent(gone.token)}`, user.token)).status).toBe(404);
    expect((await api.delete(`/me/push-tokens/${encodeURIComponent(ok.token)}`, user.token)).status).toBe(200);
    // nothing was sent twice; no provider is configured for ios, so nothing went anywhere for it
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(received.filter((entry) => entry.path === '/push/ok')).toHaveLength(1);
    expect(received.filter((entry) => entry.path === '/push/gone')).toHaveLength(1);
    expect(received.filter((entry) => entry.path === '/fcm')).toHaveLength(1);
    expect(received.every((entry) => !entry.path.includes('apns'))).toBe(true);
  }, 60_000);
});
