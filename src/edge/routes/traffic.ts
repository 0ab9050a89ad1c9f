/**
 * Learned traffic and contributed trips (spec part 3 §4.4; docs/traffic.md).
 * Access and scopes as the /traffic, /telemetry and /insights rows of
 * services/access/endpoint-access.ts say.
 */
import { defineRoute, HttpReply, type RouteDefinition } from '../route.js';
import type { TrafficService } from '../../services/traffic/traffic-service.js';
import type { TripIngestion } from '../../services/traffic/trip-ingestion.js';
import type { AnalysedTrafficService } from '../../services/traffic/analysed-traffic.js';
import { analysedQuery, bboxQuery, departQuery, forecastQuery, labelsQuery, popularityQuery, profileQuery, summaryQuery, trafficRouteRequest } from '../../services/traffic/traffic-queries.js';
import { TRIP_BODY_LIMIT_BYTES, tripRequest } from '../../services/traffic/trip-request.js';
import { z } from 'zod';

const route = { tags: ['traffic'] };
const none = z.object({});

const analysedNote =
  'Expected (typical) traffic, never live: the learned profiles of the segments within `radius` metres (default 750, at most 5000) of `lat`,`lng`, adjusted for Eid and public holidays not yet learned, school breaks, the hours around iftar, the month and the weather (the configured forecast for the next 72 hours, or the what-if `weather`: clear|rain|fog|dust|heavy_rain|snow|storm). `country` (default the roads\' own; unknown codes read as JO). Without learned data: `basis: "none"`, not an error.';

export function trafficRoutes(traffic: TrafficService, ingestion: TripIngestion, analysed?: AnalysedTrafficService): RouteDefinition[] {
  return [
    ...(analysed ? analysedRoutes(analysed) : []),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/telemetry/trips',
      summary: 'Contribute a trip: 2 to 10 000 fixes `{ lat, lng, t }` (t in epoch ms, strictly increasing); queued for map matching, answered 202',
      description:
        'Body `{ fixes: [{ lat, lng, t }], deviceId?, simulated? }`. A trace with time not increasing, an implausible jump (> 250 km/h between fixes), a span over 24 h, fixes in the future or older than 7 days is refused with 400 naming the fix. The trip is stored before the answer (it survives a crash), then map-matched and filed asynchronously; raw fixes are deleted once processed and after 7 days at the latest, and never returned.',
      body: tripRequest,
      bodyLimitBytes: TRIP_BODY_LIMIT_BYTES,
      handler: async ({ principal, body }) => HttpReply.json(await ingestion.submit(principal!, body), 202),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/traffic/profile',
      summary: "A segment's learned profile at `at` (default now): ramadan, else holiday, else weekend, else typical",
      description: '`country` reads `at` in that country (unknown codes as JO); without it, the road\'s own country. 400 `segmentKey required`; 404 `No traffic profile for this segment`.',
      query: profileQuery,
      errors: ['NOT_FOUND'],
      handler: ({ query }) => traffic.profile(query),
    }),
    defineRoute({ ...route, method: 'GET', path: '/traffic/labels', summary: 'Labels (Heavy|High|Normal|Low) of the learned segments in a bbox at `at`', query: labelsQuery, handler: ({ query }) => traffic.labels(query) }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/traffic/forecast',
      summary: 'A segment at horizons (minutes, default 0,15,30,60) from its profiles; unknown where nothing was learned',
      query: forecastQuery,
      handler: ({ query }) => traffic.forecast(query),
    }),
    defineRoute({ ...route, method: 'GET', path: '/traffic/depart-optimizer', summary: 'Best and worst working-day departure hour in a bbox between `from` and `to` (local hours)', query: departQuery, handler: ({ query }) => traffic.departOptimizer(query) }),
    defineRoute({ ...route, method: 'GET', path: '/traffic/dna', summary: "A bbox's 24-hour speed-ratio curve, peak and quiet hours, weekday/weekend delta", query: bboxQuery, handler: ({ query }) => traffic.dna(query) }),
    defineRoute({ ...route, method: 'GET', path: '/traffic/insights', summary: 'Busiest learned segments, hour-of-day curve and weekday vs weekend (bbox optional)', query: bboxQuery, handler: ({ query }) => traffic.insights(query) }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/traffic/popularity',
      summary: 'Distinct contributors per grid cell with Laplace noise (ε = 1), cells under 3 contributors suppressed',
      query: popularityQuery,
      handler: ({ query }) => traffic.popularity(query),
    }),
    defineRoute({ ...route, method: 'GET', path: '/traffic/model/status', summary: 'Trip queue and profile counts', query: none, handler: () => traffic.status() }),
    defineRoute({ ...route, method: 'GET', path: '/traffic/model/validation', summary: 'Coverage, mean sample count, trustworthy %, MAE and RMSE on held-out trips', query: none, handler: () => traffic.validation() }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/traffic/route',
      summary: 'Traffic-aware ETA of the fastest route from `departAt`: each segment timed from its learned profile as the clock advances',
      description:
        'Body `{ locations: [{ lat, lon }, …] (2–25), departAt?, costing? (auto|truck), country? }`. Answers free-flow and traffic seconds, `delaySeconds`, `trafficLevel`, `coverage` (share of the distance with a profile) and the segments. Segments without a profile keep their free-flow time; with none at all `basedOnHistory` is false and the ETA is the free-flow one. Where trustworthy profiles exist at `departAt`, the route is searched on that learned traffic (as `date_time` on /routing/route) and the answer adds `trafficModel` and `freeFlowRoute { sameRoute, distanceMeters, freeFlowSeconds, trafficSeconds }` (the free-flow fastest route, timed the same way).',
      body: trafficRouteRequest,
      errors: ['NO_ROAD_NEARBY', 'NO_ROUTE', 'COSTING_UNAVAILABLE'],
      handler: ({ body }) => traffic.route(body),
    }),
    defineRoute({ ...route, method: 'GET', path: '/insights/summary', summary: 'PII-free change and freshness counts of the traffic model over `days` (default 30)', query: summaryQuery, handler: ({ query }) => traffic.summary(query) }),
  ];
}

function analysedRoutes(analysed: AnalysedTrafficService): RouteDefinition[] {
  return [
    defineRoute({ ...route, method: 'GET', path: '/traffic/analysed', summary: 'Expected traffic around a point at `at` (default now), with the adjustments applied', description: analysedNote, query: analysedQuery, handler: ({ query }) => analysed.analysed(query) }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/traffic/analysed/week',
      summary: 'Expected traffic around a point for seven local days from `date`, by hour, with the best and worst two-hour windows between `from` and `to` (local hours, default 6 and 22)',
      description: analysedNote,
      query: analysedQuery,
      handler: ({ query }) => analysed.week(query),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/traffic/analysed/outlook',
      summary: 'A short outlook of one local day (`date`, default today) around a point, in English or Arabic (`lang=en|ar`)',
      description: analysedNote,
      query: analysedQuery,
      handler: ({ query }) => analysed.outlook(query),
    }),
    defineRoute({ ...route, method: 'GET', path: '/traffic/analysed/model', summary: 'The analysed-traffic model: what it reads, its multipliers, school calendars, weather provider and how much it has learned', query: none, handler: () => analysed.model() }),
  ];
}
