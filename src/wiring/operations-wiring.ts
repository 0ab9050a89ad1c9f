/**
 * Wiring of the operations endpoints outside /api/v1 (health, readiness, metrics)
 * and of the API's own description (the OpenAPI document and its UI).
 */
import type { HttpMetrics } from '../edge/metrics.js';
import { buildOpenApiDocument } from '../edge/openapi.js';
import type { BoundRoute, RouteDefinition } from '../edge/route.js';
import { apiDocsRoutes } from '../edge/routes/api-docs.js';
import { webAppRoutes } from '../edge/routes/web-app.js';
import { metricsRoutes, operationsRoutes } from '../edge/routes/operations.js';
import { checkReadiness } from '../services/operations/readiness.js';
import { describePushProviders } from '../services/push/push-providers.js';
import type { Config } from '../shared/config.js';
import type { SolverPool } from '../solvers/solver-pool.js';
import { describeBackends, type Backends } from './backends.js';

/** Busy solver workers count as alive while some task started or finished within this window. */
const WORKER_PROGRESS_WINDOW_MS = 60_000;

/** What the OpenAPI document says the API is; keep it to what the route tables serve. */
export const API_DESCRIPTION =
  'Arabic-aware geocoding, Plus Code addressing, routing and map matching, turn-by-turn navigation sessions, ' +
  'route optimization and live fleets, holiday and Hijri calendars for the Middle East, behind accounts, developer keys and quotas. ' +
  'Map data © OpenStreetMap contributors (ODbL).';

export interface OperationsWiringDeps {
  config: Config;
  backends: Backends;
  solvers: SolverPool;
  metrics: HttpMetrics;
  version: string;
  /** Every route the server answers, HTTP and WebSocket, read when the document is first asked for. */
  documentedRoutes(): readonly BoundRoute[];
}

export interface OperationsWiring {
  /** Served on the API's listener. */
  routes: RouteDefinition[];
  /** Served only on the metrics listener (METRICS_PORT). */
  metricsRoutes: RouteDefinition[];
}

export function wireOperations(deps: OperationsWiringDeps): OperationsWiring {
  const { backends, solvers } = deps;
  const readiness = () =>
    checkReadiness(
      [
        { name: 'sql', check: () => backends.sql.ping() },
        { name: 'counters', check: () => backends.counters.ping() },
        { name: 'bus', check: () => backends.bus.ping() },
        { name: 'workers', check: () => solvers.probe(WORKER_PROGRESS_WINDOW_MS) },
      ],
      deps.config.READY_TIMEOUT_MS,
    );
  let openApi: unknown;
  const document = () =>
    (openApi ??= buildOpenApiDocument(deps.documentedRoutes(), { title: 'Location Platform API', version: deps.version, description: API_DESCRIPTION }));
  return {
    routes: [
      ...operationsRoutes({ readiness, backends: describeBackends(backends), providers: describePushProviders(deps.config), version: deps.version }),
      ...apiDocsRoutes(document),
      ...webAppRoutes(),
    ],
    metricsRoutes: metricsRoutes(deps.metrics),
  };
}
