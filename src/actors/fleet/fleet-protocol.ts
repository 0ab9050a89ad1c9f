/**
 * What travels between processes for a fleet: the commands sent to its owner
 * (`fleet.<id>`), each paired with the reply it gets, and the plan frames it
 * publishes for streams (`fleet.feed.<id>`). JSON on the wire.
 */
import type { ErrorCode } from '../../shared/errors.js';
import type { ReplyTo } from '../runtime/actor-protocol.js';
import type { PlanDiff } from './fleet-model.js';
import type { FleetDefinition, FleetOwner, FleetPlan, LatLng } from '../../domain/fleet.js';

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

/** Every command a fleet takes, paired with its reply. */
export type FleetExchange =
  | { command: { op: 'get' }; reply: FleetView }
  | { command: { op: 'apply'; events: FleetEvent[] }; reply: ApplyResult }
  /** A process streams the fleet to its sockets: publish plan frames on the feed for a while. */
  | { command: { op: 'watch' }; reply: { fleetId: string; planVersion: number } };

export type FleetCommandBody = FleetExchange['command'];

/** What a fleet command carries besides its own fields. */
export interface FleetEnvelope {
  caller: FleetOwner;
  /** Same id on a retried delivery, so the owner applies a command once. */
  commandId: string;
  /** Set by a process that streams this fleet to sockets of its own: it wants the feed. */
  watcherProcess?: string;
}

export type FleetCommand = FleetCommandBody & FleetEnvelope;

/** The reply to command body `B`. */
export type FleetReply<B extends FleetCommandBody = FleetCommandBody> = ReplyTo<FleetExchange, B>;

/** Why the last search was refused (e.g. COSTING_UNAVAILABLE), as the API error it stands for. */
export interface PlanError {
  code: ErrorCode;
  message: string | string[];
  details?: Record<string, unknown>;
}

/** The fleet as the API shows it. */
export interface FleetView {
  fleetId: string;
  name: FleetDefinition['name'];
  costing: FleetDefinition['costing'];
  vehicles: FleetDefinition['vehicles'];
  stops: FleetDefinition['stops'];
  changeSeq: number;
  planVersion: number;
  /** A re-plan is scheduled (debounced) or running. */
  replanning: boolean;
  plan: FleetPlan | null;
  /** Why the last search was refused; cleared by the next plan. */
  planError: PlanError | null;
  createdAt: string;
  updatedAt: string;
}

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
