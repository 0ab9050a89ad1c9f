/** Request bodies and response shapes of the EV charging endpoints (spec part 3 §2.7, §4.6; docs/ev.md). */
import { z } from 'zod';
import { EV_CONNECTOR_FILTERS } from '../../domain/ev-station.js';
import { latitude, longitude } from '../../domain/geo.js';

export const DEFAULT_STATION_LIMIT = 100;
export const MAX_STATION_LIMIT = 500;
export const EV_ATTRIBUTION = 'Charging stations: © OpenStreetMap contributors (ODbL); Open Charge Map (CC BY 4.0)';

const point = z.object({ lat: latitude, lng: longitude }, { error: 'must be an object { lat, lng }' });
const percent = z.number().finite().min(0, 'must be 0–100').max(100, 'must be 0–100');

export const evPlanBody = z
  .object({
    from: point,
    to: point,
    rangeKm: z.number({ error: 'must be a number of kilometres above 0' }).finite().positive('must be above 0').max(2000, 'must be at most 2000'),
    currentPercent: percent.default(80),
    reservePercent: percent.default(15),
    detourKm: z.number().finite().positive('must be above 0').max(50, 'must be at most 50').default(5),
    /** Designed (docs/ev.md): the charge a stop leaves the car with. */
    chargeToPercent: percent.default(80),
  })
  .refine((body) => body.chargeToPercent > body.reservePercent, { message: 'must be above reservePercent', path: ['chargeToPercent'] });
export type EvPlanBody = z.output<typeof evPlanBody>;

export interface EvStationsQuery {
  bbox: [number, number, number, number];
  minKw: number | undefined;
  connector: (typeof EV_CONNECTOR_FILTERS)[number] | undefined;
  availableOnly: boolean;
  network: string | undefined;
  limit: number;
}

const connector = z.object({
  type: z.enum(['CCS', 'CHAdeMO', 'Type2', 'Tesla', 'GB/T', 'Type1', 'Schuko', 'Other']),
  kw: z.number().nullable(),
  count: z.number().int(),
});

export const evStationRecord = z.object({
  id: z.string(),
  name: z.string(),
  network: z.string().nullable(),
  lat: z.number(),
  lng: z.number(),
  connectors: z.array(connector),
  maxKw: z.number().nullable(),
  status: z.enum(['operational', 'offline', 'unknown']),
  pricing: z.string().nullable(),
  address: z.string().nullable(),
  sources: z.array(z.string()).describe('source records merged into this site: `ocm:<POI id>`, `osm:node/<id>`'),
});

export const evStationsResponse = z.object({
  provider: z.literal('svc-ev'),
  count: z.number().int(),
  total: z.number().int(),
  stations: z.array(evStationRecord),
  minKw: z.number().nullable(),
  connector: z.string().nullable(),
  availableOnly: z.boolean(),
  network: z.string().nullable(),
  attribution: z.string(),
});

export const evNetworksResponse = z.object({
  provider: z.literal('svc-ev'),
  count: z.number().int(),
  networks: z.array(z.object({ network: z.string(), count: z.number().int(), maxKw: z.number().nullable() })),
  attribution: z.string(),
});

export const evPlanResponse = z.object({
  provider: z.literal('svc-ev'),
  feasible: z.boolean(),
  chargingNeeded: z.boolean(),
  totalKm: z.number(),
  stopCount: z.number().int(),
  stops: z.array(
    z.object({
      station: evStationRecord,
      atKm: z.number(),
      detourKm: z.number(),
      arrivalPercent: z.number(),
      departurePercent: z.number(),
    }),
  ),
  arrivalPercent: z.number().optional(),
  reason: z.literal('no_chargers_in_corridor').optional(),
  gap: z.object({ lat: z.number(), lng: z.number(), atKm: z.number() }).optional(),
  attribution: z.string(),
});
