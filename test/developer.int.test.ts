import { describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';

const fixture = useServer();
const api = fixture.api;

/** A signed-in developer with an organization and a project. */
async function developer(label = 'dev') {
  const user = await registerUser(api, label);
  expect((await api.post('/developer/enroll', undefined, user.token)).status).toBe(201);
  const organization = (await api.post('/developer/organizations', { name: `${label} org` }, user.token)).body;
  const project = (await api.post('/developer/projects', { name: `${label} app`, organizationId: organization.id }, user.token)).body;
  return { ...user, organization, project };
}

async function createKey(owner: { token: string; project: { id: string } }, extra: Record<string, unknown> = {}) {
  const response = await api.post('/developer/api-keys', { projectId: owner.project.id, label: 'server', ...extra }, owner.token);
  expect(response.status).toBe(201);
  return response.body;
}

describe('enrollment and catalogs', () => {
  it('enrolls idempotently; access auto-enrolls; minting keys needs the role', async () => {
    const user = await registerUser(api);
    const organization = await api.post('/developer/organizations', { name: 'Early' }, user.token);
    expect(organization.status).toBe(201);
    const project = (await api.post('/developer/projects', { name: 'App', organizationId: organization.body.id }, user.token)).body;
    const refused = await api.post('/developer/api-keys', { projectId: project.id, label: 'k' }, user.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const access = await api.get('/developer/access', user.token);
    expect(access.body).toEqual({ developer: true, roles: ['user', 'developer'] });
    const again = await api.post('/developer/enroll', undefined, user.token);
    expect(again.body).toEqual({ enrolled: true, roles: ['user', 'developer'] });
    expect((await api.post('/developer/api-keys', { projectId: project.id, label: 'k' }, user.token)).status).toBe(201);
  });

  it('requires a bearer token', async () => {
    const response = await api.get('/developer/scopes');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHENTICATED');
  });

  it('lists the eleven scopes, eight on by default', async () => {
    const user = await registerUser(api);
    const { scopes } = (await api.get('/developer/scopes', user.token)).body;
    expect(scopes).toHaveLength(11);
    expect(scopes.filter((scope: { default: boolean }) => scope.default)).toHaveLength(8);
    expect(scopes.filter((scope: { default: boolean }) => !scope.default).map((scope: { scope: string }) => scope.scope).sort()).toEqual(['geo', 'insights', 'optimize']);
    for (const scope of scopes) expect(scope).toEqual({ scope: expect.any(String), label: expect.any(String), description: expect.any(String), default: expect.any(Boolean) });
    const overview = (await api.get('/developer/overview', user.token)).body;
    expect(overview.plans.find((plan: { plan: string }) => plan.plan === 'free')).toMatchObject({ quotaPerMinute: 60, quotaPerDay: 5000 });
  });
});

describe('organizations and projects', () => {
  it('generates unique slugs per owner and cascades deletes to projects and keys', async () => {
    const dev = await developer('cascade');
    const first = (await api.post('/developer/organizations', { name: 'Desert Logistics' }, dev.token)).body;
    const second = (await api.post('/developer/organizations', { name: 'Desert Logistics' }, dev.token)).body;
    expect(first.slug).toBe('desert-logistics');
    expect(second.slug).toBe('desert-logistics-2');
    const arabic = (await api.post('/developer/organizations', { name: 'شركة النقل' }, dev.token)).body;
    expect(arabic.slug).toMatch(/^[a-z0-9-]+$/);
    expect((await api.post('/developer/organizations', { name: 'X', slug: 'desert-logistics' }, dev.token)).status).toBe(400);

    const nested = await api.post(`/developer/organizations/${first.id}/projects`, { name: 'Dispatch' }, dev.token);
    expect(nested.status).toBe(201);
    expect(nested.body).toMatchObject({ name: 'Dispatch', organizationId: first.id });
    const key = (await api.post('/developer/api-keys', { projectId: nested.body.id, label: 'k' }, dev.token)).body;
    const listed = await api.get(`/developer/projects?organizationId=${first.id}`, dev.token);
    expect(listed.body.items.map((project: { id: string }) => project.id)).toEqual([nested.body.id]);

    expect((await api.patch(`/developer/organizations/${first.id}`, { name: 'Desert Co' }, dev.token)).body.name).toBe('Desert Co');
    expect((await api.delete(`/developer/organizations/${first.id}`, dev.token)).status).toBe(200);
    expect((await api.get(`/developer/projects?organizationId=${first.id}`, dev.token)).body.items).toEqual([]);
    expect((await api.get(`/developer/api-keys/${key.id}/usage`, dev.token)).status).toBe(404);
  });

  it('deleting a project removes its keys', async () => {
    const dev = await developer();
    const key = await createKey(dev);
    expect((await api.delete(`/developer/projects/${dev.project.id}`, dev.token)).status).toBe(200);
    expect((await api.get(`/developer/api-keys/${key.id}/usage`, dev.token)).status).toBe(404);
  });
});

describe('API keys', () => {
  it('creates a key with plan defaults, returns the plaintext once and never again', async () => {
    const dev = await developer();
    const key = await createKey(dev, { unlimited: true, quotaPerMinute: undefined, someField: 'dropped' });
    expect(key.key).toMatch(/^svc_[0-9a-f]{48}$/);
    expect(key.lastFour).toBe(key.key.slice(-4));
    expect(key).toMatchObject({ plan: 'free', quotaPerMinute: 60, quotaPerDay: 5000, unlimited: false, active: true, restrictions: { referrers: [], ips: [] } });
    expect(key).not.toHaveProperty('someField');
    expect(Object.values(key.scopes).filter(Boolean)).toHaveLength(8);
    const list = await api.get(`/developer/api-keys?projectId=${dev.project.id}`, dev.token);
    expect(JSON.stringify(list.body)).not.toContain(key.key);
    expect(list.body.items[0]).toMatchObject({ id: key.id, lastFour: key.lastFour, usage: { minute: { used: 0, limit: 60 }, day: { used: 0, limit: 5000 } } });
    expect(list.body.items[0]).not.toHaveProperty('key');
  });

  it('maps the legacy plan startup to starter and applies its quotas', async () => {
    const dev = await developer();
    const key = await createKey(dev, { plan: 'startup' });
    expect(key).toMatchObject({ plan: 'starter', quotaPerMinute: 255, quotaPerDay: 100000 });
  });

  it('enforces the self-serve caps on create', async () => {
    const dev = await developer();
    for (const body of [{ quotaPerMinute: 256 }, { quotaPerMinute: 0 }, { quotaPerDay: 10_000_001 }, { plan: 'platinum' }, { scopes: { teleport: true } }]) {
      const response = await api.post('/developer/api-keys', { projectId: dev.project.id, label: 'x', ...body }, dev.token);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('merges scope changes over the current scopes (rule 1)', async () => {
    const dev = await developer();
    const key = await createKey(dev, { scopes: { optimize: true } });
    const patched = await api.patch(`/developer/api-keys/${key.id}`, { scopes: { tiles: false } }, dev.token);
    expect(patched.status).toBe(200);
    expect(patched.body.scopes).toMatchObject({ optimize: true, tiles: false, search: true, geo: false });
  });

  it('applies restriction list semantics (rule 4) and names an invalid entry (rule 5)', async () => {
    const dev = await developer();
    const key = await createKey(dev, { restrictions: { referrers: ['https://app.example.jo/path', '*.example.sa'], ips: ['203.0.113.0/24'] } });
    expect(key.restrictions).toEqual({ referrers: ['app.example.jo', '*.example.sa'], ips: ['203.0.113.0/24'] });

    const onlyIps = await api.patch(`/developer/api-keys/${key.id}`, { restrictions: { ips: ['2001:db8::/32'] } }, dev.token);
    expect(onlyIps.body.restrictions).toEqual({ referrers: ['app.example.jo', '*.example.sa'], ips: ['2001:db8::/32'] });
    const emptied = await api.patch(`/developer/api-keys/${key.id}`, { restrictions: { referrers: [] } }, dev.token);
    expect(emptied.body.restrictions).toEqual({ referrers: [], ips: ['2001:db8::/32'] });
    const cleared = await api.patch(`/developer/api-keys/${key.id}`, { restrictions: null }, dev.token);
    expect(cleared.body.restrictions).toEqual({ referrers: [], ips: [] });

    const invalid = await api.patch(`/developer/api-keys/${key.id}`, { restrictions: { ips: ['1.2.3.4', 'not-an-ip'] } }, dev.token);
    expect(invalid.status).toBe(400);
    expect(invalid.body.message.join(' ')).toContain('not-an-ip');
    expect(invalid.body.details).toEqual({ list: 'ips', entry: 'not-an-ip' });
    const tooMany = await api.patch(`/developer/api-keys/${key.id}`, { restrictions: { ips: Array.from({ length: 51 }, (_, index) => `10.0.0.${index}`) } }, dev.token);
    expect(tooMany.status).toBe(400);
    expect((await api.get(`/developer/api-keys?projectId=${dev.project.id}`, dev.token)).body.items[0].restrictions).toEqual({ referrers: [], ips: [] });
  });

  it('checks changed quotas against the caps and keeps unchanged ones (rule 2)', async () => {
    const dev = await developer();
    const key = await createKey(dev);
    expect((await api.patch(`/developer/api-keys/${key.id}`, { quotaPerMinute: 300 }, dev.token)).status).toBe(400);
    const lowered = await api.patch(`/developer/api-keys/${key.id}`, { quotaPerMinute: 30, quotaPerDay: 5000 }, dev.token);
    expect(lowered.body).toMatchObject({ quotaPerMinute: 30, quotaPerDay: 5000 });
  });

  it('moves default quotas with a plan change but keeps custom ones', async () => {
    const dev = await developer();
    const plain = await createKey(dev);
    expect((await api.patch(`/developer/api-keys/${plain.id}`, { plan: 'growth' }, dev.token)).body).toMatchObject({ plan: 'growth', quotaPerMinute: 255, quotaPerDay: 1000000 });
    const custom = await createKey(dev, { quotaPerMinute: 10 });
    expect((await api.patch(`/developer/api-keys/${custom.id}`, { plan: 'growth' }, dev.token)).body).toMatchObject({ quotaPerMinute: 10, quotaPerDay: 1000000 });
  });

  it('rotates: same id, scopes and quotas, new secret', async () => {
    const dev = await developer();
    const key = await createKey(dev, { scopes: { geo: true }, quotaPerMinute: 42 });
    const rotated = await api.post(`/developer/api-keys/${key.id}/rotate`, undefined, dev.token);
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({ id: key.id, quotaPerMinute: 42, scopes: { geo: true } });
    expect(rotated.body.key).toMatch(/^svc_[0-9a-f]{48}$/);
    expect(rotated.body.key).not.toBe(key.key);
  });

  it('deactivates, reports usage shapes and deletes permanently', async () => {
    const dev = await developer();
    const key = await createKey(dev);
    expect((await api.patch(`/developer/api-keys/${key.id}`, { active: false }, dev.token)).body.active).toBe(false);
    const usage = await api.get(`/developer/api-keys/${key.id}/usage`, dev.token);
    expect(usage.body).toEqual({ id: key.id, label: 'server', active: false, plan: 'free', lastUsedAt: null, unlimited: false, minute: { used: 0, limit: 60 }, day: { used: 0, limit: 5000 } });
    const monthly = await api.get(`/developer/api-keys/${key.id}/usage/monthly`, dev.token);
    expect(monthly.body).toEqual({ id: key.id, plan: 'free', periodStart: expect.stringMatching(/^\d{4}-\d{2}-01$/), weightedRequests: 0, rawRequests: 0, includedRequests: expect.any(Number), overageRequests: 0, project: expect.objectContaining({ weightedRequests: 0, overageRequests: 0 }) });
    const summary = await api.get('/developer/summary', dev.token);
    expect(summary.body).toEqual({ organizations: 1, projects: 1, apiKeys: 1, activeApiKeys: 0, requestsToday: 0 });
    expect((await api.delete(`/developer/api-keys/${key.id}`, dev.token)).status).toBe(200);
    expect((await api.delete(`/developer/api-keys/${key.id}`, dev.token)).status).toBe(404);
  });
});

describe('isolation', () => {
  it("gives 404 (never 403) on another user's organizations, projects and keys, and changes nothing", async () => {
    const alice = await developer('alice');
    const bob = await developer('bob');
    const key = await createKey(alice);
    const attempts = [
      api.patch(`/developer/organizations/${alice.organization.id}`, { name: 'Pwned' }, bob.token),
      api.delete(`/developer/organizations/${alice.organization.id}`, bob.token),
      api.post(`/developer/organizations/${alice.organization.id}/projects`, { name: 'Intruder' }, bob.token),
      api.post('/developer/projects', { name: 'Intruder', organizationId: alice.organization.id }, bob.token),
      api.patch(`/developer/projects/${alice.project.id}`, { name: 'Pwned' }, bob.token),
      api.delete(`/developer/projects/${alice.project.id}`, bob.token),
      api.post('/developer/api-keys', { projectId: alice.project.id, label: 'stolen' }, bob.token),
      api.get(`/developer/api-keys/${key.id}/usage`, bob.token),
      api.get(`/developer/api-keys/${key.id}/usage/monthly`, bob.token),
      api.patch(`/developer/api-keys/${key.id}`, { active: false }, bob.token),
      api.post(`/developer/api-keys/${key.id}/rotate`, undefined, bob.token),
      api.delete(`/developer/api-keys/${key.id}`, bob.token),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    }
    expect((await api.get(`/developer/projects?organizationId=${alice.organization.id}`, bob.token)).body.items).toEqual([]);
    expect((await api.get(`/developer/api-keys?projectId=${alice.project.id}`, bob.token)).body.items).toEqual([]);
    const aliceKeys = (await api.get(`/developer/api-keys?projectId=${alice.project.id}`, alice.token)).body.items;
    expect(aliceKeys).toHaveLength(1);
    expect(aliceKeys[0]).toMatchObject({ id: key.id, active: true, lastFour: key.lastFour });
    expect((await api.get('/developer/organizations', alice.token)).body.items[0].name).toBe('alice org');
  });

  it('stores hostile strings verbatim', async () => {
    const dev = await developer();
    const hostile = "'); drop table api_keys; --";
    const organization = (await api.post('/developer/organizations', { name: hostile }, dev.token)).body;
    expect(organization.name).toBe(hostile);
    const key = await createKey(dev, { label: hostile });
    expect(key.label).toBe(hostile);
    expect((await api.get(`/developer/api-keys?projectId=${dev.project.id}`, dev.token)).body.items).toHaveLength(1);
  });
});
