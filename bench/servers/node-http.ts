/**
 * (c) The same request chain as the product's edge (route table, request id,
 * validation, CORS, metrics, per-request log line, error mapper) served by
 * node:http instead of uWebSockets.js: what the choice of server is worth.
 */
import { createServer } from 'node:http';
import { pino } from 'pino';
import { HttpMetrics } from '../../src/edge/metrics.js';
import { createRouteProcessor } from '../../src/edge/request-pipeline.js';
import { mountedPath } from '../../src/edge/route.js';
import { bindRoute } from '../../src/edge/route-binding.js';
import { metricsRoutes, operationsRoutes } from '../../src/edge/routes/operations.js';
import { createLogger } from '../../src/shared/logger.js';
import { ENDPOINT_TABLE } from '../../src/services/access/endpoint-access.js';

const port = Number(process.argv[2] ?? 0);
const metrics = new HttpMetrics();
const logger = process.env.LOG_LEVEL === 'silent' ? pino({ level: 'silent' }) : createLogger({ LOG_LEVEL: 'info' });
const routes = [
  ...operationsRoutes({
    readiness: async () => ({ ready: true, checks: {}, failed: [] }),
    backends: {},
    version: '0.1.0',
  }),
  ...metricsRoutes(metrics),
].map((route) => bindRoute(route, ENDPOINT_TABLE));
const processors = new Map(
  routes.map((route) => [`${route.method} ${mountedPath(route)}`, createRouteProcessor({ label: mountedPath(route), route, paramNames: [] }, { logger, metrics, guards: [] })]),
);
const notFound = createRouteProcessor({ label: 'unmatched', route: undefined, paramNames: [] }, { logger, metrics, guards: [] });
const EMPTY = Promise.resolve(Buffer.alloc(0));

const server = createServer((req, res) => {
  const [path = '/', query = ''] = (req.url ?? '/').split('?');
  const processor = processors.get(`${req.method} ${path}`) ?? notFound;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
  const abort = new AbortController();
  req.once('close', () => abort.abort());
  void Promise.resolve(
    processor({
    method: req.method ?? 'GET',
    url: path,
    query,
    headers,
    params: [],
    remoteAddress: req.socket.remoteAddress ?? '',
    body: EMPTY,
    signal: abort.signal,
    }),
  ).then((response) => {
    res.writeHead(response.status, response.headers);
    res.end(response.body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1');
