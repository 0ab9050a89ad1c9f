import type { RouteDefinition } from '../edge/route.js';
import { routingAnalysisRoutes } from '../edge/routes/routing-analysis.js';
import { RoutingAnalysisService } from '../services/routing-analysis/routing-analysis-service.js';
import type { SolverPool } from '../solvers/solver-pool.js';

/** Isochrones and map matching: the service over the solver pool and its route table. */
export function createRoutingAnalysisModule(solvers: SolverPool): { routes: RouteDefinition[] } {
  return { routes: routingAnalysisRoutes(new RoutingAnalysisService(solvers)) };
}
