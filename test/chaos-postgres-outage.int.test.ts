/**
 * Chaos: Postgres taken away from a server process for about 10 s (issue #33, chaos 3), through a TCP proxy this
 * test owns between the process and the shared database (the database itself is never touched: other suites use
 * it). While it is away, requests that need it answer 503 DATABASE_UNAVAILABLE with Retry-After, at once (not a 500,
 * not a hang), and /ready names `sql`; when it is back the same process serves again without a restart, and every
 * write it acknowledged before the outage is there, a job accepted just before it included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser, PASSWORD, type ApiClient, type ApiResponse } from './support/api-client.js';
import { signInWhenBack } from './support/chaos.js';
import { driveAlong } from './support/drive.js';
import { NASR_CITY_STOPS, waitForJob } from './support/optimization.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { realServices, usingRealServices } from './support/services.js';
import { hostPortOf, startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

const ORIGIN = { lat: 30.0626, lng: 31.3219 };
const DESTINATION = { lat: 30.07, lng: 31.34 };
/** How long the database stays away (the 10 s). */
const OUTAGE_MS = 10_000;
/** The server's statement deadline (DATABASE_TIMEOUT_MS) in this test. */
const STATEMENT_DEADLINE_MS = 3_000;
/** Longest any request may take while the database is away (a few statements' deadlines): a hang past it fails the test. */
const REQUEST_BOUND_MS = 12_000;

const bounded = () => AbortSignal.timeout(REQUEST_BOUND_MS);

describe.skipIf(!usingRealServices)('Postgres unavailable for 10 s (real services only: the embedded database lives in the process)', () => {
  let proxy: TcpProxy;
  let server: ServerProcess;
  let api: ApiClient;

  beforeAll(async () => {
    proxy = await startTcpProxy(hostPortOf(realServices.databaseUrl, 5432));
    server = await startServerProcess({
      DATABASE_URL: proxy.rewrite(realServices.databaseUrl),
      REDIS_URL: realServices.redisUrl,
      NATS_URL: realServices.natsUrl,
      // a statement that waits for a connection gives up after this
      DATABASE_TIMEOUT_MS: String(STATEMENT_DEADLINE_MS),
    });
    api = apiClient(server.baseUrl);
  });

  afterAll(async () => {
    if (process.env.CHAOS_SERVER_LOG) (await import('node:fs')).writeFileSync(process.env.CHAOS_SERVER_LOG, server?.output.join('\n') ?? '');
    proxy?.restore();
    await server?.stop();
    await proxy?.close();
  });

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After while it is away, names sql on /ready, and recovers without a restart', { timeout: 180_000 }, async () => {
    // acknowledged writes before the outage: an account, a session with events, a job
    const user = await registerUser(api, 'pg-outage');
    const created = await api.post('/navigation/sessions', { origin: ORIGIN, destination: DESTINATION }, user.token);
    expect(created.status).toBe(201);
    const sessionPath = `/navigation/sessions/${created.body.sessionId}`;
    const fixes = driveAlong(created.body.route, { noiseMeters: 0, seed: 3, startTime: Date.now() });
    const driven = await api.post(`${sessionPath}/positions`, { positions: fixes.slice(0, 40) }, user.token);
    expect(driven.status).toBe(201);
    expect(driven.body.eventSeq).toBeGreaterThan(0);
    const acknowledged = driven.body.eventSeq as number;
    const job = await api.post('/optimize/jobs', { stops: NASR_CITY_STOPS, tier: 'fast' }, user.token);
    expect(job.status).toBe(201);

    proxy.cut();
    const outageEndsAt = Date.now() + OUTAGE_MS;
    const answers: { path: string; response: ApiResponse }[] = [];
    let ready: { status: number; body: any } | undefined;
    // requests that need the database, over and over while it is away
    while (Date.now() < outageEndsAt) {
      const round = await Promise.all([
        call(server, '/auth/login', { email: user.email, password: PASSWORD }),
        call(server, '/navigation/sessions', { origin: ORIGIN, destination: DESTINATION }, user.token),
        call(server, '/optimize/jobs', { stops: NASR_CITY_STOPS, tier: 'fast' }, user.token),
        call(server, '/auth/register', { email: `pg-outage-${Date.now()}@example.jo`, password: PASSWORD, name: 'x' }),
      ]);
      answers.push(...round);
      const readiness = await fetch(`${server.baseUrl}/ready`, { signal: bounded() });
      ready = { status: readiness.status, body: await readiness.json() };
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(answers.length).toBeGreaterThanOrEqual(8);
    for (const { path, response } of answers) {
      expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(503);
      expect(response.body, path).toMatchObject({ statusCode: 503, code: 'DATABASE_UNAVAILABLE', details: { dependency: 'database' } });
      expect(response.headers.get('retry-after'), path).toBe('5');
    }
    expect(ready!.status).toBe(503);
    expect(ready!.body.details.failed).toEqual(['sql']);
    // what needs no database keeps answering
    expect((await fetch(`${server.baseUrl}/health`, { signal: bounded() })).status).toBe(200);

    proxy.restore();
    // the same process serves again (its pool reconnects by itself)
    const login = await signInWhenBack(api, user.email);
    expect(login.status, JSON.stringify(login.body)).toBe(201);
    expect((await fetch(`${server.baseUrl}/ready`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
    expect(server.output.filter((line) => line.includes('"msg":"listening"'))).toHaveLength(1);
    // nothing acknowledged was lost: the session's events, and the job accepted just before the cut
    const session = await api.get(sessionPath, user.token);
    expect(session.status).toBe(200);
    expect(session.body.eventSeq).toBeGreaterThanOrEqual(acknowledged);
    const events = await api.get(`${sessionPath}/events?since=0`, user.token);
    expect(events.body.events.map((event: { seq: number }) => event.seq)).toEqual(Array.from({ length: events.body.eventSeq }, (_, index) => index + 1));
    const finished = await waitForJob(api, job.body.jobId, user.token, 90_000);
    expect(finished.body).toMatchObject({ id: job.body.jobId, status: 'completed', result: { feasible: true } });
    // and new writes go through
    expect((await api.post('/navigation/sessions', { origin: ORIGIN, destination: DESTINATION }, user.token)).status).toBe(201);
    // no request of the outage was logged as a fault
    expect(server.output.filter((line) => line.includes('"status":500'))).toEqual([]);
  });

  it('answers 503 at the statement deadline, not never, while the database is partitioned away (silent, not refusing)', { timeout: 120_000 }, async () => {
    const user = await registerUser(api, 'pg-partition');
    proxy.blackHole();
    try {
      const answers = await Promise.all([
        call(server, '/auth/login', { email: user.email, password: PASSWORD }),
        call(server, '/navigation/sessions', { origin: ORIGIN, destination: DESTINATION }, user.token),
        call(server, '/optimize/jobs', { stops: NASR_CITY_STOPS, tier: 'fast' }, user.token),
      ]);
      for (const { path, response } of answers) {
        expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(503);
        expect(response.body.code, path).toBe('DATABASE_UNAVAILABLE');
        expect(response.headers.get('retry-after'), path).toBe('5');
      }
      const ready = await fetch(`${server.baseUrl}/ready`, { signal: bounded() });
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { details: { failed: string[] } }).details.failed).toEqual(['sql']);
    } finally {
      proxy.restore();
    }
    const login = await signInWhenBack(api, user.email);
    expect(login.status, JSON.stringify(login.body)).toBe(201);
    expect(server.child.exitCode).toBeNull();
  });
});

/** A request that fails the test if it takes longer than REQUEST_BOUND_MS (a hang), answered with its path. */
async function call(server: ServerProcess, path: string, body: unknown, token?: string): Promise<{ path: string; response: ApiResponse }> {
  const startedAt = Date.now();
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
    signal: bounded(),
  }).catch((error: Error) => {
    throw new Error(`${path} did not answer in ${Date.now() - startedAt} ms: ${error.message}`);
  });
  const text = await response.text();
  return { path, response: { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined } };
}
