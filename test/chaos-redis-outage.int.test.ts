/**
 * Chaos: Redis unavailable under a server process (issue #33, chaos 4), through a TCP proxy this test owns between
 * the process and the shared Redis (never touched itself). What was found: the access gate failed open with no
 * limit at all, and password sign-in answered 500 (its lockout counter threw). Now every limit is counted in the
 * process while Redis is away — fail open, with local counters (docs/reliability.md) — and shared again after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser, PASSWORD, type ApiClient } from './support/api-client.js';
import { readiness, until } from './support/chaos.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { realServices, usingRealServices } from './support/services.js';
import { hostPortOf, startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

describe.skipIf(!usingRealServices)('Redis unavailable (real services only: the embedded counters live in the process)', () => {
  let proxy: TcpProxy;
  let server: ServerProcess;
  let api: ApiClient;

  beforeAll(async () => {
    proxy = await startTcpProxy(hostPortOf(realServices.redisUrl, 6379));
    server = await startServerProcess({ DATABASE_URL: realServices.databaseUrl, REDIS_URL: proxy.rewrite(realServices.redisUrl), NATS_URL: realServices.natsUrl });
    api = apiClient(server.baseUrl);
  });

  afterAll(async () => {
    proxy?.restore();
    await server?.stop();
    await proxy?.close();
  });

  it('keeps serving with limits and lockouts counted in the process, names counters on /ready, and shares them again after', { timeout: 120_000 }, async () => {
    const user = await registerUser(api, 'redis-outage');
    const other = await registerUser(api, 'redis-outage-other');
    proxy.cut();
    expect(await until(() => readiness(server), (value) => value.status === 503, 20_000)).toEqual({ status: 503, failed: ['counters'] });

    // sign-in works (it answered 500 before: the lockout's counter threw)
    const login = await api.post('/auth/login', { email: user.email, password: PASSWORD });
    expect(login.status, JSON.stringify(login.body)).toBe(201);
    // the brute-force lockout still holds: 10 failures per account and window, the 11th is refused
    const failures = [];
    for (let attempt = 0; attempt < 11; attempt++) failures.push(await api.post('/auth/login', { email: other.email, password: 'wrong password, wrong' }));
    expect(failures.slice(0, 10).map((response) => response.body.details?.reason)).toEqual(Array(10).fill('invalid_credentials'));
    expect(failures[10]!.status).toBe(429);
    expect(failures[10]!.body.code).toBe('RATE_LIMITED');
    // and so does a per-endpoint throttle (30 a minute on /ai/search-understanding)
    const answers = [];
    for (let index = 0; index < 31; index++) answers.push(await api.post('/ai/search-understanding', { query: 'pharmacy near me' }, user.token));
    expect(answers.slice(0, 30).every((response) => response.status === 201)).toBe(true);
    expect(answers[30]!.status).toBe(429);
    expect(answers[30]!.headers.get('retry-after')).not.toBeNull();
    expect(server.output.filter((line) => line.includes('"status":500'))).toEqual([]);

    proxy.restore();
    expect(await until(() => readiness(server), (value) => value.status === 200, 30_000)).toEqual({ status: 200, failed: [] });
    // back on the shared counters, which did not see the local ones: the account is not locked there
    expect((await api.post('/auth/login', { email: other.email, password: PASSWORD })).status).toBe(201);
    await expect.poll(() => server.output.some((line) => line.includes('limits counted in this process')), { timeout: 5_000 }).toBe(true);
  });
});
