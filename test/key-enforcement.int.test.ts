import { describe, expect, it } from 'vitest';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';
import { startServerProcess, serverTestTimeout } from './support/server-process.js';
import { readJson, sharedDeployment } from './support/services.js';

const fixture = useServer();
const api = fixture.api;

async function developerKey(client: ApiClient, extra: Record<string, unknown> = {}) {
  const user = await registerUser(client, 'keyholder');
  await client.post('/developer/enroll', undefined, user.token);
  const organization = (await client.post('/developer/organizations', { name: 'Org' }, user.token)).body;
  const project = (await client.post('/developer/projects', { name: 'App', organizationId: organization.id }, user.token)).body;
  const key = (await client.post('/developer/api-keys', { projectId: project.id, label: 'k', ...extra }, user.token)).body;
  return { token: user.token, key };
}

const pluscode = (baseUrl: string, key?: string, query = 'lat=30.0626&lng=31.3219', clientIp?: string) =>
  fetch(`${baseUrl}/api/v1/geo/pluscode?${query}`, {
    headers: { ...(key ? { 'x-api-key': key } : {}), ...(clientIp ? { 'x-forwarded-for': clientIp } : {}) },
  });
const QUERY = 'lat=30.0626&lng=31.3219';

async function outsideMinuteBoundary(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second >= 56) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}

describe('plus codes through the gate', () => {
  it('answers anonymous callers with the throttle headers and no quota headers', async () => {
    const response = await pluscode(fixture.server.baseUrl);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ provider: 'svc-addressing', code: '8G2H387C+2Q', lat: 30.0626, lng: 31.3219 });
    expect(response.headers.get('x-ratelimit-limit')).toBe('3000');
    expect(response.headers.get('x-svc-quota-limit-minute')).toBeNull();
  });

  it('validates input with 400s', async () => {
    for (const query of ['lng=31', 'lat=abc&lng=31', 'lat=30&lng=31&length=12', 'lat=Infinity&lng=0']) {
      const response = await pluscode(fixture.server.baseUrl, undefined, query);
      expect(response.status).toBe(400);
      expect((await readJson(response)).code).toBe('VALIDATION_ERROR');
    }
    const decoded = await api.get('/geo/pluscode/decode?code=387C%2B2Q&lat=30.05&lng=31.3');
    expect(decoded.body).toMatchObject({ provider: 'svc-addressing', code: '8G2H387C+2Q', bounds: { south: expect.any(Number) } });
    expect((await api.get('/geo/pluscode/decode?code=387C%2B2Q')).status).toBe(400);
    expect((await api.get('/geo/pluscode/decode?code=hello')).status).toBe(400);
  });
});

describe('keys on a scoped endpoint', () => {
  it('holds a key to the opt-in geo scope; a scope change applies on the next request', async () => {
    const { token, key } = await developerKey(api);
    const refused = await pluscode(fixture.server.baseUrl, key.key);
    expect(refused.status).toBe(403);
    expect(await readJson(refused)).toMatchObject({ code: 'FORBIDDEN', details: { missingScopes: ['geo'] } });
    await api.patch(`/developer/api-keys/${key.id}`, { scopes: { geo: true } }, token);
    const allowed = await pluscode(fixture.server.baseUrl, key.key);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('x-svc-quota-limit-minute')).toBe('60');
    expect(allowed.headers.get('x-svc-quota-remaining-minute')).toBe('59');
    expect(allowed.headers.get('x-svc-quota-limit-day')).toBe('5000');
  });

  it('refuses a rotated secret, a deactivated key and a deleted key at once', async () => {
    const { token, key } = await developerKey(api, { scopes: { geo: true } });
    expect((await pluscode(fixture.server.baseUrl, key.key)).status).toBe(200);
    const rotated = (await api.post(`/developer/api-keys/${key.id}/rotate`, undefined, token)).body;
    expect((await pluscode(fixture.server.baseUrl, key.key)).status).toBe(401);
    expect((await pluscode(fixture.server.baseUrl, rotated.key)).status).toBe(200);
    await api.patch(`/developer/api-keys/${key.id}`, { active: false }, token);
    expect((await pluscode(fixture.server.baseUrl, rotated.key)).status).toBe(403);
    await api.delete(`/developer/api-keys/${key.id}`, token);
    expect((await pluscode(fixture.server.baseUrl, rotated.key)).status).toBe(401);
  });

  it('shows live minute and day usage on the usage endpoint', async () => {
    const { token, key } = await developerKey(api, { scopes: { geo: true } });
    await outsideMinuteBoundary();
    for (let index = 0; index < 5; index++) await pluscode(fixture.server.baseUrl, key.key);
    const usage = await api.get(`/developer/api-keys/${key.id}/usage`, token);
    expect(usage.body).toMatchObject({ minute: { used: 5, limit: 60 }, day: { used: 5, limit: 5000 } });
  });
});

describe('several edge processes on the real services', () => {
  it('give exactly the quota across two processes, the per-IP limit across two keys, and apply key changes at once', { timeout: serverTestTimeout(2) }, async () => {
    // Each phase comes from its own client address (through a trusted proxy), so their per-IP budgets stay apart.
    const shared = { ...sharedDeployment('t'), TRUSTED_PROXIES: '127.0.0.1' };
    const first = await startServerProcess(shared);
    const second = await startServerProcess(shared);
    const either = (index: number) => (index % 2 ? first.baseUrl : second.baseUrl);
    try {
      const a = apiClient(first.baseUrl);
      const quota = await developerKey(a, { scopes: { geo: true }, quotaPerMinute: 100 });
      await outsideMinuteBoundary();
      const responses = await Promise.all(Array.from({ length: 300 }, (_, index) => pluscode(either(index), quota.key.key, QUERY, '198.51.100.1')));
      expect(responses.filter((response) => response.status === 200)).toHaveLength(100);
      expect((await readJson(responses.find((response) => response.status === 403)!)).message).toBe('key quota exceeded for scope geo: 100/minute');

      // Per IP: 90/minute across every key used from one address (each key here allows 60).
      const one = await developerKey(a, { scopes: { geo: true } });
      const two = await developerKey(a, { scopes: { geo: true } });
      await outsideMinuteBoundary();
      const keyed = await Promise.all(
        Array.from({ length: 120 }, (_, index) => pluscode(either(index), (index % 4 < 2 ? one : two).key.key, QUERY, '198.51.100.2')),
      );
      expect(keyed.filter((response) => response.status === 200)).toHaveLength(90);
      const refusals = await Promise.all(keyed.filter((response) => response.status === 403).map((response) => readJson(response)));
      expect(new Set(refusals.map((body) => body.message))).toEqual(new Set(['IP rate limit exceeded: 90/minute']));

      // A key change made through one process reaches the other at once (NATS invalidation).
      const watched = await developerKey(a, { scopes: { geo: true } });
      expect((await pluscode(second.baseUrl, watched.key.key, QUERY, '198.51.100.3')).status).toBe(200);
      await a.patch(`/developer/api-keys/${watched.key.id}`, { active: false }, watched.token);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = await pluscode(second.baseUrl, watched.key.key, QUERY, '198.51.100.3');
      expect(after.status).toBe(403);
      expect((await readJson(after)).code).toBe('FORBIDDEN');
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});

describe('usage accounting', () => {
  it('flushes raw and weighted monthly usage and lastUsedAt in aggregates', async () => {
    const { token, key } = await developerKey(api, { scopes: { geo: true } });
    for (let index = 0; index < 3; index++) expect((await pluscode(fixture.server.baseUrl, key.key)).status).toBe(200);
    const deadline = Date.now() + 10_000;
    let monthly = (await api.get(`/developer/api-keys/${key.id}/usage/monthly`, token)).body;
    while (monthly.rawRequests < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      monthly = (await api.get(`/developer/api-keys/${key.id}/usage/monthly`, token)).body;
    }
    expect(monthly).toMatchObject({ rawRequests: 3, weightedRequests: 3, overageRequests: 0 });
    const usage = (await api.get(`/developer/api-keys/${key.id}/usage`, token)).body;
    expect(Date.parse(usage.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('developer sandbox', () => {
  it("runs a read-only request as one of the caller's keys through the real gate", async () => {
    const { token, key } = await developerKey(api);
    const refused = await api.post('/developer/sandbox', { apiKeyId: key.id, path: '/geo/pluscode?lat=30.0626&lng=31.3219' }, token);
    expect(refused.status).toBe(201);
    expect(refused.body).toMatchObject({ status: 403, body: { code: 'FORBIDDEN', details: { missingScopes: ['geo'] } } });

    await api.patch(`/developer/api-keys/${key.id}`, { scopes: { geo: true } }, token);
    const ran = await api.post('/developer/sandbox', { apiKeyId: key.id, path: '/geo/pluscode?lat=30.0626&lng=31.3219' }, token);
    expect(ran.body).toMatchObject({
      request: { method: 'GET', path: '/geo/pluscode?lat=30.0626&lng=31.3219', apiKeyId: key.id },
      status: 200,
      body: { provider: 'svc-addressing', code: '8G2H387C+2Q' },
      headers: { 'x-svc-quota-limit-minute': '60' },
    });
    expect(JSON.stringify(ran.body)).not.toContain(key.key);
  });

  it("refuses other users' keys, write endpoints and paths that lead nowhere", async () => {
    const alice = await developerKey(api);
    const bob = await developerKey(api);
    expect((await api.post('/developer/sandbox', { apiKeyId: alice.key.id, path: '/geo/pluscode?lat=1&lng=1' }, bob.token)).status).toBe(404);
    const write = await api.post('/developer/sandbox', { apiKeyId: bob.key.id, path: '/me/saved-places', method: 'POST', body: { name: 'x', lat: 1, lng: 1 } }, bob.token);
    expect(write.status).toBe(400);
    expect(write.body.message.join(' ')).toContain('read-only');
    expect((await api.post('/developer/sandbox', { apiKeyId: bob.key.id, path: '/no/such/thing' }, bob.token)).status).toBe(400);
    expect((await api.post('/developer/sandbox', { apiKeyId: bob.key.id, path: 'http://169.254.169.254/latest' }, bob.token)).status).toBe(400);
    // Bearer-only endpoints refuse a key, in the sandbox as on the network.
    const portal = await api.post('/developer/sandbox', { apiKeyId: bob.key.id, path: '/developer/scopes' }, bob.token);
    expect(portal.body.status).toBe(401);
  });
});
