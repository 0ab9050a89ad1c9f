import polyline from '@mapbox/polyline';
import { z } from 'zod';
import { ISOCHRONE_PATH, MAP_MATCH_PATH, type RoutingAnalysisService } from '../../services/routing-analysis/routing-analysis-service.js';
import { MAX_SEARCH_RADIUS_METERS } from '../../solvers/routing/map-matching/hmm-matcher.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { enginePayload, rawEnginePayload } from '../schemas/engine-payload.js';
import { latitude, longitude } from '../schemas/geo.js';
import { COSTINGS } from '../../domain/costing.js';

/** Limits of the isochrone and map-matching payloads (docs/routing-analysis.md). */
export const MAX_CONTOURS = 4;
export const MAX_CONTOUR_MINUTES = 120;
export const MAX_CONTOUR_KILOMETERS = 200;
export const MAX_TRACE_POINTS = 2_000;
/** Room for MAX_TRACE_POINTS points of polyline6 (a point takes at most ~16 characters). */
const MAX_ENCODED_POLYLINE_CHARS = 40_000;

const costing = z.enum(COSTINGS).default('auto');
const identifier = z.string().max(128).optional();

const isochroneBody = z
  .object({
    id: identifier,
    locations: z.array(z.object({ lat: latitude, lon: longitude, search_cutoff: z.number().positive().max(5_000).optional() })).length(1, { error: 'exactly one location' }),
    costing,
    contours: z
      .array(
        z.object({
          time: z.number().positive().max(MAX_CONTOUR_MINUTES).optional(),
          distance: z.number().positive().max(MAX_CONTOUR_KILOMETERS).optional(),
          color: z.string().regex(/^[0-9a-fA-F]{6}$/, { error: 'must be 6 hex digits without #' }).optional(),
        }),
      )
      .min(1)
      .max(MAX_CONTOURS),
    polygons: z.boolean().default(false),
    denoise: z.number().min(0).max(1).default(1),
    generalize: z.number().min(0).max(1_000).default(0),
    show_locations: z.boolean().default(false),
  })
  .superRefine((body, context) => {
    body.contours.forEach((contour, index) => {
      if ((contour.time === undefined) === (contour.distance === undefined)) {
        context.addIssue({ code: 'custom', path: ['contours', index], message: 'needs exactly one of time (minutes) or distance (km)' });
      }
    });
    const metrics = new Set(body.contours.map((contour) => (contour.time !== undefined ? 'time' : 'distance')));
    if (metrics.size > 1) context.addIssue({ code: 'custom', path: ['contours'], message: 'all contours must use the same metric (time or distance)' });
    const values = body.contours.map((contour) => contour.time ?? contour.distance);
    if (new Set(values).size !== values.length) context.addIssue({ code: 'custom', path: ['contours'], message: 'contour values must differ' });
  });

const tracePoint = z.object({ lat: latitude, lon: longitude, time: z.number().finite().optional() });
const trace = z.array(tracePoint).min(2, { error: 'a trace needs at least 2 points' }).max(MAX_TRACE_POINTS, { error: `at most ${MAX_TRACE_POINTS} points` });
const traceOptions = {
  search_radius: z.number().positive().max(MAX_SEARCH_RADIUS_METERS).optional(),
  gps_accuracy: z.number().min(0.5).max(100).optional(),
  breakage_distance: z.number().positive().max(10_000).optional(),
  interpolation_distance: z.number().min(0).max(100).optional(),
};

const mapMatchBody = z
  .object({
    id: identifier,
    shape: z.array(z.unknown()).max(MAX_TRACE_POINTS, { error: `at most ${MAX_TRACE_POINTS} points` }).optional(),
    encoded_polyline: z.string().min(1).max(MAX_ENCODED_POLYLINE_CHARS).optional(),
    costing,
    shape_match: z.enum(['map_snap', 'walk_or_snap']).default('map_snap'),
    ...traceOptions,
    trace_options: z.object(traceOptions).optional(),
  })
  .superRefine((body, context) => {
    if ((body.shape === undefined) === (body.encoded_polyline === undefined)) {
      context.addIssue({ code: 'custom', path: ['shape'], message: 'give exactly one of shape or encoded_polyline' });
    }
  })
  .transform((body, context) => {
    const { shape, encoded_polyline: encoded, shape_match: _match, ...rest } = body;
    const given = shape ?? (encoded !== undefined ? decodePolyline6(encoded) : []);
    const parsed = trace.safeParse(given);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', path: [shape ? 'shape' : 'encoded_polyline', ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))], message: issue.message });
      return z.NEVER;
    }
    return { ...rest, points: parsed.data };
  });

function decodePolyline6(encoded: string): unknown[] {
  try {
    return polyline.decode(encoded, 6).map(([lat, lon]) => ({ lat, lon }));
  } catch {
    return [null];
  }
}

/** Isochrones and map matching (spec part 3 §4.1 engine passthroughs, scope `routing`). */
export function routingAnalysisRoutes(service: RoutingAnalysisService): RouteDefinition[] {
  const route = { tags: ['routing'], readOnly: true };
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: ISOCHRONE_PATH,
      summary: 'Areas reachable within times (minutes) or distances (km) from a location, as GeoJSON (Valhalla /isochrone shape)',
      description: 'Answers `{ provider: "svc", available, path, data }`; `data` is a FeatureCollection with one feature per contour, largest first. See docs/routing-analysis.md.',
      body: enginePayload(service.passthrough ? (rawEnginePayload as unknown as typeof isochroneBody) : isochroneBody),
      errors: ['NO_ROAD_NEARBY', 'COSTING_UNAVAILABLE', 'COMPUTATION_TIMEOUT', 'SERVER_BUSY'],
      handler: ({ body, signal }) => service.isochrone(body, body, signal),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: MAP_MATCH_PATH,
      summary: 'Match a GPS trace to the roads (hidden Markov model): matched points, edges, shape and confidence (Valhalla trace_attributes shape)',
      description: 'Answers `{ provider: "svc", available, path, data }`. See docs/routing-analysis.md.',
      body: enginePayload(service.passthrough ? (rawEnginePayload as unknown as typeof mapMatchBody) : mapMatchBody),
      bodyLimitBytes: 512 * 1024,
      errors: ['NO_ROAD_NEARBY', 'COSTING_UNAVAILABLE', 'COMPUTATION_TIMEOUT', 'SERVER_BUSY'],
      handler: ({ body, signal }) => service.mapMatch(body, body, signal),
    }),
  ];
}
