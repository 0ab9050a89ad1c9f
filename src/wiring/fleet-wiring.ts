/**
 * Wiring of live fleets: the fleet host (actors addressed over the bus, state
 * in SQL), the planner (warm-started searches on the optimization worker
 * threads over the routing engine's matrix), the REST routes and the stream.
 */
import { availableParallelism } from 'node:os';
import type { Backends } from './backends.js';
import { FleetHost } from '../actors/fleet/fleet-host.js';
import { createSubjects } from '../actors/runtime/subjects.js';
import type { RouteDefinition } from '../edge/route.js';
import type { RequestGuard } from '../edge/request-pipeline.js';
import { bindRoute } from '../edge/route-binding.js';
import { ENDPOINT_TABLE } from '../services/access/endpoint-access.js';
import { fleetRoutes, fleetStreamRoute } from '../edge/routes/fleets.js';
import { fleetStreamEndpoint } from '../edge/ws/fleet-stream.js';
import type { StreamAdmission } from '../edge/ws/stream-admission.js';
import type { WebSocketEndpoint } from '../edge/ws/websocket-endpoint.js';
import { FleetPlanner } from '../services/optimization/fleet-planner.js';
import { LiveFleets } from '../services/optimization/live-fleets.js';
import type { TravelMatrixSource } from '../services/optimization/travel-matrix.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import type { SolverPool } from '../solvers/solver-pool.js';
import { FleetRepository } from '../store/pg/fleets.js';

export interface FleetWiring {
  routes: RouteDefinition[];
  webSockets: WebSocketEndpoint[];
  stop(): Promise<void>;
}

/** Commands never wait for a search (it runs outside the actor's mailbox): the store write and the bus. */
const COMMAND_TIMEOUT_MS = 10_000;

export function wireFleet(
  config: Config,
  backends: Backends,
  solvers: SolverPool,
  matrices: TravelMatrixSource,
  guards: readonly RequestGuard[],
  admission: StreamAdmission,
  logger: Logger,
): FleetWiring {
  const threads = config.WORKER_THREADS > 0 ? config.WORKER_THREADS : availableParallelism();
  const planner = new FleetPlanner(matrices, solvers, threads);
  const host = new FleetHost({
    bus: backends.bus,
    subjects: createSubjects(config.BUS_NAMESPACE),
    repository: new FleetRepository(backends.sql),
    optimize: (problem) => planner.plan(problem),
    logger: logger.child({ component: 'fleets' }),
    requestTimeoutMs: COMMAND_TIMEOUT_MS,
  });
  const fleets = new LiveFleets(host);
  const routes = fleetRoutes(fleets);
  const eventsRoute = routes.find((route) => route.method === 'POST' && route.path === '/optimize/fleets/{fleetId}/events')!;
  const stream = fleetStreamEndpoint({ fleets, guards, admission, logger: logger.child({ component: 'fleet-stream' }), streamRoute: bindRoute(fleetStreamRoute(), ENDPOINT_TABLE), eventsRoute: bindRoute(eventsRoute, ENDPOINT_TABLE) });
  return { routes, webSockets: [stream], stop: () => host.close() };
}
