import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from './support/admin-cli.js';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { realServices, sharedDeployment, uniqueName } from './support/services.js';

/**
 * A disabled account's API keys, and one key an operator suspends (issue #22, fault 6): refused from the next
 * request on, on every process, although every process caches keys for 30 s.
 */

const PLUS_CODE = '/geo/pluscode?lat=30.0626&lng=31.3219';

async function developerWithKeys(api: ApiClient, count = 1) {
  const user = await registerUser(api, 'keyowner');
  await api.post('/developer/enroll', undefined, user.token);
  const organization = (await api.post('/developer/organizations', { name: 'Org' }, user.token)).body;
  const project = (await api.post('/developer/projects', { name: 'App', organizationId: organization.id }, user.token)).body;
  const keys: Array<{ id: string; key: string }> = [];
  for (let index = 0; index < count; index++) keys.push((await api.post('/developer/api-keys', { projectId: project.id, label: `k${index}`, scopes: { geo: true } }, user.token)).body);
  return { ...user, keys };
}

async function adminOf(api: ApiClient, database: Record<string, string>) {
  const admin = await registerUser(api, 'operator');
  const granted = await runAdminCli(['grant-role', admin.email, 'admin'], database);
  expect(granted.code, granted.stderr).toBe(0);
  return admin;
}

const withKey = (api: ApiClient, key: string) => api.get(PLUS_CODE, undefined, { 'x-api-key': key });

function expectRefused(response: { status: number; body: any }, reason: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(403);
  expect(response.body).toMatchObject({ statusCode: 403, error: 'Forbidden', code: 'FORBIDDEN', details: { reason }, requestId: expect.any(String) });
}

describe('on one process', () => {
  // The operator CLI and the server share one database: a real Postgres schema of this file's own.
  const database = { DATABASE_URL: realServices.databaseUrl, DATABASE_SCHEMA: uniqueName('t') };
  let server: ServerProcess;
  let api: ApiClient;
  let admin: Awaited<ReturnType<typeof adminOf>>;
  beforeAll(async () => {
    server = await startServerProcess(database);
    api = apiClient(server.baseUrl);
    admin = await adminOf(api, database);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("stops a disabled account's keys at the next request, and lets them work again once it is enabled", async () => {
    const owner = await developerWithKeys(api);
    const { key } = owner.keys[0]!;
    // used once: the key is now in the process's cache
    expect((await withKey(api, key)).status).toBe(200);
    expect((await api.patch(`/admin/users/${owner.userId}`, { disabled: true }, admin.token)).body).toMatchObject({ disabled: true });
    expectRefused(await withKey(api, key), 'account_disabled');
    expectRefused(await api.get(`${PLUS_CODE}&api_key=${key}`), 'account_disabled');
    expect((await api.patch(`/admin/users/${owner.userId}`, { disabled: false }, admin.token)).status).toBe(200);
    expect((await withKey(api, key)).status).toBe(200);
  });

  it('suspends one key and lifts the hold; its owner cannot lift it, and the owner\'s other keys go on working', async () => {
    const owner = await developerWithKeys(api, 2);
    const [suspended, other] = owner.keys as [{ id: string; key: string }, { id: string; key: string }];
    expect((await withKey(api, suspended.key)).status).toBe(200);
    const held = await api.patch(`/admin/api-keys/${suspended.id}`, { suspended: true }, admin.token);
    expect(held.body).toMatchObject({ id: suspended.id, suspended: true });
    expectRefused(await withKey(api, suspended.key), 'key_suspended');
    expect((await withKey(api, other.key)).status).toBe(200);
    // the owner's own switch does not lift an operator's hold
    expect((await api.patch(`/developer/api-keys/${suspended.id}`, { active: true }, owner.token)).status).toBe(200);
    expectRefused(await withKey(api, suspended.key), 'key_suspended');
    // a regular user cannot suspend keys
    expect((await api.patch(`/admin/api-keys/${other.id}`, { suspended: true }, owner.token)).status).toBe(403);
    const lifted = await api.patch(`/admin/api-keys/${suspended.id}`, { suspended: false }, admin.token);
    expect(lifted.body).toMatchObject({ suspended: false });
    expect((await withKey(api, suspended.key)).status).toBe(200);
    // the owner's deactivation still means what it meant
    await api.patch(`/developer/api-keys/${other.id}`, { active: false }, owner.token);
    expectRefused(await withKey(api, other.key), 'key_inactive');
  });
});

describe('on every process of a deployment (Postgres, Redis, NATS)', () => {
  const shared = sharedDeployment('keyrevoke');
  const deployment = { ...shared, JWT_SECRET: uniqueName('jwt-secret-for-the-key-revocation-test') };
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    servers.push(await startServerProcess(deployment), await startServerProcess(deployment));
  });
  afterAll(async () => {
    for (const server of servers.reverse()) await server.stop('SIGKILL').catch(() => undefined);
  });

  it('refuses the keys on the other process at once, though it had them cached', async () => {
    const [first, second] = servers.map((server) => apiClient(server.baseUrl)) as [ApiClient, ApiClient];
    const admin = await adminOf(first, { DATABASE_URL: shared.DATABASE_URL!, DATABASE_SCHEMA: shared.DATABASE_SCHEMA! });
    const owner = await developerWithKeys(first, 2);
    const [one, two] = owner.keys as [{ id: string; key: string }, { id: string; key: string }];
    for (const api of [first, second]) for (const { key } of owner.keys) expect((await withKey(api, key)).status).toBe(200);

    expect((await first.patch(`/admin/users/${owner.userId}`, { disabled: true }, admin.token)).status).toBe(200);
    expectRefused(await withKey(second, one.key), 'account_disabled');
    expectRefused(await withKey(second, two.key), 'account_disabled');
    expect((await second.patch(`/admin/users/${owner.userId}`, { disabled: false }, admin.token)).status).toBe(200);
    expect((await withKey(first, one.key)).status).toBe(200);

    expect((await second.patch(`/admin/api-keys/${one.id}`, { suspended: true }, admin.token)).status).toBe(200);
    expectRefused(await withKey(first, one.key), 'key_suspended');
    expect((await withKey(first, two.key)).status).toBe(200);
    expect((await first.patch(`/admin/api-keys/${one.id}`, { suspended: false }, admin.token)).status).toBe(200);
    expect((await withKey(second, one.key)).status).toBe(200);
  });
});
