/**
 * Routing (spec part 3 §4.1, scope `routing`): the engine endpoints in the
 * Valhalla request shape, inside the spec's envelope. With ROUTING_ENGINE_URL
 * they pass through to that engine instead. An engine that cannot answer (over
 * its budget, busy, failed) gives 201 `available: false` with a `reason`; input
 * it cannot route is a 400 with its code.
 */
import { z } from 'zod';
import { engineAnswer } from '../engine-answer.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { enginePayload, rawEnginePayload } from '../../services/routing/engine-payload.js';
import type { RoutingEndpoints } from '../../services/routing/routing-endpoints.js';
import { engineRequestSchema, matrixRequestSchema } from '../../services/routing/engine-request.js';
import { planRequestSchema } from '../../services/routing/plan-request.js';
import { AVOIDABLE, PREFERENCES } from '../../domain/costing.js';
import type { ErrorCode } from '../../shared/errors.js';

const route = { tags: ['routing'] };
/** The 400s of input the engine cannot route; the engine's own failures answer 201 `available: false`. */
const ENGINE_INPUT_ERRORS: ErrorCode[] = ['NO_ROAD_NEARBY', 'NO_ROUTE', 'COSTING_UNAVAILABLE'];
/**
 * Engine request bodies: validated as our engine reads them, or, passing through to an external
 * engine, forwarded as they came (any non-empty object); bare or under `payload`.
 */
function engineBody<T extends z.ZodType>(schema: T, passthrough: boolean) {
  return enginePayload(passthrough ? (rawEnginePayload as unknown as T) : schema);
}

export function routingRoutes(endpoints: RoutingEndpoints): RouteDefinition[] {
  const passthrough = endpoints.passthrough;
  return [
    defineRoute({
      ...route,
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
      method: 'GET',
      path: '/routing/maneuver-types',
      summary: 'The 39 maneuver type codes (Valhalla) with name, icon and description',
      handler: () => ({ provider: 'svc-routing', ...endpoints.maneuverTypes() }),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/routing/route',
      readOnly: true,
      summary: 'Route between locations: the engine trip with maneuvers in English or Arabic, alternatives and route labels',
      description:
        'Body `{ payload, includeLabels? }`: `payload` is a Valhalla route request (`locations` `{ lat, lon, type?, heading?, name?, search_cutoff? }`, ' +
        '`costing`, `costing_options`, `directions_options { units, language }`, `alternates` 0–3, `exclude_locations`, `exclude_polygons`, ' +
        '`date_time { type: 0 now | 1 depart at | 2 arrive by | 3 invariant, value: "YYYY-MM-DDTHH:MM" local time of the first location }`). ' +
        'Answers `data.trip` (legs with maneuvers, polyline6 `shape`, `summary`) and `labels { purpose: "route_labels", parsed: { label, tip } }`; ' +
        'with `date_time`, the route is searched on the learned traffic of that moment where trustworthy profiles exist, and `trafficModel` ' +
        '`{ used, metric, at, country, profileType, dow, todBucket, calendar, segmentsWithProfiles, profileTypes, trustMinSamples, simulated }` says so.',
      body: z.object({ payload: passthrough ? rawEnginePayload : engineRequestSchema, includeLabels: z.boolean().default(true) }),
      errors: ENGINE_INPUT_ERRORS,
      handler: ({ body, signal, setHeader }) =>
        engineAnswer(
          setHeader,
          endpoints.route('/routing/route', body.payload as z.infer<typeof engineRequestSchema>, body.includeLabels && (body.payload as { includeLabels?: unknown }).includeLabels !== false, signal),
        ),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/routing/plan',
      readOnly: true,
      summary: 'The route planner: preference, avoidances, stop ordering, constraints, labels, lanes and speed limits; `date_time` searches on learned traffic',
      body: planRequestSchema,
      errors: ENGINE_INPUT_ERRORS,
      handler: ({ body, signal, setHeader, principal }) => engineAnswer(setHeader, endpoints.plan('/routing/plan', body, signal, principal)),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/routing/optimize',
      readOnly: true,
      summary: 'Visit the stops in the order of the shortest tour (engine optimized_route); first and last stay fixed',
      description: 'Body: the Valhalla request as for /routing/route (bare or as `{ payload }`). `data.trip.locations[i].original_index` gives the input index of each stop; `data.optimal` is true when the order is proven optimal (up to 12 movable stops).',
      body: engineBody(engineRequestSchema, passthrough),
      errors: ENGINE_INPUT_ERRORS,
      handler: ({ body, signal, setHeader }) => engineAnswer(setHeader, endpoints.optimize('/routing/optimize', body, signal)),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/routing/route-attributes',
      readOnly: true,
      summary: 'Legal speed limits along a route, stretch by stretch over each leg shape (null where no limit is tagged)',
      body: engineBody(engineRequestSchema, passthrough),
      errors: ENGINE_INPUT_ERRORS,
      handler: ({ body, signal, setHeader }) => engineAnswer(setHeader, endpoints.attributes('/routing/route-attributes', body, signal)),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/routing/matrix',
      readOnly: true,
      summary: 'Time and distance from every source to every target (Valhalla sources_to_targets)',
      description:
        'Body: a Valhalla matrix request, bare or as `{ payload }`: `sources` and `targets` (or `locations` for all-to-all) as `{ lat, lon }`, `costing`, `costing_options`, `units`. ' +
        'Answers `data.sources_to_targets[i][j] = { from_index, to_index, time (s), distance (units) }`, null where unreachable. At most 10 000 cells.',
      body: engineBody(matrixRequestSchema, passthrough),
      errors: ['NO_ROUTE', 'COSTING_UNAVAILABLE'],
      handler: ({ body, signal, setHeader }) => engineAnswer(setHeader, endpoints.matrix('/routing/matrix', body, signal)),
    }),
  ];
}
