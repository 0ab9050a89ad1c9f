/**
 * Learned traffic (spec part 3 §4.4): the trip repository, this process's
 * trip processor (consumes the trips' work queue: JetStream with NATS_URL, in
 * process otherwise) and the route table.
 */
import type { Backends } from './backends.js';
import { createSubjects } from '../actors/runtime/subjects.js';
import type { RouteDefinition } from '../edge/route.js';
import { trafficRoutes } from '../edge/routes/traffic.js';
import type { CalendarService } from '../services/calendars/calendar-service.js';
import type { RoutingService } from '../services/routing/routing-service.js';
import { TrafficService } from '../services/traffic/traffic-service.js';
import { TripIngestion } from '../services/traffic/trip-ingestion.js';
import { TrafficMetrics } from '../services/traffic/traffic-metric.js';
import type { MapPack } from '../datapack/map-pack.js';
import { AnalysedTrafficService } from '../services/traffic/analysed-traffic.js';
import type { WeatherSource } from '../services/weather/open-meteo-forecast.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import type { SolverPool } from '../solvers/solver-pool.js';
import { TrafficRepository } from '../store/pg/traffic.js';

export interface TrafficWiring {
  /** The traffic model: navigation's traffic-aware ETA, commute advice and the assistant's grounding read it. */
  traffic: TrafficService;
  /** The routing engine's traffic metric per moment (`date_time` on /routing/route and /routing/plan, /traffic/route). */
  metrics: TrafficMetrics;
  routes: RouteDefinition[];
  stop(): Promise<void>;
}

export function wireTraffic(config: Config, backends: Backends, solvers: SolverPool, calendars: CalendarService, logger: Logger, pack: MapPack, weather: WeatherSource, routing?: RoutingService): TrafficWiring {
  const repository = new TrafficRepository(backends.sql);
  const ingestion = new TripIngestion({
    repository,
    solvers,
    calendars,
    // JetStream with NATS_URL (stream and durable consumer named after the bus namespace), in process otherwise
    queue: backends.workQueue({ name: `${config.BUS_NAMESPACE}_traffic_trips`, subject: createSubjects(config.BUS_NAMESPACE).trafficTripsWork(), ackWaitMs: config.TRAFFIC_TRIP_LEASE_MS }),
    leaseMs: config.TRAFFIC_TRIP_LEASE_MS,
    logger: logger.child({ component: 'traffic' }),
    concurrency: Math.max(1, solvers.threads),
  });
  ingestion.start();
  const metrics = new TrafficMetrics(repository, calendars, pack);
  // POST /traffic/route and the navigation ETA search on the engine's traffic metric where one exists
  const traffic = new TrafficService(repository, calendars, Date.now, routing, metrics);
  const analysed = new AnalysedTrafficService(repository, calendars, weather);
  return { routes: trafficRoutes(traffic, ingestion, analysed), traffic, metrics, stop: () => ingestion.close() };
}
