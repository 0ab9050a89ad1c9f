/**
 * The server the OpenAPI fuzz test talks to, and the fuzzer's standing on it: a super_admin account with an
 * unlimited key of every scope, a second account, and resources of both whose ids go into paths and bodies.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdminCli } from '../admin-cli.js';
import { apiClient, PASSWORD, registerUser, type ApiClient } from '../api-client.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';
import { realServices, uniqueName, usingRealServices } from '../services.js';
import type { Credentials, Pools } from './requests.js';

export interface FuzzServer {
  server: ServerProcess;
  credentials: Credentials;
  pools: Pools;
  stop(): Promise<void>;
}

const START = { startTimeoutMs: 120_000 };
const SCOPES = ['search', 'geocode', 'places', 'routing', 'traffic', 'telemetry', 'tiles', 'imagery', 'geo', 'insights', 'optimize'];

/**
 * Starts the server and enrols the fuzzer. The operator CLI and the server share one database: a private schema
 * on the real services, or the embedded database in a directory of its own (the server is stopped while the CLI
 * holds it, then started again on the same directory).
 */
export async function startFuzzServer(): Promise<FuzzServer> {
  const deployment: Record<string, string> = usingRealServices
    ? { DATABASE_URL: realServices.databaseUrl, DATABASE_SCHEMA: uniqueName('fz'), REDIS_PREFIX: `${uniqueName('fz')}:`, BUS_NAMESPACE: uniqueName('fz') }
    : { DATA_DIR: await mkdtemp(join(tmpdir(), 'fuzz-')) };
  // a fresh embedded database directory (initdb, the map pack built into it) starts slower than memory://
  let server = await startServerProcess(deployment, START);
  let api = apiClient(server.baseUrl);
  const fuzzer = await registerUser(api, 'fuzzer');
  const other = await registerUser(api, 'other');
  await api.post('/developer/enroll', undefined, fuzzer.token);
  const organization = (await api.post('/developer/organizations', { name: 'Fuzz' }, fuzzer.token)).body;
  const project = (await api.post('/developer/projects', { name: 'Fuzz', organizationId: organization.id }, fuzzer.token)).body;
  const scopes = Object.fromEntries(SCOPES.map((scope) => [scope, true]));
  const key = (await api.post('/developer/api-keys', { projectId: project.id, label: 'fuzz', scopes }, fuzzer.token)).body;
  if (typeof key?.key !== 'string') throw new Error(`setup: the key was not made: ${JSON.stringify(key)}`);

  if (deployment.DATA_DIR) await server.stop();
  for (const args of [
    ['grant-role', fuzzer.email, 'super_admin'],
    ['key-unlimited', key.id, 'on'],
  ]) {
    const result = await runAdminCli(args, { ...process.env, ...deployment } as Record<string, string>);
    if (result.code !== 0) throw new Error(`setup: admin ${args.join(' ')}: ${result.stderr}`);
  }
  if (deployment.DATA_DIR) {
    server = await startServerProcess(deployment, START);
    api = apiClient(server.baseUrl);
  }
  // Tokens minted now carry the new role; the first session stays the fuzzer's own.
  const login = async (email: string) => (await api.post('/auth/login', { email, password: PASSWORD })).body;
  const main = await login(fuzzer.email);
  const second = await login(fuzzer.email);
  const otherSession = await login(other.email);
  const credentials: Credentials = { token: main.accessToken, key: key.key, keyId: key.id, otherToken: otherSession.accessToken };
  const me = await api.get('/auth/me', credentials.token);
  if (!me.body?.user?.roles?.includes('super_admin')) throw new Error(`setup: the fuzzer is not a super_admin: ${JSON.stringify(me.body)}`);
  const pools = await createResources(api, credentials, { otherUserId: other.userId, otherToken: otherSession.accessToken, secondSessionId: second.sessionId });
  return {
    server,
    credentials,
    pools,
    async stop() {
      await server.stop();
      if (deployment.DATA_DIR) await rm(deployment.DATA_DIR, { recursive: true, force: true });
    },
  };
}

/** Resources whose ids the fuzzer puts into paths and bodies: its own extra ones and the other account's. */
async function createResources(api: ApiClient, own: Credentials, other: { otherUserId: string; otherToken: string; secondSessionId: string }): Promise<Pools> {
  const byResource: Record<string, string[]> = { users: [other.otherUserId], sessionId: [other.secondSessionId] };
  const keep = (response: { status: number; body: any }, resource: string, fields = ['id', 'sessionId', 'fleetId', 'jobId']) => {
    const value = fields.map((field) => response.body?.[field]).find((found) => typeof found === 'string');
    if (typeof value !== 'string') throw new Error(`setup: ${resource} gave ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
    (byResource[resource] ??= []).push(value);
    return value;
  };
  const organization = keep(await api.post('/developer/organizations', { name: 'Spare' }, own.token), 'organizations');
  const project = keep(await api.post('/developer/projects', { name: 'Spare', organizationId: organization }, own.token), 'projects');
  keep(await api.post('/developer/api-keys', { projectId: project, label: 'spare' }, own.token), 'api-keys');
  for (const token of [own.token, other.otherToken]) {
    keep(await api.post('/me/saved-places', { name: 'Home', lat: 30.0626, lng: 31.3219 }, token), 'saved-places');
    keep(await api.post('/me/saved-lists', { name: 'Favourites' }, token), 'saved-lists');
    keep(await api.post('/me/history', { kind: 'search', query: 'مطعم' }, token), 'history');
    const share = await api.post('/me/live-shares', { lat: 30.0626, lng: 31.3219 }, token);
    keep(share, 'live-shares');
    keep(share, 'live-shares', ['shareToken']);
    const pushToken = `fuzz-push-${Math.random().toString(36).slice(2)}`;
    await api.post('/me/push-tokens', { token: pushToken, platform: 'android' }, token);
    (byResource['push-tokens'] ??= []).push(pushToken);
    keep(await api.post('/navigation/sessions', { origin: { lat: 30.0626, lng: 31.3219 }, destination: { lat: 30.07, lng: 31.34 } }, token), 'sessions');
  }
  keep(
    await api.post(
      '/optimize/fleets',
      { name: 'Fuzz', vehicles: [{ id: 'v1', start: { lat: 30.0626, lng: 31.3219 } }], stops: [{ id: 's1', lat: 30.07, lng: 31.34 }] },
      own.token,
    ),
    'fleets',
  );
  keep(await api.post('/optimize/jobs', { stops: [{ lat: 30.0626, lng: 31.3219 }, { lat: 30.07, lng: 31.34 }], tier: 'fast' }, own.token), 'jobs');
  return { byResource, ids: Object.values(byResource).flat() };
}
