/**
 * The endpoint table on its own, and the edge's refusal to serve a route the table does not
 * know. Whether the table and the served routes match is test/endpoint-table.int.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { HttpMetrics } from '../src/edge/metrics.js';
import { defineRoute, type RouteDefinition } from '../src/edge/route.js';
import { bindRoute } from '../src/edge/route-binding.js';
import { EdgeServer } from '../src/edge/server.js';
import { ENDPOINT_ROWS, ENDPOINT_TABLE, type EndpointRow } from '../src/services/access/endpoint-access.js';
import { EndpointTable } from '../src/services/access/endpoint-table.js';

const nameOf = (row: Pick<EndpointRow, 'method' | 'path' | 'mount'>) => `${row.method} ${row.mount === 'root' ? '' : '/api/v1'}${row.path}`;

describe('endpoint table', () => {
  it('names each endpoint once', () => {
    const names = ENDPOINT_ROWS.map(nameOf);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
    const row = ENDPOINT_ROWS[0]!;
    expect(() => new EndpointTable([row, { ...row }])).toThrow(`names ${nameOf(row)} twice`);
  });

  it('lifts only the POST /search/events throttle for unlimited keys', () => {
    expect(ENDPOINT_ROWS.filter((row) => row.throttleLiftedForUnlimited).map(nameOf)).toEqual(['POST /api/v1/search/events']);
  });

  it('requires both routing and traffic for POST /traffic/route', () => {
    expect(ENDPOINT_TABLE.find('POST', 'api', '/traffic/route')?.scopes).toEqual(['routing', 'traffic']);
  });

  // the operations endpoints, and the approved place photos a page's <img> fetches without credentials
  it('keeps the endpoints at the root open, unscoped and billed at 1', () => {
    const root = ENDPOINT_ROWS.filter((row) => row.mount === 'root');
    expect(root.map(nameOf).sort()).toEqual(['GET /', 'GET /app/{asset}', 'GET /docs', 'GET /docs/{asset}', 'GET /health', 'GET /metrics', 'GET /ready', 'GET /uploads/place-logos/{file}', 'GET /uploads/place-photos/{file}', 'GET /uploads/weather-icons/{file}']);
    for (const row of root) expect({ name: nameOf(row), access: row.access, scopes: row.scopes, billing: row.billing }).toEqual({ name: nameOf(row), access: 'open', scopes: [], billing: 'default' });
  });

  // The spec's endpoint tables (`| METHOD | /path | …`), beside the repository as ../shared/spec.
  const specDir = fileURLToPath(new URL('../../shared/spec/', import.meta.url));
  it.skipIf(!existsSync(specDir))('has a row for every endpoint in the spec tables', () => {
    const named: string[] = [];
    for (const file of readdirSync(specDir).filter((name) => name.endsWith('.md'))) {
      for (const line of readFileSync(`${specDir}${file}`, 'utf8').split('\n')) {
        // One row may list several methods ("POST, PATCH") or several paths ("/a, /b"); a query or a remark
        // ("/auth/providers (public)") is not part of the path.
        const cells = /^\|\s*((?:GET|POST|PUT|PATCH|DELETE)(?:\s*,\s*(?:GET|POST|PUT|PATCH|DELETE))*)\s*\|([^|]*)\|/.exec(line);
        if (!cells) continue;
        const paths = cells[2]!.split(',').map((cell) => cell.replace(/`/g, '').trim().split(/[\s?]/)[0]!);
        for (const method of cells[1]!.split(/\s*,\s*/)) for (const path of paths) named.push(`${method} ${path}`);
      }
    }
    expect(named.length).toBeGreaterThan(100);
    const known = new Set(ENDPOINT_ROWS.filter((row) => row.mount !== 'root').map((row) => `${row.method} ${row.path}`));
    expect(named.filter((endpoint) => !known.has(endpoint))).toEqual([]);
  });
});

describe('the edge binding routes to rows', () => {
  const handler = () => ({ ok: true });
  const start = (routes: RouteDefinition[], webSocketRoutes: RouteDefinition[] = []) =>
    new EdgeServer({
      host: '127.0.0.1',
      port: 0,
      bodyLimitBytes: 1024,
      logger: pino({ level: 'silent' }),
      metrics: new HttpMetrics(),
      endpoints: ENDPOINT_TABLE,
      routes,
      webSockets: webSocketRoutes.map((route) => ({ route, behavior: {} })),
    });

  it('refuses to start a route that has no row, naming it', () => {
    const unknown = defineRoute({ method: 'POST', path: '/no-such-endpoint', summary: 't', tags: ['t'], handler });
    expect(() => start([unknown])).toThrow('Route POST /api/v1/no-such-endpoint has no row in the endpoint table');
    // the row of a GET is not the row of a POST
    const wrongMethod = defineRoute({ method: 'POST', path: '/health', mount: 'root', summary: 't', tags: ['t'], handler });
    expect(() => start([wrongMethod])).toThrow('Route POST /health has no row');
    // nor is a root row the row of the same path under /api/v1
    expect(() => start([defineRoute({ method: 'GET', path: '/health', summary: 't', tags: ['t'], handler })])).toThrow('Route GET /api/v1/health has no row');
  });

  it('refuses a WebSocket without a row', () => {
    const stream = defineRoute({ method: 'GET', path: '/no-such-stream', summary: 't', tags: ['t'], handler });
    expect(() => start([], [stream])).toThrow('Route GET /api/v1/no-such-stream has no row');
  });

  it('refuses to serve an endpoint whose row is still marked planned', () => {
    // every endpoint of the spec is served now: mark one row planned in a table of the test's own
    const served = ENDPOINT_TABLE.find('GET', 'api', '/map/weather/point')!;
    const planned = { ...served, planned: true } as EndpointRow;
    expect(ENDPOINT_ROWS.filter((row) => row.planned)).toEqual([]);
    const route = defineRoute({ method: planned.method, path: planned.path, summary: 't', tags: ['t'], handler });
    const table = new EndpointTable(ENDPOINT_ROWS.map((row) => (row === served ? planned : row)));
    expect(() => bindRoute(route, table)).toThrow(`Route ${nameOf(planned)} is served, but its row in the endpoint table (src/services/access/endpoint-access.ts) is marked planned`);
  });

  it('binds each route to its own row', async () => {
    const route = defineRoute({ method: 'POST', path: '/routing/matrix', summary: 't', tags: ['t'], handler });
    const server = start([route]);
    expect(server.routes.map((bound) => bound.endpoint)).toEqual([ENDPOINT_TABLE.find('POST', 'api', '/routing/matrix')]);
    await server.shutdown(0);
  });
});
