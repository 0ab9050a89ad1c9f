import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, apiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess, serverTestTimeout } from './support/server-process.js';
import { readJson } from './support/services.js';

/**
 * `/metrics` (issue #22, fault 10): it named every route, status and the process's memory to any API caller. It is
 * now served only by a listener of its own on METRICS_PORT, never on the API port.
 */
describe('metrics on METRICS_PORT', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ METRICS_PORT: '0' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('are not served on the API port, to anyone', async () => {
    const anonymous = await fetch(`${server.baseUrl}/metrics`);
    expect(anonymous.status).toBe(404);
    expect(await readJson(anonymous)).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    const user = await registerUser(apiClient(server.baseUrl), 'metrics');
    expect((await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${user.token}` } })).status).toBe(404);
    const document = await readJson(await fetch(`${server.baseUrl}/api/v1/openapi.json`));
    expect(Object.keys(document.paths)).not.toContain('/metrics');
  });

  it('are served on the metrics port, which serves nothing else', async () => {
    expect(server.metricsPort).toEqual(expect.any(Number));
    expect(server.metricsPort).not.toBe(server.port);
    await fetch(`${server.baseUrl}/health`);
    const response = await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/http_requests_total\{method="GET",route="\/health",status="200"\} [1-9]/);
    expect((await fetch(`http://127.0.0.1:${server.metricsPort}/health`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.metricsPort}/api/v1/openapi.json`)).status).toBe(404);
  });
});

describe('without METRICS_PORT', () => {
  it('serves no metrics over HTTP', { timeout: serverTestTimeout(1) }, async () => {
    const server = await startServerProcess();
    try {
      expect(server.metricsPort).toBeUndefined();
      expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
