/**
 * The TypeScript client (clients/typescript) against the started server: its generated types are the
 * document the server serves (a drift fails here: run `npm run client:generate`), and a navigation session
 * is driven end to end through it — created with the typed REST client, then driven over the navigation
 * stream client, which authenticates with its first message, survives a dropped connection by resuming
 * with `since` (every event exactly once, in order), and reports the arrival.
 */
import { readFileSync } from 'node:fs';
import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLocationClient, type NavigationEvent, type NavigationSession, type QuotaSnapshot, type WebSocketFactory } from '../clients/typescript/src/index.js';
// @ts-expect-error a plain ES module of the client's generator, without type declarations
import { renderSchema } from '../clients/typescript/scripts/render-schema.mjs';
import { keysWithScopes } from './support/api-keys.js';
import { driveAlong } from './support/drive.js';
import { useServer } from './support/server-fixture.js';

const fixture = useServer();
const SCHEMA = new URL('../clients/typescript/src/schema.ts', import.meta.url);

/** Al-Hamd Mosque to Al-Rahma Mosque in Nasr City (the shipped pack). */
const ORIGIN = { lat: 30.0667181, lng: 31.349432 };
const DESTINATION = { lat: 30.0536822, lng: 31.3331883, name: 'Al-Rahma Mosque' };

function waitFor<T>(subscribe: (done: (value: T) => void) => void, what: string, timeoutMs = 20_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
    subscribe((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

describe('TypeScript client', () => {
  it('carries the types of the OpenAPI document the server serves', async () => {
    const response = await fetch(`${fixture.server.baseUrl}/api/v1/openapi.json`);
    const rendered: string = await renderSchema(await response.json());
    expect(rendered === readFileSync(SCHEMA, 'utf8'), 'clients/typescript/src/schema.ts is stale: run npm run build && npm run client:generate').toBe(true);
  }, 60_000);

  it('drives a navigation session end to end: REST create, stream fixes, resume after a drop, arrive', async () => {
    const { keys } = await keysWithScopes(fixture.api, { routing: true });
    const quotas: QuotaSnapshot[] = [];
    const client = createLocationClient({ baseUrl: fixture.server.baseUrl, apiKey: keys[0]!, onQuota: (quota) => quotas.push(quota) });

    const created = await client.api.POST('/api/v1/navigation/sessions', { body: { origin: ORIGIN, destination: DESTINATION, costing: 'auto', language: 'en-US' } });
    expect(created.response.status).toBe(201);
    const session = created.data as NavigationSession;
    expect(session.status).toBe('active');
    expect(quotas.at(-1)?.limitMinute).toBeGreaterThan(0);

    // a refused request comes back as the typed error body, not a throw
    const unknown = await client.api.GET('/api/v1/navigation/sessions/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } });
    expect(unknown.response.status).toBe(404);
    expect((unknown.error as { code?: string }).code).toBe('NOT_FOUND');

    const stream = client.navigationStream(session.sessionId, { webSocket: WebSocket as unknown as WebSocketFactory, backoff: { initialDelayMs: 50, maxDelayMs: 200 } });
    const events: NavigationEvent[] = [];
    const states: string[] = [];
    let readyCount = 0;
    let lastFixSeq = 0;
    stream.on('event', (event) => events.push(event));
    stream.on('state', ({ state }) => states.push(state));
    stream.on('ready', () => readyCount++);
    stream.on('progress', (frame) => (lastFixSeq = frame.fixSeq));
    const arrived = waitFor<string>((done) => stream.on('status', (frame) => done(frame.status)), 'the arrival', 60_000);
    await waitFor((done) => stream.on('ready', () => done(undefined)), 'the ready frame');

    const route = { shape: session.route.shape, maneuvers: session.route.maneuvers, distanceMeters: session.route.distanceMeters };
    const fixes = driveAlong(route, { noiseMeters: 2, seed: 32, startTime: Date.now() });
    const half = Math.floor(fixes.length / 2);
    // the first half in batches; wait until the server has taken them
    for (let start = 0; start < half; start += 10) stream.sendFixes(fixes.slice(start, Math.min(start + 10, half)));
    await waitFor<void>((done) => {
      const check = () => (lastFixSeq >= half ? done() : setTimeout(check, 50));
      check();
    }, 'progress of the first half');
    const eventsBeforeDrop = events.length;
    expect(eventsBeforeDrop).toBeGreaterThan(0);

    // the connection drops: the stream reconnects, authenticates again and resumes after the last event it delivered
    const resumed = waitFor((done) => stream.on('ready', () => done(undefined)), 'the resumed ready frame');
    stream.dropConnection();
    await resumed;
    expect(states).toContain('reconnecting');
    expect(readyCount).toBe(2);
    stream.sendFixes(fixes.slice(half));
    expect(await arrived).toBe('arrived');
    stream.close();

    // every event exactly once, in order, none lost across the drop
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.length).toBeGreaterThan(eventsBeforeDrop);
    expect(events.at(-1)?.type).toBe('arrived');
    expect(events.filter((event) => event.type === 'maneuver_completed').length).toBeGreaterThan(2);
    const read = await client.api.GET('/api/v1/navigation/sessions/{id}/events', { params: { path: { id: session.sessionId }, query: { since: 0 } } });
    expect((read.data as { events: NavigationEvent[] }).events.map((event) => event.seq)).toEqual(events.map((event) => event.seq));
    expect(polyline.decode(session.route.shape, 6).length).toBeGreaterThan(1);
  }, 120_000);

  it('stops reconnecting when the server refuses the credentials (close 4401)', async () => {
    const client = createLocationClient({ baseUrl: fixture.server.baseUrl, apiKey: 'svc_000000000000000000000000000000000000000000000000' });
    const stream = client.navigationStream('00000000-0000-4000-8000-000000000000', { webSocket: WebSocket as unknown as WebSocketFactory, backoff: { initialDelayMs: 50 } });
    const closed = await waitFor<{ state: string; code?: number }>((done) => stream.on('state', (change) => change.state === 'closed' && done(change)), 'the stream to give up');
    expect(closed.code).toBeGreaterThanOrEqual(4400);
    expect(closed.code).toBeLessThan(4500);
  });
});
