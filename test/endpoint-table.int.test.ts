/**
 * The endpoint table against what the application really serves: the composition root is
 * started (embedded backends; the solver threads load dist/, so build first) and its served
 * routes, HTTP and WebSocket, are read back. A served route without a row, a row whose route
 * is gone, and a `planned` mark on a served endpoint all fail here.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApplication, type RunningApplication } from '../src/application.js';
import { ENDPOINT_ROWS, type EndpointRow } from '../src/services/access/endpoint-access.js';
import { billingWeight } from '../src/services/limits/request-weights.js';
import { loadConfig } from '../src/shared/config.js';

const nameOf = (endpoint: Pick<EndpointRow, 'method' | 'path'> & { mount?: 'api' | 'root' | undefined }) =>
  `${endpoint.method} ${endpoint.mount === 'root' ? '' : '/api/v1'}${endpoint.path}`;

let app: RunningApplication;
beforeAll(async () => {
  // METRICS_PORT: /metrics is served on a listener of its own, and only when one is configured
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', METRICS_PORT: '0', DATA_DIR: 'memory://', WORKER_THREADS: '1', LOG_LEVEL: 'silent' });
  app = await startApplication(config, pino({ level: 'silent' }));
});
afterAll(async () => {
  await app?.stop();
});

describe('endpoint table and served routes', () => {
  it('serves each route with the row of its own method and path', () => {
    expect(app.served.length).toBeGreaterThan(100);
    for (const route of app.served) {
      expect(nameOf(route.endpoint), `${nameOf(route)} is bound to another endpoint's row`).toBe(nameOf(route));
    }
  });

  it('serves every row not marked planned, and none that is', () => {
    const served = new Set(app.served.map(nameOf));
    const gone = ENDPOINT_ROWS.filter((row) => !row.planned && !served.has(nameOf(row))).map(nameOf);
    expect(gone, 'rows whose route is gone: take the row out, or mark it planned: true').toEqual([]);
    const stale = ENDPOINT_ROWS.filter((row) => row.planned && served.has(nameOf(row))).map(nameOf);
    expect(stale, 'served endpoints still marked planned').toEqual([]);
  });

  it('bills the work a request asks for: reads cost 1, computations their class', () => {
    // The pricing rule of docs/key-enforcement.md, written apart from the table's classes.
    const ROUTING_COMPUTATIONS = new Set(['POST /navigation/sessions', 'PATCH /navigation/sessions/{id}', 'POST /navigation/recalculate', 'POST /navigation/arrival-check', 'POST /traffic/route']);
    const expectedWeight = (method: string, path: string, query: Record<string, string>) => {
      if (path.startsWith('/geocode')) return /[\u0600-\u06FF]/.test(query.q ?? '') ? 3 : 2;
      if (method === 'GET' || method === 'DELETE') return 1;
      if (path.startsWith('/optimize/')) return 20;
      if (path === '/routing/matrix' || path === '/routing/isochrone' || path === '/routing/optimize') return 10;
      if (path.startsWith('/routing/') || ROUTING_COMPUTATIONS.has(`${method} ${path}`)) return 5;
      // fixes, progress, off-route checks and speech are tracking, not routing
      return 1;
    };
    const queries: Record<string, string>[] = [{}, { q: 'Al Tayaran Street' }, { q: 'شارع الطيران' }];
    const mispriced = app.served
      .filter((route) => route.mount !== 'root')
      .flatMap((route) =>
        queries.map((query) => ({ endpoint: nameOf(route), query, weight: billingWeight(route.endpoint.billing, query), expected: expectedWeight(route.method, route.path, query) })),
      )
      .filter(({ weight, expected }) => weight !== expected);
    expect(mispriced).toEqual([]);
  });
});
