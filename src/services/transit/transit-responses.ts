/** Response schemas of the transit and micromobility endpoints (spec part 2 §2.8, §4.6). */
import { z } from 'zod';

const source = z.enum(['gtfs', 'osm']).describe('gtfs: an imported feed (ids `<feed>:<id>`); osm: the map pack\'s OpenStreetMap data (ids `osm-…`, never planned: no timetable)');
const attribution = z.string().nullable().describe('the licence notice to show with the record (OSM: © OpenStreetMap contributors, ODbL); null for GTFS feeds');

export const stopRecord = z.object({
  id: z.string(),
  stopId: z.string().describe('the feed\'s stop_id, or the OSM element (`node/123`)'),
  name: z.string(),
  nameAr: z.string().nullable(),
  nameEn: z.string().nullable(),
  lat: z.number(),
  lng: z.number(),
  distanceM: z.number(),
  routeIds: z.array(z.string()),
  source,
  attribution,
});

export const routeRecord = z.object({
  id: z.string(),
  routeId: z.string(),
  shortName: z.string().nullable(),
  longName: z.string().nullable(),
  type: z.enum(['metro', 'bus', 'tram', 'rail', 'ferry', 'other']),
  typeLabel: z.string(),
  routeType: z.number().int(),
  color: z.string().nullable(),
  shape: z.string().nullable().describe('encoded polyline, precision 5, [lat, lng] pairs; null when the feed has no geometry for the route'),
  stopIds: z.array(z.string()).nullable().describe('OSM lines: their stops in order (ids of /transit/stops); null for GTFS routes'),
  source,
  attribution,
});

export const transitStopsResponse = z.object({ provider: z.literal('svc-transit'), count: z.number().int(), stops: z.array(stopRecord) });

export const transitRoutesResponse = z.object({
  provider: z.literal('svc-transit'),
  count: z.number().int(),
  routes: z.array(routeRecord),
  type: z.number().int().nullable(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
});

const latLng = z.object({ lat: z.number(), lng: z.number() });
const stopRef = z.object({ stopId: z.string(), name: z.string(), lat: z.number(), lng: z.number() });

export const walkLeg = z.object({ mode: z.literal('walk'), from: latLng, to: latLng, distanceM: z.number(), durationS: z.number() });
export const transitLeg = z.object({
  mode: z.literal('transit'),
  route: routeRecord,
  board: stopRef,
  alight: stopRef,
  departAt: z.string(),
  arriveAt: z.string(),
  headsign: z.string().nullable(),
  durationS: z.number(),
});

export const transitPlanResponse = z.union([
  z.object({
    provider: z.literal('svc-transit'),
    found: z.literal(true),
    departAt: z.string(),
    arriveAt: z.string(),
    durationS: z.number(),
    transfers: z.number().int(),
    legs: z.array(z.union([walkLeg, transitLeg])),
    walking: z.string(),
  }),
  z.object({
    provider: z.literal('svc-transit'),
    found: z.literal(false),
    reason: z.enum(['out_of_coverage', 'no_service', 'no_common_route', 'walking_is_faster']),
    walkAlternative: z.object({ distanceM: z.number(), durationS: z.number() }),
    nearestOriginStops: z.array(stopRecord),
    nearestDestStops: z.array(stopRecord),
  }),
]);

export const stationRecord = z.object({
  id: z.string(),
  name: z.string(),
  vehicleType: z.enum(['bike', 'ebike', 'scooter']),
  lat: z.number(),
  lng: z.number(),
  bikesAvailable: z.number().int(),
  docksAvailable: z.number().int(),
  distanceM: z.number(),
});

export const gbfsResponse = z.object({
  provider: z.literal('svc-micromobility'),
  filters: z.object({ vehicleType: z.enum(['bike', 'ebike', 'scooter']).nullable(), minBikes: z.number().nullable(), minDocks: z.number().nullable() }),
  count: z.number().int(),
  stations: z.array(stationRecord),
});
