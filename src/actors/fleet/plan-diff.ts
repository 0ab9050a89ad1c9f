import type { FleetPlan } from '../../domain/fleet.js';
import type { PlanDiff } from './fleet-model.js';

/** Which vehicle serves each stop in a plan's routes. */
function assignments(plan: FleetPlan | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const route of plan?.routes ?? []) for (const stopId of route.stopIds) out.set(stopId, route.vehicleId);
  return out;
}

/**
 * What a dispatcher needs to see between two plans: stops new to the routes,
 * stops gone from them, stops handed to another vehicle, and every vehicle
 * whose list of pending stops changed (order included). Pure.
 */
export function diffPlans(previous: FleetPlan | null, next: FleetPlan): PlanDiff {
  const before = assignments(previous);
  const after = assignments(next);
  const added: string[] = [];
  const moved: PlanDiff['moved'] = [];
  for (const [stopId, vehicleId] of after) {
    const from = before.get(stopId);
    if (from === undefined) added.push(stopId);
    else if (from !== vehicleId) moved.push({ stopId, fromVehicleId: from, toVehicleId: vehicleId });
  }
  const removed = [...before.keys()].filter((stopId) => !after.has(stopId));
  const previousStops = new Map((previous?.routes ?? []).map((route) => [route.vehicleId, route.stopIds]));
  const changedVehicleIds = next.routes
    .filter((route) => {
      const earlier = previousStops.get(route.vehicleId) ?? [];
      return earlier.length !== route.stopIds.length || earlier.some((stopId, k) => route.stopIds[k] !== stopId);
    })
    .map((route) => route.vehicleId);
  return { added, removed, moved, changedVehicleIds };
}

/** The vehicle a plan gives a stop to, if any. */
export function plannedVehicleOf(plan: FleetPlan | null, stopId: string): string | undefined {
  return plan?.routes.find((route) => route.stopIds.includes(stopId))?.vehicleId;
}
