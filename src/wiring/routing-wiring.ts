/**
 * Wiring of the routing area: hierarchy cache, routing service, isochrones and
 * map matching, the optional external engine, and the route tables.
 */
import type { MapPack } from '../datapack/map-pack.js';
import type { RouteDefinition } from '../edge/route.js';
import { routingRoutes } from '../edge/routes/routing.js';
import { routingAnalysisRoutes } from '../edge/routes/routing-analysis.js';
import { RoutingAnalysisService } from '../services/routing-analysis/routing-analysis-service.js';
import { EngineOutages } from '../services/routing/engine-envelope.js';
import { ExternalEngine } from '../services/routing/external-engine.js';
import { HierarchyCache } from '../services/routing/hierarchy-cache.js';
import { RoutingEndpoints, type TrafficMetricSource } from '../services/routing/routing-endpoints.js';
import { RoutingService } from '../services/routing/routing-service.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import type { SolverPool } from '../solvers/solver-pool.js';
import type { PlanConstraintSource } from '../services/routing/plan-constraints.js';
import type { PlanZoneSource } from '../services/routing/plan-zones.js';

export interface RoutingWiring {
  routing: RoutingService;
  routes: RouteDefinition[];
}

/** `trafficMetrics`: the learned-traffic metrics `date_time` reads, wired after routing (undefined until then). */
export function wireRouting(
  config: Config,
  pack: MapPack,
  solvers: SolverPool,
  logger: Logger,
  constraints?: PlanConstraintSource,
  trafficMetrics?: () => TrafficMetricSource | undefined,
  zones?: PlanZoneSource,
): RoutingWiring {
  const hierarchies = new HierarchyCache(solvers, logger);
  const routing = new RoutingService({ solvers, pack, hierarchies, timeoutMs: config.ROUTING_TIMEOUT_MS });
  const external = config.ROUTING_ENGINE_URL ? new ExternalEngine(config.ROUTING_ENGINE_URL, logger) : undefined;
  // the default metric of /routing/route and the planner, ready before the first request when possible
  if (!external) routing.warmUp([{ costing: 'auto', preference: 'balanced', avoid: [] }]);
  const outages = new EngineOutages(logger);
  const analysis = new RoutingAnalysisService({ solvers, routing, timeoutMs: config.ROUTING_TIMEOUT_MS, outages, ...(external ? { external } : {}) });
  return { routing, routes: [...routingRoutes(new RoutingEndpoints(routing, external, outages, constraints, trafficMetrics, zones)), ...routingAnalysisRoutes(analysis)] };
}
