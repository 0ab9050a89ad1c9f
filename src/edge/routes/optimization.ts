import type { OptimizationService } from '../../services/optimization/optimization-service.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { binPackRequest, reoptimizeRequest, rosterRequest, routesRequest } from '../../services/optimization/optimization-requests.js';

const family = { tags: ['optimization'] };
const keyed = { ...family, readOnly: true };

/**
 * Route optimization (spec part 3 §4.5, scope `optimize`). The routes and
 * reoptimize endpoints appear once a travel-matrix source is wired.
 */
export function optimizationRoutes(service: OptimizationService): RouteDefinition[] {
  const routes: RouteDefinition[] = [
    defineRoute({
      ...family,
      method: 'GET',
      path: '/optimize/health',
      summary: 'Whether the optimization solvers are available (worker threads answering)',
      handler: () => service.health(),
    }),
    defineRoute({
      ...keyed,
      method: 'POST',
      path: '/optimize/binpack',
      summary: 'Pack items into the fewest bins (exact: a lower bound meets the packing, or the search proves one bin fewer impossible)',
      body: binPackRequest,
      handler: ({ body, signal }) => service.binPack(body, signal),
    }),
    defineRoute({
      ...keyed,
      method: 'POST',
      path: '/optimize/roster',
      summary: "Assign drivers to day shifts covering demand, minimising the busiest driver's shifts (exact; proves infeasibility)",
      body: rosterRequest,
      handler: ({ body, signal }) => service.roster(body, signal),
    }),
  ];
  const optimizer = service.routes;
  // the travel-time matrix comes from the routing engine, with its refusals and time budget
  const matrixErrors = ['COSTING_UNAVAILABLE', 'COMPUTATION_TIMEOUT', 'SERVICE_UNAVAILABLE'] as const;
  if (optimizer) {
    routes.push(
      defineRoute({
        ...keyed,
        method: 'POST',
        path: '/optimize/routes',
        summary: 'Vehicle routes over road travel times: capacities, time windows, service times, pickup-delivery pairs, optional stops, route duration limits',
        body: routesRequest,
        errors: [...matrixErrors, 'SERVER_BUSY'],
        handler: ({ body, signal }) => service.optimizeRoutesNow(optimizer, body, signal),
      }),
      defineRoute({
        ...keyed,
        method: 'POST',
        path: '/optimize/reoptimize',
        summary: 'Re-plan the remaining stops from the vehicles’ current positions (open-ended routes; positions not echoed)',
        body: reoptimizeRequest,
        errors: [...matrixErrors, 'SERVER_BUSY'],
        handler: ({ body, signal }) => service.reoptimizeNow(optimizer, body, signal),
      }),
    );
  }
  return routes;
}
