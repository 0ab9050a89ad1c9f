/**
 * Wiring of navigation: the session host (actors addressed over the bus,
 * state in SQL), the session service, and the route tables of the sessions
 * and the stateless helpers. Sessions and the helpers share one route planner
 * and one place-entrance resolver.
 */
import type { CommunityConstraints } from '../services/incidents/community-constraints.js';
import type { Backends } from './backends.js';
import type { MapPack } from '../datapack/map-pack.js';
import { createSubjects } from '../actors/runtime/subjects.js';
import { NavigationSessionHost } from '../actors/navigation-session/session-host.js';
import type { SessionRoutePlanner } from '../actors/navigation-session/navigation-session-actor.js';
import type { RouteDefinition } from '../edge/route.js';
import { navigationRoutes } from '../edge/routes/navigation.js';
import { navigationSessionRoutes, navigationStreamRoute } from '../edge/routes/navigation-sessions.js';
import type { RequestGuard } from '../edge/request-pipeline.js';
import { bindRoute } from '../edge/route-binding.js';
import { ENDPOINT_TABLE } from '../services/access/endpoint-access.js';
import { navigationStreamEndpoint } from '../edge/ws/navigation-stream.js';
import type { StreamAdmission } from '../edge/ws/stream-admission.js';
import type { WebSocketEndpoint } from '../edge/ws/websocket-endpoint.js';
import { NavigationSessions, type ArrivalPointResolver, type TrafficEtaSource } from '../services/navigation/navigation-sessions.js';
import { NavigationRoutePlanner } from '../services/navigation/navigation-route-planner.js';
import { MapPackPlaceEntrances, unknownPlace } from '../services/navigation/place-entrances.js';
import type { RecalculateSession } from '../services/navigation/recalculate.js';
import type { RoutingService } from '../services/routing/routing-service.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { NavigationSessionRepository } from '../store/pg/navigation-sessions.js';
import { createNavigationWebhooks } from '../services/webhooks/navigation-webhooks.js';

export interface NavigationWiring {
  sessions: NavigationSessions;
  host: NavigationSessionHost;
  routes: RouteDefinition[];
  webSockets: WebSocketEndpoint[];
  stop(): Promise<void>;
}

/** Extra time a session command may take beyond a route search (the store write, the bus). */
const COMMAND_MARGIN_MS = 5_000;

export async function wireNavigation(
  config: Config,
  backends: Backends,
  pack: MapPack,
  routing: RoutingService,
  guards: readonly RequestGuard[],
  admission: StreamAdmission,
  logger: Logger,
  /** Blocking incidents, acknowledged reports and road edits: routes go around them, sessions re-plan around new incidents ahead. */
  constraints?: CommunityConstraints,
  trafficEta?: TrafficEtaSource,
): Promise<NavigationWiring> {
  const planner = new NavigationRoutePlanner(routing, constraints);
  const entrances = new MapPackPlaceEntrances(pack, routing);
  const planRoute: SessionRoutePlanner = (from, plan) =>
    planner.plan({ from, to: plan.arrivalPoint, costing: plan.costing, preference: plan.preference, avoid: plan.avoid, language: plan.language });
  const resolveArrival: ArrivalPointResolver = async (destination, costing) => {
    if (destination.placeSlug === undefined) return { lat: destination.lat, lng: destination.lng, source: 'destination' };
    const entrance = await entrances.resolve(destination.placeSlug, { costing });
    if (!entrance) throw unknownPlace(destination.placeSlug);
    // a place no road reaches is arrived at where it is mapped
    return { lat: entrance.lat, lng: entrance.lng, source: entrance.type === 'place' ? 'destination' : entrance.type };
  };
  const webhooks = await createNavigationWebhooks(backends.sql, config, logger.child({ component: 'webhooks' }));
  const host = new NavigationSessionHost({
    bus: backends.bus,
    subjects: createSubjects(config.BUS_NAMESPACE),
    repository: new NavigationSessionRepository(backends.sql),
    planRoute,
    logger: logger.child({ component: 'navigation' }),
    requestTimeoutMs: config.ROUTING_TIMEOUT_MS + COMMAND_MARGIN_MS,
    // in-process PGlite pays ~10× more per statement than per row: gather writes a little longer there
    writeLingerMs: backends.sql.kind === 'pglite' ? 4 : 1,
    onEvents: (record) => webhooks.onEvents(record),
    onLost: (sessionId) => void webhooks.release(sessionId),
    ...(constraints ? { incidentAhead: (points, known) => constraints.blockingIncidentNear(points, known) } : {}),
  });
  const sessions = new NavigationSessions({ host, planRoute, resolveArrival, webhooks, ...(trafficEta ? { trafficEta } : {}) });
  // events of sessions whose process died before delivering them
  void webhooks.resumePending().catch((error: unknown) => logger.warn({ err: error }, 'webhook resume failed'));
  const recalculateSession: RecalculateSession = (sessionId, principal, input) => sessions.recalculate(principal, sessionId, input);
  const sessionRoutes = navigationSessionRoutes(sessions);
  const fixRoute = sessionRoutes.find((entry) => entry.method === 'POST' && entry.path === '/navigation/sessions/{id}/positions')!;
  const stream = navigationStreamEndpoint({ sessions, guards, admission, logger: logger.child({ component: 'navigation-stream' }), streamRoute: bindRoute(navigationStreamRoute(), ENDPOINT_TABLE), fixRoute: bindRoute(fixRoute, ENDPOINT_TABLE) });
  return {
    sessions,
    host,
    routes: [...navigationRoutes({ planner, entrances, recalculateSession }), ...sessionRoutes],
    webSockets: [stream],
    stop: async () => {
      await host.close();
      await webhooks.close();
    },
  };
}
