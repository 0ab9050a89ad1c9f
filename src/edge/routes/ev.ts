import { z } from 'zod';
import { EV_CONNECTOR_FILTERS } from '../../domain/ev-station.js';
import { DEFAULT_STATION_LIMIT, MAX_STATION_LIMIT, evNetworksResponse, evPlanBody, evPlanResponse, evStationsResponse } from '../../services/ev/ev-schemas.js';
import type { EvService } from '../../services/ev/ev-service.js';
import { queryBoolean } from '../input.js';
import { defineRoute, type RouteDefinition } from '../route.js';

// access and scopes as the /ev rows of services/access/endpoint-access.ts say
const route = { tags: ['ev'] };
const single = z.string({ error: 'must be given once' });

const queryNumber = single.trim().transform((value, context) => {
  const number = value === '' ? Number.NaN : Number(value);
  if (Number.isFinite(number)) return number;
  context.addIssue({ code: 'custom', message: 'must be a number' });
  return z.NEVER;
});

const bbox = single.transform((value, context) => {
  const parts = value.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part)));
  const [west, south, east, north] = parts as [number, number, number, number];
  if (parts.length !== 4 || parts.some((part) => !Number.isFinite(part)) || Math.abs(west) > 180 || Math.abs(east) > 180 || Math.abs(south) > 90 || Math.abs(north) > 90 || west > east || south > north) {
    context.addIssue({ code: 'custom', message: 'must be west,south,east,north (minLng,minLat,maxLng,maxLat) within -180..180 and -90..90, west ≤ east, south ≤ north' });
    return z.NEVER;
  }
  return [west, south, east, north] as [number, number, number, number];
});

const connectorNames = new Map(EV_CONNECTOR_FILTERS.map((name) => [name.toLowerCase(), name]));

const stationsQuery = z.object({
  bbox: z.unknown().refine((value) => value !== undefined, 'required: west,south,east,north').pipe(bbox),
  minKw: queryNumber.pipe(z.number().min(0, 'must be 0 or more')).optional(),
  connector: single
    .transform((value, context) => {
      const name = connectorNames.get(value.trim().toLowerCase());
      if (name) return name;
      context.addIssue({ code: 'custom', message: `must be one of ${EV_CONNECTOR_FILTERS.join(', ')}` });
      return z.NEVER;
    })
    .optional(),
  available: queryBoolean().optional(),
  network: single.trim().min(1, 'must not be empty').max(120, 'must be at most 120 characters').optional(),
  limit: queryNumber
    .pipe(z.number().int('must be a whole number'))
    .transform((value) => Math.min(MAX_STATION_LIMIT, Math.max(1, value)))
    .optional(),
});

/** EV charging (spec part 3 §2.7, §4.6); docs/ev.md. */
export function evRoutes(ev: EvService): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/ev/stations',
      summary:
        'Charging stations in `bbox` (required), strongest first: `minKw`, `connector` (CCS|CHAdeMO|Type2|Tesla|GB/T), `available` (leave out offline), `network` (a name of /ev/networks, `Unknown` for none), `limit` default 100, clamped to 1–500; `count` is what is returned, `total` what matched',
      query: stationsQuery,
      response: evStationsResponse,
      handler: ({ query }) =>
        ev.stations({
          bbox: query.bbox,
          minKw: query.minKw,
          connector: query.connector,
          availableOnly: query.available ?? false,
          network: query.network,
          limit: query.limit ?? DEFAULT_STATION_LIMIT,
        }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/ev/networks',
      summary: 'Charging networks with their station count and strongest charger; stations with no network are counted under `Unknown`',
      response: evNetworksResponse,
      handler: () => ev.networks(),
    }),
    defineRoute({
      ...route,
      readOnly: true,
      method: 'POST',
      path: '/ev/plan',
      summary:
        'Charging stops for a car trip on the routed road corridor: range consumed from `currentPercent` (default 80), a stop inserted before charge falls under `reservePercent` (default 15) at the strongest operational station within `detourKm` (default 5, road distance), left at `chargeToPercent` (default 80); infeasible with `reason: no_chargers_in_corridor` and `gap` where none is in reach',
      body: evPlanBody,
      response: evPlanResponse,
      errors: ['NO_ROAD_NEARBY', 'NO_ROUTE'],
      handler: ({ body, signal }) => ev.plan(body, signal),
    }),
  ];
}
