import { readFileSync } from 'node:fs';
import type { Config } from './shared/config.js';
import type { Logger } from './shared/logger.js';
import { closeBackends, describeBackends, openBackends } from './wiring/backends.js';
import { EdgeServer } from './edge/server.js';
import { HttpMetrics } from './edge/metrics.js';
import type { BoundRoute, RouteDefinition } from './edge/route.js';
import { InProcessDispatcher } from './edge/in-process-dispatch.js';
import { StreamAdmission } from './edge/ws/stream-admission.js';
import { SolverPool } from './solvers/solver-pool.js';
import { loadMapData } from './services/map-data/map-data-source.js';
import { RoutingTravelMatrix } from './services/routing/routing-travel-matrix.js';
import { wireAccounts } from './wiring/accounts-wiring.js';
import { wireCalendars } from './wiring/calendars-wiring.js';
import { wireTransit } from './wiring/transit-wiring.js';
import { wireEv } from './wiring/ev-wiring.js';
import { wireFleet } from './wiring/fleet-wiring.js';
import { wireGeocoding } from './wiring/geocoding-wiring.js';
import { wireMapData } from './wiring/map-data-wiring.js';
import { wireLogisticsZones, wireMapOverlays } from './wiring/map-overlays-wiring.js';
import { wireMapStyles } from './wiring/map-styles-wiring.js';
import { wireNavigation } from './wiring/navigation-wiring.js';
import { wireOperations } from './wiring/operations-wiring.js';
import { wireOptimization } from './wiring/optimization-wiring.js';
import { wirePlaces } from './wiring/places-wiring.js';
import { wireSearch } from './wiring/search-wiring.js';
import { wireRouting } from './wiring/routing-wiring.js';
import { wireVectorTiles } from './wiring/vector-tiles-wiring.js';
import { wireTraffic } from './wiring/traffic-wiring.js';
import { wireWeatherProvider } from './wiring/weather-wiring.js';
import { wireItineraries } from './wiring/itineraries-wiring.js';
import { wireIncidents } from './wiring/incidents-wiring.js';
import { wireAds, wireBilling } from './wiring/billing-wiring.js';
import { wireAssistant } from './wiring/assistant-wiring.js';
import type { TrafficService } from './services/traffic/traffic-service.js';
import type { TrafficMetrics } from './services/traffic/traffic-metric.js';
import type { TrafficEtaSource } from './services/navigation/navigation-sessions.js';
import { wireCommute } from './wiring/commute-wiring.js';
import { wireGeofences } from './wiring/geofences-wiring.js';
import { ENDPOINT_TABLE } from './services/access/endpoint-access.js';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export interface RunningApplication {
  port: number;
  /** Every route served (HTTP and WebSocket, the metrics listener's included), bound to its row of the endpoint table. */
  served: readonly BoundRoute[];
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

    const incidents = wireIncidents(config, backends);
    // the learned-traffic metrics `date_time` reads are wired with traffic, after the calendars
    let trafficMetrics: TrafficMetrics | undefined;
    const zones = wireLogisticsZones(backends);
    const routing = wireRouting(config, mapData.pack, solvers, logger, incidents.constraints, () => trafficMetrics, zones);
    // one count of open stream sockets for every channel of the process (docs/architecture.md, WebSocket channels)
    const streamAdmission = new StreamAdmission(
      {
        maxPerUser: config.WS_MAX_PER_USER,
        maxPerKey: config.WS_MAX_PER_KEY,
        maxPerIp: config.WS_MAX_PER_IP,
        maxUnauthenticatedPerIp: config.WS_MAX_UNAUTHENTICATED_PER_IP,
        authTimeoutMs: config.WS_AUTH_TIMEOUT_MS,
      },
      accounts.clientAddressOf,
    );
    // traffic is wired after the calendars it files by; sessions reach it once it exists
    let trafficService: TrafficService | undefined;
    const trafficEta: TrafficEtaSource = (input) => {
      if (!trafficService) return Promise.reject(new Error('traffic not wired yet'));
      return trafficService.etaBetween(input);
    };
    const navigation = await wireNavigation(config, backends, mapData.pack, routing.routing, accounts.guards, streamAdmission, logger, incidents.constraints, trafficEta);
    const travelMatrix = new RoutingTravelMatrix(routing.routing);
    const optimization = wireOptimization(config, optimizationSolvers, backends, logger, travelMatrix);
    const fleets = wireFleet(config, backends, optimizationSolvers, travelMatrix, accounts.guards, streamAdmission, logger);
    const webSockets = [...navigation.webSockets, ...fleets.webSockets];

    const routes: RouteDefinition[] = [];
    // What the API listener serves (documented, audited by /map/readiness); the metrics listener's route is apart.
    let apiServed: readonly BoundRoute[] = [];
    const operations = wireOperations({
      config,
      backends,
      solvers,
      metrics,
      version: packageJson.version,
      documentedRoutes: () => apiServed,
    });
    // one weather provider per process: readiness asks it, traffic and the weather layer use it
    const weather = wireWeatherProvider(config);
    const mapDataWiring = wireMapData(config, mapData.pack, backends, () => apiServed, weather);
    const billing = wireBilling(config, backends, accounts);
    const vectorTiles = wireVectorTiles(config, mapData.pack, solvers, billing.requireOfflineMaps);
    const mapStyles = wireMapStyles(config, mapData.pack, solvers, () => vectorTiles.tiles.version, logger);
    const calendars = await wireCalendars(config, backends, geocoding.geocoder, logger);
    closeOnFailure.push(async () => calendars.stop());
    // the start-up seeding (place catalogue and categories, search index, the pack's chargers) runs under one lock
    // of the deployment: a second process starting together waits, then finds the work done (docs/reliability.md)
    const seeding = await backends.sql.sessionLock('startup-seeding');
    closeOnFailure.push(() => seeding.release());
    const places = await wirePlaces({ config, backends, pack: mapData.pack, geocoder: geocoding.geocoder, calendars: calendars.calendars, routing: routing.routing, logger, port: () => listeningPort, pinPath: (category, theme) => mapDataWiring.mapData.pinPath(category, theme) });
    const ads = wireAds(backends, places.places, places.repository);
    const search = await wireSearch({ config, backends, places: places.places, placeRepository: places.repository, logger, sponsoredPlaces: (ids) => ads.ads.sponsoredPlaces(ids) });
    closeOnFailure.push(async () => search.stop());
    const ev = await wireEv(backends, mapData.pack, routing.routing, logger);
    await seeding.release();
    const transit = await wireTransit(config, backends, mapData.pack, logger);
    closeOnFailure.push(async () => transit.stop());
    const traffic = wireTraffic(config, backends, solvers, calendars.calendars, logger, mapData.pack, weather, routing.routing);
    trafficMetrics = traffic.metrics;
    closeOnFailure.push(() => traffic.stop());
    trafficService = traffic.traffic;
    const assistant = wireAssistant({ config, backends, search: search.search, traffic: traffic.traffic, logger });
    closeOnFailure.push(async () => assistant.stop());
    const itineraries = wireItineraries(config, backends, solvers, routing.routing, places.repository);
    const commute = wireCommute(config, backends, routing.routing, traffic.traffic, logger);
    closeOnFailure.push(() => commute.stop());
    const geofences = await wireGeofences(config, backends, logger);
    closeOnFailure.push(() => geofences.stop());
    const mapOverlays = wireMapOverlays({ config, backends, pack: mapData.pack, solvers, mapData: mapDataWiring.mapData, transit: transit.transit, traffic: traffic.traffic, incidents: incidents.incidents, zones, routing: routing.routing, weather });
    routes.push(
      ...operations.routes,
      ...accounts.routes,
      ...geocoding.routes,
      ...mapDataWiring.routes,
      ...mapOverlays.routes,
      ...vectorTiles.routes,
      ...mapStyles.routes,
      ...calendars.routes,
      ...places.routes,
      ...search.routes,
      ...transit.routes,
      ...ev.routes,
      ...routing.routes,
      ...navigation.routes,
      ...optimization.routes,
      ...fleets.routes,
      ...traffic.routes,
      ...itineraries.routes,
      ...incidents.routes,
      ...billing.routes,
      ...ads.routes,
      ...assistant.routes,
      ...commute.routes,
      ...geofences.routes,
    );

    const server = new EdgeServer({
      host: config.HOST,
      port: config.PORT,
      reusePort: config.REUSE_PORT,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      logger,
      metrics,
      guards: accounts.guards,
      endpoints: ENDPOINT_TABLE,
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
            endpoints: ENDPOINT_TABLE,
            routes: operations.metricsRoutes,
          });
    apiServed = [...server.routes, ...server.webSocketRoutes];
    const served = [...apiServed, ...(metricsServer?.routes ?? [])];
    dispatcher = new InProcessDispatcher(server.routes, { logger, metrics, guards: accounts.guards });
    const port = await server.listen();
    listeningPort = port;
    closeOnFailure.push(() => server.shutdown(0));
    const metricsPort = await metricsServer?.listen();
    logger.info({ port, host: config.HOST, ...(metricsPort === undefined ? {} : { metricsPort }), backends: describeBackends(backends), workers: solvers.threads }, 'listening');

    let stopping: Promise<void> | undefined;
    return {
      port,
      served,
      metricsPort,
      stop: () =>
        (stopping ??= (async () => {
          const [{ timedOut }] = await Promise.all([server.shutdown(config.SHUTDOWN_GRACE_MS), metricsServer?.shutdown(0)]);
          if (timedOut) logger.warn({ inFlight: server.inFlight }, 'shutdown grace period ended with requests in flight');
          await accounts.stop();
          calendars.stop();
          search.stop();
          transit.stop();
          await navigation.stop();
          await optimization.stop();
          await fleets.stop();
          await traffic.stop();
          assistant.stop();
          await commute.stop();
          await geofences.stop();
          await Promise.all([solvers.close(), optimizationSolvers.close()]);
          await closeBackends(backends, logger);
        })()),
    };
  } catch (error) {
    await Promise.allSettled(closeOnFailure.map((close) => close()));
    throw error;
  }
}
