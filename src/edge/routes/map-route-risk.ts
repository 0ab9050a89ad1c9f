/**
 * POST /map/route-risk (part 2 §4.8, scope `routing`; request and response designed here, docs/map-data.md,
 * Route risk): a route's risk from learned traffic, weather, incidents, logistics zones and enforcement
 * assets, per segment and overall, with reasons.
 */
import type { RouteRiskService } from '../../services/route-risk/route-risk-service.js';
import { routeRiskRequestSchema } from '../../services/route-risk/route-risk-request.js';
import { defineRoute, type RouteDefinition } from '../route.js';

export function mapRouteRiskRoutes(service: Pick<RouteRiskService, 'score'>): RouteDefinition[] {
  return [
    defineRoute({
      tags: ['map'],
      method: 'POST',
      path: '/map/route-risk',
      readOnly: true,
      // it computes and stores nothing: 200, as the common route-scoring APIs answer
      successStatus: 200,
      summary: 'Score a route 0–100 (low, moderate, high, severe) per segment and overall from learned traffic, weather, incidents, logistics zones and enforcement assets, with reasons',
      description:
        'Body: exactly one of `polyline` (precision 6), `geometry` (GeoJSON LineString, [lng, lat], at most 10 000 positions) or `origin` + `destination` ' +
        '(`{ lat, lon }`, with `waypoints` and `costing`, routed by the engine); `departAt` (ISO 8601, default now); `segmentMeters` (100–50 000, default 1000; ' +
        'raised so a route has at most 200 segments). Each factor answers `{ factor, weight, available, value 0–1, points, reasons }`; an unavailable source ' +
        '(no weather provider, no learned traffic there) is `available: false` and adds nothing. `formula` states the scoring.',
      body: routeRiskRequestSchema,
      errors: ['VALIDATION_ERROR', 'NO_ROAD_NEARBY', 'NO_ROUTE', 'COSTING_UNAVAILABLE', 'SERVICE_UNAVAILABLE'],
      handler: async ({ body, signal }) => service.score(body, signal),
    }),
  ];
}
