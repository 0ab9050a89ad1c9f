import { readFileSync } from 'node:fs';
import type { Config } from './shared/config.js';
import type { Logger } from './shared/logger.js';
import { closeBackends, describeBackends, openBackends } from './wiring/backends.js';
import { EdgeServer } from './edge/server.js';
import { HttpMetrics } from './edge/metrics.js';
import { buildOpenApiDocument } from './edge/openapi.js';
import type { RouteDefinition } from './edge/route.js';
import { apiDocsRoutes } from './edge/routes/api-docs.js';
import { metricsRoutes, operationsRoutes } from './edge/routes/operations.js';
import { wireAccounts } from './wiring/accounts-wiring.js';
import { InProcessDispatcher } from './edge/in-process-dispatch.js';
import { checkReadiness } from './services/operations/readiness.js';
import { SolverPool } from './solvers/solver-pool.js';
import { mapDataRoutes } from './edge/routes/map-data.js';
import { loadMapData } from './services/map-data/map-data-source.js';
import { wireRouting } from './wiring/routing-wiring.js';
import { wireNavigation } from './wiring/navigation-wiring.js';
import { wireGeocoding } from './wiring/geocoding-wiring.js';
import { wireOptimization } from './wiring/optimization-wiring.js';
import { RoutingTravelMatrix } from './services/routing/routing-travel-matrix.js';
import { wireFleet } from './wiring/fleet-wiring.js';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** Busy solver workers count as alive while some task started or finished within this window. */
const WORKER_PROGRESS_WINDOW_MS = 60_000;

export interface RunningApplication {
  port: number;
  /** The metrics listener's port, when METRICS_PORT is set. */
  metricsPort: number | undefined;
  /** Graceful stop: no new connections, in-flight requests finish, then pools and clients close. */
  stop(): Promise<void>;
}

/** The composition root: builds every component from the config and starts serving. */
export async function startApplication(config: Config, logger: Logger): Promise<RunningApplication> {
  const mapData = await loadMapData({ dataPack: config.DATA_PACK, dataDir: config.DATA_DIR, logger });
  // Start-up order on a small machine: the geocoding index first, while nothing competes for the cores (built
  // beside the starting solver threads it took twice as long); then the solver threads, which load their modules
  // and build the routing hierarchy on the other core while this thread opens the backends.
  let listeningPort = config.PORT;
  const geocoding = wireGeocoding(config, mapData.pack, logger, () => listeningPort);
  // workers see the pack's memory itself (a SharedArrayBuffer), never a copy
  const solvers = new SolverPool({ threads: config.WORKER_THREADS, maxQueued: config.SOLVER_QUEUE_LIMIT, runningTaskOnAbort: 'finish', shared: { mapPack: mapData.pack.buffer as SharedArrayBuffer } });
  // a start that fails (a backend, a module, the port taken) leaves no thread or connection behind: callers that
  // go on living (tests) would otherwise keep them
  const closeOnFailure: (() => Promise<unknown>)[] = [() => solvers.close()];
  try {
    const backends = await openBackends(config, logger);
    closeOnFailure.push(() => closeBackends(backends, logger));
    // Optimization searches hold their threads for the whole tier (2–20 s): a pool of their own keeps
    // routes and matrices from queueing behind them.
    // No thread until the first optimization request: most starts never need one.
    const optimizationSolvers = new SolverPool({ threads: config.WORKER_THREADS, minThreads: 0 });
    closeOnFailure.push(() => optimizationSolvers.close());
    const metrics = new HttpMetrics();
    let dispatcher: InProcessDispatcher | undefined;
    const accounts = await wireAccounts(config, backends, logger, () => {
      if (!dispatcher) throw new Error('dispatcher used before start-up finished');
      return dispatcher;
    });

    const readiness = () =>
      checkReadiness(
        [
          { name: 'sql', check: () => backends.sql.ping() },
          { name: 'counters', check: () => backends.counters.ping() },
          { name: 'bus', check: () => backends.bus.ping() },
          { name: 'workers', check: () => solvers.probe(WORKER_PROGRESS_WINDOW_MS) },
        ],
        config.READY_TIMEOUT_MS,
      );

    const routing = wireRouting(config, mapData.pack, solvers, logger);
    const navigation = await wireNavigation(config, backends, mapData.pack, routing.routing, accounts.guards, logger);
    const travelMatrix = new RoutingTravelMatrix(routing.routing);
    const optimization = wireOptimization(config, optimizationSolvers, backends, logger, travelMatrix);
    const fleets = wireFleet(config, backends, optimizationSolvers, travelMatrix, accounts.guards, logger);
    const webSockets = [...navigation.webSockets, ...fleets.webSockets];

    const routes: RouteDefinition[] = [];
    let openApi: unknown;
    const document = () =>
      (openApi ??= buildOpenApiDocument([...routes, ...webSockets.map((endpoint) => endpoint.route)], {
        title: 'Location Platform API',
        version: packageJson.version,
        description:
          'Place search, Arabic-aware geocoding, Plus Codes, routing, navigation, optimization and tiles for the Middle East. Map data © OpenStreetMap contributors (ODbL).',
      }));
    routes.push(
      ...operationsRoutes({ readiness, backends: describeBackends(backends), version: packageJson.version }),
      ...apiDocsRoutes(document),
      ...accounts.routes,
      ...geocoding.routes,
      ...mapDataRoutes(mapData.pack),
      ...routing.routes,
      ...navigation.routes,
      ...optimization.routes,
      ...fleets.routes,
    );

    const server = new EdgeServer({
      host: config.HOST,
      port: config.PORT,
      reusePort: config.REUSE_PORT,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      logger,
      metrics,
      guards: accounts.guards,
      routes,
      webSockets,
    });
    // A listener of its own, so that metrics are never served to API callers (README, configuration).
    const metricsServer =
      config.METRICS_PORT === undefined
        ? undefined
        : new EdgeServer({
            host: config.METRICS_HOST ?? config.HOST,
            port: config.METRICS_PORT,
            reusePort: config.REUSE_PORT,
            bodyLimitBytes: config.BODY_LIMIT_BYTES,
            logger,
            metrics,
            routes: metricsRoutes(metrics),
          });
    dispatcher = new InProcessDispatcher(routes, { logger, metrics, guards: accounts.guards });
    const port = await server.listen();
    listeningPort = port;
    closeOnFailure.push(() => server.shutdown(0));
    const metricsPort = await metricsServer?.listen();
    logger.info({ port, host: config.HOST, ...(metricsPort === undefined ? {} : { metricsPort }), backends: describeBackends(backends), workers: solvers.threads }, 'listening');

    let stopping: Promise<void> | undefined;
    return {
      port,
      metricsPort,
      stop: () =>
        (stopping ??= (async () => {
          const [{ timedOut }] = await Promise.all([server.shutdown(config.SHUTDOWN_GRACE_MS), metricsServer?.shutdown(0)]);
          if (timedOut) logger.warn({ inFlight: server.inFlight }, 'shutdown grace period ended with requests in flight');
          await accounts.stop();
          await navigation.stop();
          await optimization.stop();
          await fleets.stop();
          await Promise.all([solvers.close(), optimizationSolvers.close()]);
          await closeBackends(backends, logger);
        })()),
    };
  } catch (error) {
    await Promise.allSettled(closeOnFailure.map((close) => close()));
    throw error;
  }
}
