/**
 * Live fleets (docs/optimization.md, "Live fleets"): the create body and the
 * dispatcher events, which come in by REST and by the stream (whose client
 * messages, src/edge/schemas/fleet.ts, wrap these). One event schema serves
 * both ways in, so an event means the same everywhere.
 */
import { z } from 'zod';
import { FLEET_LIMITS } from '../../actors/fleet/fleet-model.js';
import { latitude, longitude } from '../../domain/geo.js';

const point = z.object({ lat: latitude, lng: longitude }).strict();
/** Dispatcher-chosen ids of vehicles and stops: short, printable, no spaces. */
const entityId = z
  .string()
  .min(1)
  .max(FLEET_LIMITS.maxIdLength)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only');
const amount = z.number().finite().min(0).max(1e9);
/** Up to 12 hours of service at one stop. */
const serviceSeconds = z.number().finite().min(0).max(43_200);

export const newStopSchema = z.object({ id: entityId.optional(), lat: latitude, lng: longitude, demand: amount.optional(), serviceSeconds: serviceSeconds.optional() }).strict();

const vehicleSchema = z
  .object({
    id: entityId,
    start: point,
    /** Where the route must end; omit (or null) for a route that ends at its last stop. */
    end: point.nullable().optional(),
    capacity: amount.nullable().optional(),
  })
  .strict();

function uniqueIds(list: readonly { id?: string | undefined }[], context: z.RefinementCtx, path: string): void {
  const seen = new Set<string>();
  list.forEach((entry, index) => {
    if (entry.id === undefined) return;
    if (seen.has(entry.id)) context.addIssue({ code: 'custom', path: [path, index, 'id'], message: `duplicate id "${entry.id}"` });
    seen.add(entry.id);
  });
}

export const fleetCreateSchema = z
  .object({
    name: z.string().min(1).max(120).optional(),
    costing: z.enum(['auto', 'truck', 'bicycle', 'pedestrian']).default('auto'),
    vehicles: z.array(vehicleSchema).min(1).max(FLEET_LIMITS.maxVehicles),
    stops: z.array(newStopSchema).max(FLEET_LIMITS.maxPendingStops).default([]),
  })
  .strict()
  .superRefine((body, context) => {
    uniqueIds(body.vehicles, context, 'vehicles');
    uniqueIds(body.stops, context, 'stops');
  });

export const positionEvent = z.object({ type: z.literal('position'), vehicleId: entityId, lat: latitude, lng: longitude, at: z.string().datetime({ offset: true }).optional() }).strict();
// ids repeated within the message or the fleet are refused where the fleet applies the event
export const addStopsEvent = z.object({ type: z.literal('add_stops'), stops: z.array(newStopSchema).min(1).max(FLEET_LIMITS.maxStopsPerMessage) }).strict();
export const cancelStopEvent = z.object({ type: z.literal('cancel_stop'), stopId: entityId }).strict();
export const completeStopEvent = z.object({ type: z.literal('complete_stop'), stopId: entityId, vehicleId: entityId.optional() }).strict();
export const reoptimizeEvent = z.object({ type: z.literal('reoptimize') }).strict();

export const fleetEventSchema = z.discriminatedUnion('type', [positionEvent, addStopsEvent, cancelStopEvent, completeStopEvent, reoptimizeEvent]);

export const fleetEventsBody = z.object({ events: z.array(fleetEventSchema).min(1).max(FLEET_LIMITS.maxEventsPerCall) }).strict();

export const fleetIdParams = z.object({ fleetId: z.string().min(1).max(64) });

export type FleetCreate = z.infer<typeof fleetCreateSchema>;
