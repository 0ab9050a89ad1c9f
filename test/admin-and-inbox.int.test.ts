import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from './support/admin-cli.js';
import { apiClient, PASSWORD, registerUser, type ApiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { realServices, uniqueName } from './support/services.js';

// The operator CLI and the server share one database: a real Postgres schema of this file's own.
const database = { DATABASE_URL: realServices.databaseUrl, DATABASE_SCHEMA: uniqueName('t') };
let server: ServerProcess;
let api: ApiClient;
let admin: Awaited<ReturnType<typeof registerUser>>;

beforeAll(async () => {
  server = await startServerProcess(database);
  api = apiClient(server.baseUrl);
  admin = await registerUser(api, 'operator');
  const granted = await runAdminCli(['grant-role', admin.email, 'admin'], database);
  expect(granted.code).toBe(0);
  expect(JSON.parse(granted.stdout).roles).toContain('admin');
});
afterAll(async () => {
  await server?.stop();
});

async function developerWithKey() {
  const user = await registerUser(api, 'dev');
  await api.post('/developer/enroll', undefined, user.token);
  const organization = (await api.post('/developer/organizations', { name: 'Org' }, user.token)).body;
  const project = (await api.post('/developer/projects', { name: 'App', organizationId: organization.id }, user.token)).body;
  const key = (await api.post('/developer/api-keys', { projectId: project.id, label: 'k' }, user.token)).body;
  return { ...user, key };
}

describe('admin access', () => {
  it('refuses anonymous callers with 401 and non-admins with 403', async () => {
    expect((await api.get('/admin/users?email=x@example.jo')).status).toBe(401);
    const user = await registerUser(api);
    const response = await api.get(`/admin/users?email=${encodeURIComponent(user.email)}`, user.token);
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('FORBIDDEN');
    const found = await api.get(`/admin/users?email=${encodeURIComponent(user.email)}`, admin.token);
    expect(found.body).toMatchObject({ id: user.userId, email: user.email, roles: ['user'], disabled: false });
  });

  it('lets only a super_admin hand out admin roles', async () => {
    const user = await registerUser(api);
    const refused = await api.post(`/admin/users/${user.userId}/roles`, { role: 'admin', action: 'grant' }, admin.token);
    expect(refused.status).toBe(403);
    const granted = await api.post(`/admin/users/${user.userId}/roles`, { role: 'developer', action: 'grant' }, admin.token);
    expect(granted.body.roles).toEqual(['user', 'developer']);
    expect((await runAdminCli(['grant-role', admin.email, 'super_admin'], database)).code).toBe(0);
    const now = await api.post(`/admin/users/${user.userId}/roles`, { role: 'admin', action: 'grant' }, admin.token);
    expect(now.body.roles).toContain('admin');
  });
});

describe('operator key limits', () => {
  it('makes a key unlimited: limits null, developer quota changes ignored (rule 3), then limited again', async () => {
    const dev = await developerWithKey();
    const made = await api.patch(`/admin/api-keys/${dev.key.id}`, { unlimited: true }, admin.token);
    expect(made.body).toMatchObject({ unlimited: true, quotaPerMinute: 60 });
    const usage = await api.get(`/developer/api-keys/${dev.key.id}/usage`, dev.token);
    expect(usage.body).toMatchObject({ unlimited: true, minute: { used: 0, limit: null }, day: { used: 0, limit: null } });
    const ignored = await api.patch(`/developer/api-keys/${dev.key.id}`, { quotaPerMinute: 5, quotaPerDay: 7, label: 'renamed' }, dev.token);
    expect(ignored.body).toMatchObject({ unlimited: true, quotaPerMinute: 60, quotaPerDay: 5000, label: 'renamed' });
    const unlimitedByDeveloper = await api.patch(`/developer/api-keys/${dev.key.id}`, { unlimited: false }, dev.token);
    expect(unlimitedByDeveloper.body.unlimited).toBe(true);
    const limited = await runAdminCli(['key-unlimited', dev.key.id, 'off'], database);
    expect(JSON.parse(limited.stdout).unlimited).toBe(false);
  });

  it('keeps an operator quota above the cap when sent unchanged (rule 2), refuses a changed one above it', async () => {
    const dev = await developerWithKey();
    const raised = await runAdminCli(['key-quotas', dev.key.id, '--per-minute', '1000', '--per-day', '20000000'], database);
    expect(raised.code).toBe(0);
    const kept = await api.patch(`/developer/api-keys/${dev.key.id}`, { quotaPerMinute: 1000, quotaPerDay: 20000000, label: 'x' }, dev.token);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ quotaPerMinute: 1000, quotaPerDay: 20000000 });
    expect((await api.patch(`/developer/api-keys/${dev.key.id}`, { quotaPerMinute: 999 }, dev.token)).status).toBe(400);
  });

  it('answers 404 for an unknown key and 400 for a bad quota', async () => {
    expect((await api.patch('/admin/api-keys/00000000-0000-4000-8000-000000000000', { unlimited: true }, admin.token)).status).toBe(404);
    const dev = await developerWithKey();
    expect((await api.patch(`/admin/api-keys/${dev.key.id}`, { quotaPerMinute: 0 }, admin.token)).status).toBe(400);
  });
});

describe('disabled accounts', () => {
  it('cannot sign in and their sessions stop working until enabled again', async () => {
    const user = await registerUser(api);
    expect((await api.patch(`/admin/users/${user.userId}`, { disabled: true }, admin.token)).body.disabled).toBe(true);
    expect((await api.get('/auth/me', user.token)).status).toBe(401);
    const login = await api.post('/auth/login', { email: user.email, password: PASSWORD });
    expect(login.status).toBe(400);
    expect((await runAdminCli(['enable', user.email], database)).code).toBe(0);
    expect((await api.post('/auth/login', { email: user.email, password: PASSWORD })).status).toBe(201);
  });
});

describe('notification inbox', () => {
  it('starts empty, receives broadcasts newest first, filters by type with a filtered total', async () => {
    const user = await registerUser(api);
    expect((await api.get('/me/notifications', user.token)).body).toEqual({ items: [], total: 0, limit: 50, offset: 0 });
    expect((await api.post('/admin/broadcasts', { title: 'Maintenance', body: 'Tonight 02:00 UTC' }, admin.token)).body.sent).toBeGreaterThan(0);
    const cli = await runAdminCli(['broadcast', '--title', 'عيد مبارك', '--body', 'Holiday hours apply'], database);
    expect(cli.code).toBe(0);
    const inbox = await api.get('/me/notifications', user.token);
    expect(inbox.body.total).toBe(2);
    expect(inbox.body.items.map((item: { title: string }) => item.title)).toEqual(['عيد مبارك', 'Maintenance']);
    expect(inbox.body.items[0]).toEqual({
      id: expect.any(String),
      type: 'admin_broadcast',
      title: 'عيد مبارك',
      body: 'Holiday hours apply',
      url: null,
      data: null,
      isRead: false,
      readAt: null,
      createdAt: expect.any(String),
    });
    const paged = await api.get('/me/notifications?limit=1&offset=1', user.token);
    expect(paged.body).toMatchObject({ total: 2, limit: 1, offset: 1, items: [{ title: 'Maintenance' }] });
    expect((await api.get('/me/notifications?type=commute_leave_now', user.token)).body).toMatchObject({ items: [], total: 0 });
    expect((await api.get('/me/notifications?type=admin_broadcast', user.token)).body.total).toBe(2);
  });

  it('validates limit and offset with a message array, and needs a token', async () => {
    const user = await registerUser(api);
    for (const query of ['limit=0', 'limit=201', 'offset=-1', 'limit=abc']) {
      const response = await api.get(`/me/notifications?${query}`, user.token);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(Array.isArray(response.body.message)).toBe(true);
    }
    const anonymous = await api.get('/me/notifications');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
  });
});

describe('push tokens', () => {
  it('re-binds a token to whoever registers it last; only the owner can remove it', async () => {
    const first = await registerUser(api);
    const second = await registerUser(api);
    const token = `fcm-${uniqueName('token')}`;
    expect((await api.post('/me/push-tokens', { token, platform: 'android' }, first.token)).status).toBe(201);
    expect((await api.post('/me/push-tokens', { token, platform: 'ios' }, second.token)).body).toMatchObject({ ok: true, token, platform: 'ios' });
    expect((await api.delete(`/me/push-tokens/${token}`, first.token)).status).toBe(404);
    expect((await api.delete(`/me/push-tokens/${token}`, second.token)).status).toBe(200);
    expect((await api.post('/me/push-tokens', { token, platform: 'desktop' }, first.token)).status).toBe(400);
  });
});
