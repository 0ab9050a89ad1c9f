/**
 * Session webhooks end to end: a session created with a webhookUrl posts
 * every event, signed, in order, to a receiver (allow-listed loopback for the
 * test); the delivery log shows the attempts; unusable URLs are refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../src/services/webhooks/webhook-signature.js';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { driveAlong } from './support/drive.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

interface Received {
  headers: Record<string, string>;
  body: string;
}

let receiver: Server;
const received: Received[] = [];
let failNext = 0;
let server: ServerProcess;
let api: ApiClient;
let token: string;
let receiverUrl: string;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (failNext > 0) {
        failNext--;
        response.writeHead(503).end();
        return;
      }
      received.push({ headers: request.headers as Record<string, string>, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  receiverUrl = `http://127.0.0.1:${port}/hooks/navigation`;
  server = await startServerProcess({ WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}` });
  api = apiClient(server.baseUrl);
  token = (await registerUser(api, 'hooked')).token;
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('navigation webhooks', () => {
  it('posts every event of a drive to the webhook, signed and in order, and logs the deliveries', async () => {
    const created = await api.post('/navigation/sessions', { origin: { lat: 30.0626, lng: 31.3219 }, destination: { lat: 30.07, lng: 31.34 }, webhookUrl: receiverUrl }, token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const session = created.body;
    expect(session.webhookSecret).toMatch(/^whsec_/);
    // the secret is shown once: a read does not carry it
    expect((await api.get(`/navigation/sessions/${session.sessionId}`, token)).body.webhookSecret).toBeUndefined();
    failNext = 1; // the first attempt fails: the first event is retried, the rest wait behind it
    const fixes = driveAlong(session.route, { noiseMeters: 5, seed: 41, startTime: Date.now() });
    let eventSeq = 0;
    for (let index = 0; index < fixes.length; index += 10) {
      const response = await api.post(`/navigation/sessions/${session.sessionId}/positions`, { positions: fixes.slice(index, index + 10) }, token);
      if (response.status !== 201) break;
      eventSeq = response.body.eventSeq;
    }
    expect(eventSeq).toBeGreaterThan(3);
    await until(() => received.length >= eventSeq, 90_000);
    const bodies = received.map((entry) => JSON.parse(entry.body) as { seq: number; type: string; sessionId: string });
    expect(bodies.map((body) => body.seq)).toEqual(Array.from({ length: eventSeq }, (_, index) => index + 1));
    expect(bodies[bodies.length - 1]!.type).toBe('arrived');
    for (const entry of received) {
      const verdict = verifyWebhookSignature(session.webhookSecret, entry.headers, entry.body);
      expect(verdict.valid, verdict.valid ? '' : verdict.reason).toBe(true);
      expect(entry.headers['webhook-id']).toBe(`${session.sessionId}:${JSON.parse(entry.body).seq}`);
    }
    const log = await api.get(`/navigation/sessions/${session.sessionId}/webhook-deliveries?limit=100`, token);
    expect(log.status).toBe(200);
    const first = log.body.deliveries.filter((delivery: { seq: number }) => delivery.seq === 1);
    expect(first.map((delivery: { outcome: string }) => delivery.outcome).sort()).toEqual(['delivered', 'retrying']);
    expect((await api.get(`/navigation/sessions/${session.sessionId}/webhook-deliveries`, (await registerUser(api, 'nosy')).token)).status).toBe(403);
  }, 120_000);

  it('refuses webhook URLs that are not https or point into private networks', async () => {
    for (const webhookUrl of ['http://hooks.example.com/nav', 'https://127.0.0.1/hook', 'https://169.254.169.254/latest', 'https://10.0.0.5/hook', 'https://user:pw@example.com/x', 'not a url']) {
      const response = await api.post('/navigation/sessions', { origin: { lat: 30.0626, lng: 31.3219 }, destination: { lat: 30.07, lng: 31.34 }, webhookUrl }, token);
      expect(response.status, webhookUrl).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(String(response.body.message)).toContain('webhookUrl');
    }
  });
});
