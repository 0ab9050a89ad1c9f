import { pino } from 'pino';
import { EdgeServer } from '../../src/edge/server.js';
import { HttpMetrics } from '../../src/edge/metrics.js';
import type { RequestGuard } from '../../src/edge/request-pipeline.js';
import type { RouteDefinition } from '../../src/edge/route.js';

export interface TestEdge {
  server: EdgeServer;
  baseUrl: string;
  port: number;
  metrics: HttpMetrics;
  close(): Promise<void>;
}

/** Starts the real edge (uWS, pipeline, error mapper) with the given route table on a free port. */
export async function startTestEdge(
  routes: RouteDefinition[],
  options: { bodyLimitBytes?: number; guards?: RequestGuard[] } = {},
): Promise<TestEdge> {
  const metrics = new HttpMetrics();
  const server = new EdgeServer({
    host: '127.0.0.1',
    port: 0,
    bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    metrics,
    routes,
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
