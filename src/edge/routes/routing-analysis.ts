import { ISOCHRONE_PATH, MAP_MATCH_PATH, type RoutingAnalysisService } from '../../services/routing-analysis/routing-analysis-service.js';
import { isochroneBody, mapMatchBody } from '../../services/routing-analysis/routing-analysis-requests.js';
import { engineAnswer } from '../engine-answer.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { enginePayload, rawEnginePayload } from '../../services/routing/engine-payload.js';

/** Isochrones and map matching (spec part 3 §4.1 engine passthroughs, scope `routing`). */
export function routingAnalysisRoutes(service: RoutingAnalysisService): RouteDefinition[] {
  const route = { tags: ['routing'], readOnly: true };
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: ISOCHRONE_PATH,
      summary: 'Areas reachable within times (minutes) or distances (km) from a location, as GeoJSON (Valhalla /isochrone shape)',
      description:
        'Answers `{ provider: "svc", available, path, data }`; `data` is a FeatureCollection with one feature per contour, largest first. ' +
        'An engine that cannot answer gives `{ available: false, path, request, reason }`. See docs/routing-analysis.md.',
      body: enginePayload(service.passthrough ? (rawEnginePayload as unknown as typeof isochroneBody) : isochroneBody),
      errors: ['NO_ROAD_NEARBY', 'COSTING_UNAVAILABLE'],
      handler: ({ body, signal, setHeader }) => engineAnswer(setHeader, service.isochrone(body, body, signal)),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: MAP_MATCH_PATH,
      summary: 'Match a GPS trace to the roads (hidden Markov model): matched points, edges, shape and confidence (Valhalla trace_attributes shape)',
      description: 'Answers `{ provider: "svc", available, path, data }`, or `{ available: false, path, request, reason }` when the engine cannot answer. See docs/routing-analysis.md.',
      body: enginePayload(service.passthrough ? (rawEnginePayload as unknown as typeof mapMatchBody) : mapMatchBody),
      bodyLimitBytes: 512 * 1024,
      errors: ['NO_ROAD_NEARBY', 'COSTING_UNAVAILABLE'],
      handler: ({ body, signal, setHeader }) => engineAnswer(setHeader, service.mapMatch(body, body, signal)),
    }),
  ];
}
