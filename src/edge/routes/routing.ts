/**
 * Routing (spec part 3 §4.1, scope `routing`): the engine endpoints in the
 * Valhalla request shape, inside the spec's envelope. With ROUTING_ENGINE_URL
 * they pass through to that engine instead.
 */
import { z } from 'zod';
import { AVOIDABLE, PREFERENCES } from '../../solvers/routing/costing/profiles.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import type { RoutingEndpoints } from '../../services/routing/routing-endpoints.js';
import { matrixRequestSchema } from '../../services/routing/engine-request.js';

const route = { tags: ['routing'], scopes: ['routing'] };
const rawPayload = z.record(z.string(), z.unknown()).refine((value) => Object.keys(value).length > 0, 'must be a non-empty engine request');

/**
 * `{ payload }` bodies: validated as our engine reads them, or, passing through to an external
 * engine, forwarded as they came (any non-empty object).
 */
function engineBody<T extends z.ZodType>(schema: T, passthrough: boolean) {
  return z.object({ payload: passthrough ? (rawPayload as unknown as T) : schema });
}

export function routingRoutes(endpoints: RoutingEndpoints): RouteDefinition[] {
  const passthrough = endpoints.passthrough;
  return [
    defineRoute({
      ...route,
      access: 'open',
      method: 'GET',
      path: '/routing/profiles',
      summary: 'Costing profiles with their availability for the loaded map data, preferences, avoidances and constraints',
      handler: () => ({
        provider: 'svc-routing',
        profiles: endpoints.profiles(),
        preferences: [...PREFERENCES],
        avoid: [...AVOIDABLE],
        constraints: ['avoidIncidents', 'avoidReported', 'disregard'],
      }),
    }),
    defineRoute({
      ...route,
      access: 'key-or-bearer',
      method: 'POST',
      path: '/routing/matrix',
      readOnly: true,
      summary: 'Time and distance from every source to every target (Valhalla sources_to_targets)',
      description:
        'Body `{ payload }` with `sources` and `targets` (or `locations` for all-to-all) as `{ lat, lon }`, `costing`, `costing_options`, `units`. ' +
        'Answers `data.sources_to_targets[i][j] = { from_index, to_index, time (s), distance (units) }`, null where unreachable. At most 10 000 cells.',
      body: engineBody(matrixRequestSchema, passthrough),
      errors: ['NO_ROUTE', 'COSTING_UNAVAILABLE', 'COMPUTATION_TIMEOUT'],
      handler: ({ body, signal }) => endpoints.matrix('/routing/matrix', body.payload, signal),
    }),
  ];
}
