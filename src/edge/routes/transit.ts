import { defineRoute, type RouteDefinition } from '../route.js';
import type { GbfsService } from '../../services/transit/gbfs-service.js';
import { gbfsQuery, transitPlanBody, transitRoutesQuery, transitStopsQuery } from '../../services/transit/transit-queries.js';
import { gbfsResponse, transitPlanResponse, transitRoutesResponse, transitStopsResponse } from '../../services/transit/transit-responses.js';
import type { TransitService } from '../../services/transit/transit-service.js';

// access and scopes as the /transit rows of services/access/endpoint-access.ts say
const route = { tags: ['transit'] };

/** Transit and shared micromobility (spec part 2 §2.8, §4.6); docs/transit.md. */
export function transitRoutes(transit: TransitService, gbfs: GbfsService): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/transit/stops',
      summary: 'Stations of the imported GTFS feeds within `radius` metres (default 500, capped at 5000), nearest first; `limit` default 20, clamped 1–100, non-numeric → 20',
      query: transitStopsQuery,
      response: transitStopsResponse,
      handler: ({ query }) => transit.stops(query),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/transit/routes',
      summary: 'Routes of the imported GTFS feeds, by `bbox` (routes without geometry kept) and `type` (GTFS route_type code); shape as a precision-5 polyline',
      query: transitRoutesQuery,
      response: transitRoutesResponse,
      handler: ({ query }) => transit.routes(query),
    }),
    defineRoute({
      ...route,
      readOnly: true,
      method: 'POST',
      path: '/transit/plan',
      summary: 'Journey from `from` to `to` leaving at `departAt` (ISO 8601, default now): RAPTOR on the imported timetable, legs walk–transit(–walk–transit)–walk; found:false with reason, walkAlternative and the nearest stops',
      body: transitPlanBody,
      response: transitPlanResponse,
      handler: ({ body }) => transit.plan(body),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/transit/gbfs',
      summary: 'Shared bikes and scooters of the GBFS feeds (GBFS_FEEDS): docked stations and free-floating vehicles within `radius` (default 500), nearest first',
      query: gbfsQuery,
      response: gbfsResponse,
      handler: ({ query }) => gbfs.nearby(query),
    }),
  ];
}
