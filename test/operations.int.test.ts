import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes } from '../src/shared/errors.js';
import { startServerProcess, runServerToExit, type ServerProcess, serverTestTimeout } from './support/server-process.js';
import { usingRealServices, readJson } from './support/services.js';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess({ METRICS_PORT: '0' });
});
afterAll(async () => {
  await server?.stop();
});

describe('operations endpoints', () => {
  it('reports liveness', async () => {
    const response = await fetch(`${server.baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({ status: 'ok', version: expect.any(String) });
  });

  it('reports readiness of every backend, real or embedded as configured', async () => {
    const response = await fetch(`${server.baseUrl}/ready`);
    const body = await readJson(response);
    expect(response.status).toBe(200);
    expect(body.status).toBe('ready');
    expect(body.backends).toEqual(
      usingRealServices ? { sql: 'postgres', counters: 'redis', bus: 'nats' } : { sql: 'pglite', counters: 'memory', bus: 'memory' },
    );
    for (const name of ['sql', 'counters', 'bus', 'workers']) expect(body.checks[name]).toMatchObject({ ok: true });
  });

  it('exposes Prometheus metrics per route and status on the metrics port', async () => {
    await fetch(`${server.baseUrl}/health`);
    await fetch(`${server.baseUrl}/api/v1/missing`);
    const response = await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/health",status="200"\} [1-9]/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]/);
    expect(text).toContain('http_request_duration_seconds_bucket');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('writes one structured log line per request with its request id', async () => {
    await fetch(`${server.baseUrl}/health`, { headers: { 'x-request-id': 'log-line-check-1' } });
    await fetch(`${server.baseUrl}/health?api_key=svc_secretsecret`, { headers: { 'x-request-id': 'log-line-check-2' } });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const line = server.output.find((entry) => entry.includes('log-line-check-1'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ msg: 'request', method: 'GET', url: '/health', status: 200, route: '/health' });
    const withKey = server.output.find((entry) => entry.includes('log-line-check-2'));
    expect(withKey).toBeDefined();
    expect(withKey).not.toContain('svc_secretsecret');
  });
});

describe('API documentation', () => {
  it('serves an OpenAPI 3.1 document generated from the route tables', async () => {
    const response = await fetch(`${server.baseUrl}/api/v1/openapi.json`);
    const document = await readJson(response);
    expect(response.status).toBe(200);
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/health', '/ready', '/api/v1/openapi.json']));
    expect(document.paths['/ready'].get.responses['503']).toBeDefined();
    // The access gate's answers are documented on the API routes it guards.
    expect(Object.keys(document.paths['/api/v1/developer/api-keys'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '404', '429']));
    expect(document.paths['/api/v1/geo/pluscode'].get.responses['403'].description).toContain('QUOTA_EXCEEDED');
    expect(document.paths['/api/v1/geo/pluscode'].get['x-scopes']).toEqual(['geo']);
    expect(document.components.schemas.Error.properties.code.enum).toEqual(Object.keys(errorCodes));
    // The browser legs of social sign-in redirect: the document says 302 with a Location, not a 200 JSON body.
    for (const leg of ['start', 'callback']) {
      const responses = document.paths[`/api/v1/auth/oauth/{provider}/${leg}`].get.responses;
      expect(responses['302'], leg).toMatchObject({ headers: { Location: { schema: { type: 'string' } } } });
      expect(responses['200'], leg).toBeUndefined();
    }
  });

  it('serves the docs page and its assets locally, with attribution', async () => {
    const page = await fetch(`${server.baseUrl}/docs`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('/api/v1/openapi.json'.replace('/api/v1/openapi.json', '/docs/init.js'));
    expect(html).toContain('OpenStreetMap contributors');
    expect(html).not.toMatch(/https?:\/\/(?!www\.openstreetmap\.org)/);
    const bundle = await fetch(`${server.baseUrl}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const init = await (await fetch(`${server.baseUrl}/docs/init.js`)).text();
    expect(init).toContain('/api/v1/openapi.json');
  });

  it('serves no file outside the asset list', async () => {
    for (const path of ['/docs/package.json', '/docs/..%2F..%2Fpackage.json', '/docs/index.html']) {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect(response.status).toBe(404);
      expect((await readJson(response)).code).toBe('NOT_FOUND');
    }
  });
});

describe('degraded backends', () => {
  it('answers /ready 503 naming the counter store when Redis is unreachable, and stays live', { timeout: serverTestTimeout(1) }, async () => {
    const degraded = await startServerProcess({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const response = await fetch(`${degraded.baseUrl}/ready`);
      const body = await readJson(response);
      expect(response.status).toBe(503);
      expect(body).toMatchObject({ statusCode: 503, code: 'NOT_READY', error: 'Service Unavailable' });
      expect(body.message).toContain('counters');
      expect(body.details.failed).toEqual(['counters']);
      expect(typeof body.requestId).toBe('string');
      expect((await fetch(`${degraded.baseUrl}/health`)).status).toBe(200);
    } finally {
      await degraded.stop();
    }
  });

  it('answers /ready 503 naming the bus when NATS is unreachable', { timeout: serverTestTimeout(1) }, async () => {
    const degraded = await startServerProcess({ NATS_URL: 'nats://127.0.0.1:1' });
    try {
      const body = await readJson(await fetch(`${degraded.baseUrl}/ready`));
      expect(body.statusCode).toBe(503);
      expect(body.details.failed).toEqual(['bus']);
    } finally {
      await degraded.stop();
    }
  });

  it('answers /ready within its timeout when a dependency hangs', { timeout: serverTestTimeout(1) }, async () => {
    // A TCP peer that accepts and never speaks: Redis that hangs rather than refuses.
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const degraded = await startServerProcess({ REDIS_URL: `redis://127.0.0.1:${port}`, READY_TIMEOUT_MS: '300' });
    try {
      const startedAt = Date.now();
      const response = await fetch(`${degraded.baseUrl}/ready`);
      expect(response.status).toBe(503);
      expect(Date.now() - startedAt).toBeLessThan(3_000);
    } finally {
      await degraded.stop();
      silent.close();
    }
  });
});

describe('process lifecycle', () => {
  it('stops cleanly on SIGTERM', { timeout: serverTestTimeout(1) }, async () => {
    const running = await startServerProcess();
    expect((await fetch(`${running.baseUrl}/health`)).status).toBe(200);
    const code = await running.stop('SIGTERM');
    expect(code).toBe(0);
    expect(running.output.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
    await expect(fetch(`${running.baseUrl}/health`)).rejects.toThrow();
  });

  it('refuses to start on a bad configuration value, naming the variable', { timeout: serverTestTimeout(1) }, async () => {
    const result = await runServerToExit({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(result.code).toBe(78);
    expect(result.output).toContain('PORT');
    expect(result.output).toContain('LOG_LEVEL');
  });

  it('refuses to start when the database is unreachable, and exits (Redis and NATS, opened alongside, do not hold it)', { timeout: serverTestTimeout(1) }, async () => {
    const closed = await closedPort();
    const env: Record<string, string> = { DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/test` };
    if (usingRealServices) Object.assign(env, { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
    const result = await runServerToExit(env);
    // once in a CI run the process ended by a signal instead (code null): say which, with its last words
    expect(result.code, `signal ${result.signal}; output: ${result.output.slice(-2_000)}`).toBe(1);
    expect(result.output).toMatch(/Database unavailable \(postgres\): .*ECONNREFUSED/);
  });
});

/** A port nothing listens on: one the OS just handed out, closed again. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
