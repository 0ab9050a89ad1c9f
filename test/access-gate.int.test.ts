import { afterAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { z } from 'zod';
import { MemoryBus } from '../src/actors/runtime/bus/memory-bus.js';
import { createSubjects } from '../src/actors/runtime/subjects.js';
import { createAccessGate } from '../src/edge/auth/access-gate.js';
import { defineRoute, type RouteDefinition } from '../src/edge/route.js';
import { EndpointTable } from '../src/services/access/endpoint-table.js';
import { AddressSet } from '../src/services/access/ip-address.js';
import { KeyDirectory } from '../src/services/access/key-directory.js';
import { generateApiKey } from '../src/services/developer/api-key-secrets.js';
import type { CounterStore } from '../src/store/counters/counter-store.js';
import { MemoryCounterStore } from '../src/store/counters/memory-counter-store.js';
import { RedisCounterStore } from '../src/store/counters/redis-counter-store.js';
import type { ApiKeyRecord } from '../src/domain/api-key.js';
import { readJson, realServices, uniqueName } from './support/services.js';
import { startTestEdge, type TestEdge } from './support/test-edge.js';

const logger = pino({ level: 'silent' });
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Keys live in a map here; the gate finds them by hash exactly as it does in Postgres. */
function keyStore() {
  const byHash = new Map<string, ApiKeyRecord>();
  return {
    lookup: {
      findByHash: async (hash: string) => byHash.get(hash) ?? null,
      findById: async (id: string) => [...byHash.values()].find((record) => record.id === id) ?? null,
    },
    add(overrides: Partial<ApiKeyRecord> = {}): { plaintext: string; record: ApiKeyRecord } {
      const secret = generateApiKey();
      const record: ApiKeyRecord = {
        id: uniqueName('key'),
        projectId: 'p',
        label: 'test',
        lastFour: secret.lastFour,
        scopes: { geo: true, routing: true, traffic: false },
        plan: 'free',
        quotaPerMinute: 100,
        quotaPerDay: 5000,
        unlimited: false,
        active: true,
        restrictions: { referrers: [], ips: [] },
        createdAt: new Date().toISOString(),
        lastUsedAt: null,
        ...overrides,
      };
      byHash.set(secret.hash, record);
      return { plaintext: secret.plaintext, record };
    },
  };
}

const routes: RouteDefinition[] = [
  defineRoute({ method: 'GET', path: '/geo/pluscode', summary: 'scoped open read', tags: ['t'], query: z.object({}).loose(), handler: () => ({ ok: true }) }),
  defineRoute({ method: 'POST', path: '/traffic/route', summary: 'two scopes', tags: ['t'], handler: () => ({ ok: true }) }),
  defineRoute({ method: 'POST', path: '/ai/constraints', summary: 'tight throttle', tags: ['t'], handler: () => ({ ok: true }) }),
  defineRoute({ method: 'GET', path: '/holidays', summary: 'unscoped open', tags: ['t'], handler: () => ({ ok: true }) }),
];
/** The rows those routes are bound to: who may call them, their scopes and throttles. */
const endpoints = new EndpointTable([
  { method: 'GET', path: '/geo/pluscode', access: 'open', scopes: ['geo'], billing: 'default', source: 't' },
  { method: 'POST', path: '/traffic/route', access: 'key-or-bearer', scopes: ['routing', 'traffic'], billing: 'routing', source: 't' },
  { method: 'POST', path: '/ai/constraints', access: 'key-or-bearer', scopes: ['places'], billing: 'default', throttlePerMinute: 30, source: 't' },
  { method: 'GET', path: '/holidays', access: 'open', scopes: [], billing: 'default', source: 't' },
]);

async function gatedEdge(counters: CounterStore, keys: ReturnType<typeof keyStore>, options: { trustedProxies?: string[] } = {}): Promise<TestEdge> {
  const bus = new MemoryBus();
  const directory = new KeyDirectory(keys.lookup, bus, createSubjects('t'), logger);
  directory.start();
  const edge = await startTestEdge(routes, {
    endpoints,
    guards: [
      createAccessGate({
        keys: directory,
        counters,
        trustedProxies: new AddressSet(options.trustedProxies ?? []),
      }),
    ],
  });
  cleanups.push(() => edge.close());
  return edge;
}

async function redisStore(): Promise<CounterStore> {
  const store = new RedisCounterStore({ url: realServices.redisUrl, prefix: `${uniqueName('gate')}:`, logger });
  expect(await store.connect()).toBe(true);
  cleanups.push(() => store.close());
  return store;
}

/** A burst that straddled :00 would rightly meet two windows; start bursts clear of the boundary. */
async function outsideMinuteBoundary(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second >= 57) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}

const call = (edge: TestEdge, path: string, init: RequestInit & { key?: string } = {}) =>
  fetch(`${edge.baseUrl}/api/v1${path}`, { ...init, headers: { ...(init.key ? { 'x-api-key': init.key } : {}), ...(init.headers as Record<string, string>) } });

describe.each([
  ['memory', async () => new MemoryCounterStore()],
  ['redis', redisStore],
])('access gate with %s counters', (_, makeCounters) => {
  it('holds a presented key to its scopes, never falling back to anonymous', async () => {
    const keys = keyStore();
    const edge = await gatedEdge(await makeCounters(), keys);
    const { plaintext } = keys.add();
    expect((await call(edge, '/geo/pluscode', { key: plaintext })).status).toBe(200);
    const missing = await call(edge, '/traffic/route', { method: 'POST', key: plaintext });
    expect(missing.status).toBe(403);
    const body = await readJson(missing);
    expect(body).toMatchObject({ code: 'FORBIDDEN', details: { missingScopes: ['traffic'] } });
    expect(body.message).toContain('traffic');
    const unknown = await call(edge, '/holidays', { key: 'svc_' + '0'.repeat(48) });
    expect(unknown.status).toBe(401);
    expect((await readJson(unknown)).code).toBe('UNAUTHENTICATED');
    expect((await call(edge, '/holidays')).status).toBe(200);
    expect((await call(edge, '/traffic/route', { method: 'POST' })).status).toBe(401);
    const inactive = keys.add({ active: false });
    expect((await call(edge, '/geo/pluscode', { key: inactive.plaintext })).status).toBe(403);
  });

  it('accepts the key from api_key and apiKey query parameters', async () => {
    const keys = keyStore();
    const edge = await gatedEdge(await makeCounters(), keys);
    const { plaintext } = keys.add();
    expect((await call(edge, `/geo/pluscode?api_key=${plaintext}`)).status).toBe(200);
    expect((await call(edge, `/geo/pluscode?apiKey=${plaintext}`)).status).toBe(200);
    expect((await call(edge, `/traffic/route?apiKey=${plaintext}`, { method: 'POST' })).status).toBe(403);
  });

  it('gives exactly the quota to 300 concurrent requests, with quota headers on every answer', async () => {
    const keys = keyStore();
    const edge = await gatedEdge(await makeCounters(), keys);
    const { plaintext } = keys.add({ quotaPerMinute: 100 });
    await outsideMinuteBoundary();
    const responses = await Promise.all(Array.from({ length: 300 }, () => call(edge, '/geo/pluscode', { key: plaintext })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status !== 200 && status !== 403)).toEqual([]);
    const refused = responses.find((response) => response.status === 403)!;
    const body = await readJson(refused);
    expect(body.code).toBe('QUOTA_EXCEEDED');
    expect(body.message).toBe('key quota exceeded for scope geo: 100/minute');
    expect(body.details).toMatchObject({ scope: 'geo', limit: 100, window: 'minute' });
    expect(Number(refused.headers.get('retry-after'))).toBe(body.details.retryAfterSeconds);
    for (const response of responses) {
      expect(response.headers.get('x-svc-quota-limit-minute')).toBe('100');
      expect(response.headers.get('x-svc-quota-remaining-day')).not.toBeNull();
    }
  });

  it('applies the tighter throttle of AI helpers even to unlimited keys', async () => {
    const keys = keyStore();
    const edge = await gatedEdge(await makeCounters(), keys);
    const { plaintext } = keys.add({ unlimited: true, scopes: { places: true } });
    const statuses = [];
    for (let index = 0; index < 31; index++) statuses.push((await call(edge, '/ai/constraints', { method: 'POST', key: plaintext })).status);
    expect(statuses.slice(0, 30).every((status) => status === 201)).toBe(true);
    expect(statuses[30]).toBe(429);
    const unlimitedRead = await call(edge, '/geo/pluscode', { key: keys.add({ unlimited: true }).plaintext });
    expect(unlimitedRead.headers.get('x-svc-quota-unlimited')).toBe('true');
    expect(unlimitedRead.headers.get('x-svc-quota-limit-minute')).toBe('unlimited');
    expect(unlimitedRead.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('key restrictions', () => {
  it('matches websites by Origin, else Referer, and refuses requests with neither', async () => {
    const keys = keyStore();
    const edge = await gatedEdge(new MemoryCounterStore(), keys);
    const { plaintext } = keys.add({ restrictions: { referrers: ['*.example.jo', 'localhost:3000'], ips: [] } });
    const withHeaders = (headers: Record<string, string>) => call(edge, '/geo/pluscode', { key: plaintext, headers });
    expect((await withHeaders({ origin: 'https://maps.example.jo' })).status).toBe(200);
    expect((await withHeaders({ referer: 'http://localhost:3000/page' })).status).toBe(200);
    const bare = await withHeaders({ origin: 'https://example.jo' });
    expect(bare.status).toBe(403);
    expect((await readJson(bare)).code).toBe('KEY_WEBSITE_NOT_ALLOWED');
    expect((await withHeaders({})).status).toBe(403);
    expect((await withHeaders({ origin: 'http://localhost:3001' })).status).toBe(403);
  });

  it('matches addresses against IPs and CIDR ranges, trusting X-Forwarded-For only from configured proxies', async () => {
    const keys = keyStore();
    const direct = await gatedEdge(new MemoryCounterStore(), keys);
    const loopback = keys.add({ restrictions: { referrers: [], ips: ['127.0.0.0/8'] } });
    const elsewhere = keys.add({ restrictions: { referrers: [], ips: ['2001:db8::/32', '198.51.100.7'] } });
    expect((await call(direct, '/geo/pluscode', { key: loopback.plaintext })).status).toBe(200);
    const refused = await call(direct, '/geo/pluscode', { key: elsewhere.plaintext, headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(refused.status).toBe(403);
    expect((await readJson(refused)).code).toBe('KEY_IP_NOT_ALLOWED');
    const proxied = await gatedEdge(new MemoryCounterStore(), keys, { trustedProxies: ['127.0.0.1'] });
    expect((await call(proxied, '/geo/pluscode', { key: elsewhere.plaintext, headers: { 'x-forwarded-for': '2001:db8::42' } })).status).toBe(200);
    expect((await call(proxied, '/geo/pluscode', { key: loopback.plaintext, headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(403);
  });
});

describe('two edges sharing Redis', () => {
  it('still give exactly the quota across both', async () => {
    const keys = keyStore();
    const counters = await redisStore();
    const first = await gatedEdge(counters, keys);
    const second = await gatedEdge(counters, keys);
    const { plaintext } = keys.add({ quotaPerMinute: 100 });
    await outsideMinuteBoundary();
    const responses = await Promise.all(Array.from({ length: 300 }, (_, index) => call(index % 2 ? first : second, '/geo/pluscode', { key: plaintext })));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(100);
  });
});

describe('counter store outage', () => {
  it('fails open for limits but still checks keys and scopes', async () => {
    const keys = keyStore();
    const broken: CounterStore = Object.assign(new MemoryCounterStore(), {
      incrementWindows: async () => {
        throw new Error('redis down');
      },
    });
    const edge = await gatedEdge(broken, keys);
    const { plaintext } = keys.add();
    expect((await call(edge, '/geo/pluscode', { key: plaintext })).status).toBe(200);
    expect((await call(edge, '/traffic/route', { method: 'POST', key: plaintext })).status).toBe(403);
    expect((await call(edge, '/holidays', { key: 'svc_' + '1'.repeat(48) })).status).toBe(401);
  });
});
