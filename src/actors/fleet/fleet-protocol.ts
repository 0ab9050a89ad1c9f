/**
 * What travels between processes for a fleet: the commands sent to its owner
 * (`fleet.<id>`), the replies, and the plan frames it publishes for streams
 * (`fleet.feed.<id>`). JSON on the wire.
 */
import type { FleetOwner, FleetPlan, LatLng } from '../../domain/fleet.js';
import type { PlanDiff } from './fleet-model.js';

/** A stop as given by the dispatcher; the fleet names it when `id` is left out. */
export interface NewStop extends LatLng {
  id?: string;
  demand?: number;
  serviceSeconds?: number;
}

/** A change to a fleet, from the stream or the REST events endpoint. */
export type FleetEvent =
  | { type: 'position'; vehicleId: string; lat: number; lng: number; at?: string }
  | { type: 'add_stops'; stops: NewStop[] }
  | { type: 'cancel_stop'; stopId: string }
  | { type: 'complete_stop'; stopId: string; vehicleId?: string }
  | { type: 'reoptimize' };

export type FleetCommandBody =
  | { op: 'get' }
  | { op: 'apply'; events: FleetEvent[] }
  /** A process streams the fleet to its sockets: publish plan frames on the feed for a while. */
  | { op: 'watch' };

export type FleetCommand = FleetCommandBody & {
  caller: FleetOwner;
  /** Same id on a retried delivery, so the owner applies a command once. */
  commandId: string;
  /** Set by a process that streams this fleet to sockets of its own: it wants the feed. */
  watcherProcess?: string;
};

/** What an `apply` answers. */
export interface ApplyResult {
  fleetId: string;
  /** Changes applied so far; a plan with `changeSeq` ≥ this includes these events. */
  changeSeq: number;
  /** The current plan's version (the re-plan, if one is due, comes as the next version). */
  planVersion: number;
  /** A re-plan is scheduled (debounced) or running. */
  replanning: boolean;
}

/** A new plan, pushed to every stream of the fleet; `diff` is against `previousPlanVersion`. */
export interface PlanFrame {
  type: 'plan';
  fleetId: string;
  planVersion: number;
  previousPlanVersion: number;
  plan: FleetPlan;
  diff: PlanDiff;
}
