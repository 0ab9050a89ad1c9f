import { pino } from 'pino';
import { EdgeServer } from '../../src/edge/server.js';
import { HttpMetrics } from '../../src/edge/metrics.js';
import type { RequestGuard } from '../../src/edge/request-pipeline.js';
import type { RouteDefinition } from '../../src/edge/route.js';
import { EndpointTable } from '../../src/services/access/endpoint-table.js';

export interface TestEdge {
  server: EdgeServer;
  baseUrl: string;
  port: number;
  metrics: HttpMetrics;
  close(): Promise<void>;
}

/** Rows for tests of the edge's mechanics, which are about no endpoint of the product: open, no scope, billed 1. */
export function openEndpointsFor(routes: readonly RouteDefinition[]): EndpointTable {
  return new EndpointTable(
    routes.map((route) => ({ method: route.method, path: route.path, ...(route.mount === 'root' ? { mount: 'root' as const } : {}), access: 'open' as const, scopes: [], billing: 'default' as const, source: 'test' })),
  );
}

/**
 * Starts the real edge (uWS, pipeline, error mapper) with the given route table on a free port.
 * `endpoints`: the rows the routes are bound to; by default each route gets an open one.
 */
export async function startTestEdge(
  routes: RouteDefinition[],
  options: { bodyLimitBytes?: number; guards?: RequestGuard[]; endpoints?: EndpointTable } = {},
): Promise<TestEdge> {
  const metrics = new HttpMetrics();
  const server = new EdgeServer({
    host: '127.0.0.1',
    port: 0,
    bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    metrics,
    routes,
    endpoints: options.endpoints ?? openEndpointsFor(routes),
    guards: options.guards ?? [],
  });
  const port = await server.listen();
  return {
    server,
    port,
    metrics,
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await server.shutdown(1_000);
    },
  };
}
