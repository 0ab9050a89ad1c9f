import { availableParallelism } from 'node:os';
import type { RouteDefinition } from '../edge/route.js';
import { optimizationRoutes } from '../edge/routes/optimization.js';
import { OptimizationService } from '../services/optimization/optimization-service.js';
import { RouteOptimizer } from '../services/optimization/route-optimizer.js';
import type { TravelMatrixSource } from '../services/optimization/travel-matrix.js';
import type { Config } from '../shared/config.js';
import type { SolverPool } from '../solvers/solver-pool.js';

/**
 * Route optimization, bin packing and rostering (spec part 3 §4.5). Without a
 * travel-matrix source (the routing engine) the routes/reoptimize endpoints are
 * not served: optimization never falls back to straight-line distances.
 */
export function createOptimizationModule(config: Config, solvers: SolverPool, matrices?: TravelMatrixSource): { routes: RouteDefinition[] } {
  const threads = config.WORKER_THREADS > 0 ? config.WORKER_THREADS : availableParallelism();
  const optimizer = matrices ? new RouteOptimizer(matrices, solvers, threads) : undefined;
  return { routes: optimizationRoutes(new OptimizationService(solvers, optimizer)) };
}
