/**
 * The pure effect of dispatcher events on a fleet's definition: all events of
 * a message apply, or none (the first refusal throws ApiError). No clock and no
 * id source of its own: both come in.
 */
import { ApiError } from '../../shared/errors.js';
import { FLEET_LIMITS } from './fleet-model.js';
import type { FleetDefinition, FleetStop } from '../../domain/fleet.js';
import type { FleetEvent } from './fleet-protocol.js';

export interface AppliedEvents {
  definition: FleetDefinition;
  /** Events that change what must be planned (stops added, cancelled, completed). */
  changes: number;
  /** The dispatcher asked for a re-plan now, without the debounce. */
  immediate: boolean;
}

export interface EventContext {
  nowIso: string;
  newStopId: () => string;
  /** The vehicle the current plan gives a stop to (a completion that names no vehicle). */
  plannedVehicleOf: (stopId: string) => string | undefined;
}

export function applyFleetEvents(current: FleetDefinition, events: readonly FleetEvent[], context: EventContext): AppliedEvents {
  const definition: FleetDefinition = { ...current, vehicles: current.vehicles.map((vehicle) => ({ ...vehicle })), stops: current.stops.slice() };
  const stopIndex = new Map(definition.stops.map((stop, index) => [stop.id, index]));
  const vehicleOf = (vehicleId: string, at: number) => {
    const vehicle = definition.vehicles.find((each) => each.id === vehicleId);
    if (!vehicle) throw invalid(at, `unknown vehicleId "${vehicleId}"`);
    return vehicle;
  };
  const stopOf = (stopId: string, at: number): [FleetStop, number] => {
    const index = stopIndex.get(stopId);
    if (index === undefined) throw invalid(at, `unknown stopId "${stopId}"`);
    return [definition.stops[index]!, index];
  };
  let changes = 0;
  let immediate = false;
  events.forEach((event, at) => {
    switch (event.type) {
      case 'position': {
        const vehicle = vehicleOf(event.vehicleId, at);
        const reportedAt = event.at ?? context.nowIso;
        // a late or resent position never moves the vehicle back
        if (vehicle.position && Date.parse(reportedAt) < Date.parse(vehicle.position.at)) return;
        vehicle.position = { lat: event.lat, lng: event.lng, at: reportedAt };
        return;
      }
      case 'add_stops': {
        for (const stop of event.stops) {
          const id = stop.id ?? context.newStopId();
          if (stopIndex.has(id)) throw invalid(at, `stop id "${id}" is already used in this fleet`);
          stopIndex.set(id, definition.stops.length);
          definition.stops.push({ id, lat: stop.lat, lng: stop.lng, demand: stop.demand ?? 0, serviceSeconds: stop.serviceSeconds ?? 0, status: 'pending', addedAt: context.nowIso });
        }
        checkStopBounds(definition, at);
        changes++;
        return;
      }
      case 'cancel_stop': {
        const [stop, index] = stopOf(event.stopId, at);
        if (stop.status === 'cancelled') return;
        if (stop.status === 'completed') throw closed(stop, 'cancelled');
        definition.stops[index] = { ...stop, status: 'cancelled' };
        changes++;
        return;
      }
      case 'complete_stop': {
        const [stop, index] = stopOf(event.stopId, at);
        // a resent completion is answered as done
        if (stop.status === 'completed') return;
        if (stop.status === 'cancelled') throw closed(stop, 'completed');
        const vehicleId = event.vehicleId ?? context.plannedVehicleOf(stop.id);
        if (vehicleId === undefined) throw invalid(at, `stop "${stop.id}" is on no vehicle's route: give vehicleId`);
        const vehicle = vehicleOf(vehicleId, at);
        definition.stops[index] = { ...stop, status: 'completed', completedBy: vehicle.id, completedAt: context.nowIso };
        // the vehicle is where it served the stop, unless it reported a newer position
        if (!vehicle.position || Date.parse(vehicle.position.at) <= Date.parse(context.nowIso)) vehicle.position = { lat: stop.lat, lng: stop.lng, at: context.nowIso };
        changes++;
        return;
      }
      case 'reoptimize':
        immediate = true;
        return;
    }
  });
  return { definition, changes, immediate };
}

/** Bounds on the stops a fleet holds; also checked when a fleet is created. */
export function checkStopBounds(definition: FleetDefinition, at?: number): void {
  const pending = definition.stops.filter((stop) => stop.status === 'pending').length;
  if (pending > FLEET_LIMITS.maxPendingStops) throw invalid(at, `at most ${FLEET_LIMITS.maxPendingStops} stops may be pending at once, got ${pending}`);
  if (definition.stops.length > FLEET_LIMITS.maxStops) throw invalid(at, `a fleet keeps at most ${FLEET_LIMITS.maxStops} stops (served and cancelled included), got ${definition.stops.length}`);
}

function invalid(at: number | undefined, message: string): ApiError {
  return new ApiError('VALIDATION_ERROR', { message: [at === undefined ? message : `events.${at}: ${message}`] });
}

function closed(stop: FleetStop, wanted: 'cancelled' | 'completed'): ApiError {
  return new ApiError('STOP_CLOSED', { message: `Stop "${stop.id}" is ${stop.status}; it cannot be ${wanted}`, details: { stopId: stop.id, status: stop.status } });
}
