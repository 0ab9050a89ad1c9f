/**
 * One live fleet as an actor: a serial mailbox in front of the fleet's
 * definition, its current plan and the planning state machine. Events change
 * the definition (durable before they are acknowledged); the machine decides
 * when to re-plan; a search runs outside the mailbox (events keep flowing
 * while it runs) and its answer comes back through the mailbox, where it
 * becomes the next plan version: written, then published with its diff.
 * A write fenced off by a takeover retires the actor.
 */
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { roundTo } from '../../shared/rounding.js';
import { Mailbox } from '../../shared/mailbox.js';
import type { FleetWrite } from '../../store/pg/fleets.js';
import { applyFleetEvents } from './fleet-events.js';
import type { FleetPlan, FleetPlanReason, FleetRecord, LatLng } from '../../domain/fleet.js';
import type { ApplyResult, FleetCommand, FleetCommandBody, FleetEnvelope, FleetEvent, FleetReply, FleetView, PlanError, PlanFrame } from './fleet-protocol.js';
import { diffPlans, plannedVehicleOf } from './plan-diff.js';
import { planningTransition, type PlanningEffect, type PlanningInput, type PlanningState } from './planning-machine.js';

/** The re-planning problem: pending stops only; completed stops are locked and never handed to the search. */
export interface FleetProblem {
  costing: FleetRecord['definition']['costing'];
  vehicles: { id: string; start: LatLng; end: LatLng | null; capacity: number | null }[];
  stops: { id: string; lat: number; lng: number; demand: number; serviceSeconds: number }[];
  /** The current plan's pending stops per vehicle: the search starts from it. */
  warmStart: { vehicleId: string; stopIds: string[] }[];
}

export interface FleetSolution {
  feasible: boolean;
  routes: { vehicleId: string; stopIds: string[]; arrivalSeconds: number[]; durationSeconds: number; distanceMeters: number }[];
  unassignedStopIds: string[];
  reasons?: FleetPlanReason[];
}

/** Runs one re-planning search (route optimization on the worker threads). */
export type FleetOptimizer = (problem: FleetProblem) => Promise<FleetSolution>;

export interface FleetActorDeps {
  optimize: FleetOptimizer;
  /** Makes a write durable; false when the fence failed (the fleet was taken over). */
  persist(write: FleetWrite): Promise<boolean>;
  /** Hands a plan frame to the fleet's streams, after the plan is durable. */
  publish(frame: PlanFrame): void;
  newStopId(): string;
  now(): number;
  logger: Logger;
}

/** The fleet was taken over by another process; the command must go to the new owner. */
export class FleetFencedError extends Error {
  constructor(readonly fleetId: string) {
    super(`fleet ${fleetId} is owned by another process now`);
    this.name = 'FleetFencedError';
  }
}

const MAILBOX_CAPACITY = 128;
/** Positions not yet written are written within this long (ms); a crash loses at most this much of them. */
export const POSITION_FLUSH_MS = 5_000;
/** Answers of recent commands, so a command retried after a lost reply is not applied twice. */
const REMEMBERED_COMMANDS = 64;

export class FleetActor {
  private lifecycle: 'live' | 'retired' = 'live';
  private readonly mailbox = new Mailbox(MAILBOX_CAPACITY);
  private planning: PlanningState = { kind: 'idle' };
  private timer: NodeJS.Timeout | undefined;
  private positionFlush: NodeJS.Timeout | undefined;
  private readonly answered = new Map<string, ApplyResult>();
  private readonly planWaiters: (() => void)[] = [];
  /** Why the last search was refused (e.g. COSTING_UNAVAILABLE); cleared by the next plan. */
  private planError: PlanError | null = null;
  lastActivityMs: number;

  constructor(
    private record: FleetRecord,
    private readonly deps: FleetActorDeps,
  ) {
    this.lastActivityMs = deps.now();
  }

  get id(): string {
    return this.record.id;
  }

  get isLive(): boolean {
    return this.lifecycle === 'live';
  }

  /** Nothing queued, no re-plan due or running: the actor may leave memory. */
  get isQuiet(): boolean {
    return this.mailbox.depth === 0 && this.planning.kind === 'idle' && this.positionFlush === undefined;
  }

  /** Plans now when the stored plan is missing or behind the changes (a new fleet, or one taken over mid-change). */
  start(): Promise<void> {
    return this.mailbox.post(() => {
      const plan = this.record.plan;
      if (!plan || plan.changeSeq < this.record.changeSeq) this.step({ type: 'changed', nowMs: this.deps.now(), immediate: true });
    });
  }

  /** Resolves when a plan newer than `planVersion` exists, a search was refused, or after `timeoutMs`. */
  planAfter(planVersion: number, timeoutMs: number): Promise<void> {
    if ((this.record.plan?.planVersion ?? 0) > planVersion) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.planWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  retire(): void {
    this.lifecycle = 'retired';
    clearTimeout(this.timer);
    clearTimeout(this.positionFlush);
  }

  /** Queues a command; answers its reply or throws ApiError / FleetFencedError. */
  handle<B extends FleetCommandBody>(command: B & FleetEnvelope): Promise<FleetReply<B>> {
    // each branch of `process` answers its command's own reply (checked there by `answer`)
    return this.mailbox.post(() => this.process(command)) as Promise<FleetReply<B>>;
  }

  private async process(command: FleetCommand): Promise<FleetReply> {
    if (this.lifecycle !== 'live') throw new FleetFencedError(this.id);
    const owner = this.record.owner;
    if (command.caller.kind !== owner.kind || command.caller.id !== owner.id) throw new ApiError('FORBIDDEN', { message: 'This fleet belongs to another caller' });
    this.lastActivityMs = this.deps.now();
    if (command.op === 'get') return answer(command, this.view());
    if (command.op === 'watch') return answer(command, { fleetId: this.id, planVersion: this.record.plan?.planVersion ?? 0 });
    const remembered = this.answered.get(command.commandId);
    if (remembered) return answer(command, remembered);
    const applied = await this.apply(command.events);
    this.answered.set(command.commandId, applied);
    if (this.answered.size > REMEMBERED_COMMANDS) this.answered.delete(this.answered.keys().next().value!);
    return answer(command, applied);
  }

  /** The fleet as the API shows it. */
  view(): FleetView {
    const { id, definition, plan, changeSeq, createdAt, updatedAt } = this.record;
    return {
      fleetId: id,
      name: definition.name,
      costing: definition.costing,
      vehicles: definition.vehicles,
      stops: definition.stops,
      changeSeq,
      planVersion: plan?.planVersion ?? 0,
      replanning: this.planning.kind !== 'idle',
      plan,
      planError: this.planError,
      createdAt,
      updatedAt,
    };
  }

  private async apply(events: readonly FleetEvent[]): Promise<ApplyResult> {
    const nowMs = this.deps.now();
    const nowIso = new Date(nowMs).toISOString();
    const applied = applyFleetEvents(this.record.definition, events, {
      nowIso,
      newStopId: this.deps.newStopId,
      plannedVehicleOf: (stopId) => plannedVehicleOf(this.record.plan, stopId),
    });
    const changeSeq = this.record.changeSeq + applied.changes;
    if (applied.changes === 0) {
      // positions come every few seconds per vehicle: kept here, written with the next write or within a few seconds
      this.record = { ...this.record, definition: applied.definition, updatedAt: nowIso };
      this.positionFlush ??= setTimeout(() => this.post(() => this.commit({ ...this.record })), POSITION_FLUSH_MS);
    } else {
      await this.commit({ ...this.record, definition: applied.definition, changeSeq, updatedAt: nowIso });
    }
    if (applied.changes > 0 || applied.immediate) this.step({ type: 'changed', nowMs, immediate: applied.immediate });
    return { fleetId: this.id, changeSeq, planVersion: this.record.plan?.planVersion ?? 0, replanning: this.planning.kind !== 'idle' };
  }

  /** Writes the next state; it becomes the fleet's only once durable. */
  private async commit(next: FleetRecord): Promise<void> {
    clearTimeout(this.positionFlush);
    this.positionFlush = undefined;
    const written = await this.deps.persist({
      id: next.id,
      expectedRevision: this.record.revision,
      definition: next.definition,
      plan: next.plan,
      changeSeq: next.changeSeq,
      updatedAt: next.updatedAt,
    });
    if (!written) {
      this.retire();
      throw new FleetFencedError(this.id);
    }
    this.record = { ...next, revision: this.record.revision + 1 };
  }

  private step(input: PlanningInput): void {
    const { state, effects } = planningTransition(this.planning, input);
    this.planning = state;
    for (const effect of effects) this.run(effect);
  }

  private run(effect: PlanningEffect): void {
    switch (effect.type) {
      case 'arm':
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.post(() => this.step({ type: 'due', nowMs: this.deps.now() })), Math.max(0, effect.atMs - this.deps.now()));
        return;
      case 'disarm':
        clearTimeout(this.timer);
        this.timer = undefined;
        return;
      case 'optimize': {
        const basedOn = this.record.changeSeq;
        // outside the mailbox: events are acknowledged while the search runs
        this.deps.optimize(this.problem()).then(
          (solution) => this.post(() => this.accept(solution, basedOn)),
          (error: unknown) =>
            this.post(() => {
              // a refusal of the problem itself (4xx) would fail again: shown, not retried until the next change
              const permanent = error instanceof ApiError && error.statusCode < 500;
              this.planError = permanent ? { code: error.code, message: error.messages, ...(error.details ? { details: error.details } : {}) } : null;
              this.deps.logger.warn({ err: error, fleetId: this.id, permanent }, 'fleet re-plan failed');
              this.step({ type: 'failed', nowMs: this.deps.now(), permanent });
              for (const wake of this.planWaiters.splice(0)) wake();
            }),
        );
        return;
      }
    }
  }

  /** Mailbox work started by the actor itself (timers, search answers); a retired actor ignores it. */
  private post(work: () => Promise<void> | void): void {
    this.mailbox
      .post(async () => {
        if (this.lifecycle === 'live') await work();
      })
      .catch((error: unknown) => {
        if (!(error instanceof FleetFencedError)) this.deps.logger.error({ err: error, fleetId: this.id }, 'fleet actor step failed');
      });
  }

  private problem(): FleetProblem {
    const { definition, plan } = this.record;
    return {
      costing: definition.costing,
      vehicles: definition.vehicles.map((vehicle) => ({
        id: vehicle.id,
        start: vehicle.position ? { lat: vehicle.position.lat, lng: vehicle.position.lng } : vehicle.start,
        end: vehicle.end,
        capacity: vehicle.capacity,
      })),
      stops: definition.stops.filter((stop) => stop.status === 'pending').map(({ id, lat, lng, demand, serviceSeconds }) => ({ id, lat, lng, demand, serviceSeconds })),
      warmStart: (plan?.routes ?? []).map((route) => ({ vehicleId: route.vehicleId, stopIds: route.stopIds })),
    };
  }

  /** A search answered: drop what was completed or cancelled meanwhile, then it is the next plan version. */
  private async accept(solution: FleetSolution, basedOnChangeSeq: number): Promise<void> {
    const nowMs = this.deps.now();
    const { definition } = this.record;
    const pending = new Set(definition.stops.filter((stop) => stop.status === 'pending').map((stop) => stop.id));
    const solved = new Map(solution.routes.map((route) => [route.vehicleId, route]));
    const routes = definition.vehicles.map((vehicle) => {
      const route = solved.get(vehicle.id);
      const keep = (route?.stopIds ?? []).map((stopId, k) => [stopId, route!.arrivalSeconds[k] ?? 0] as const).filter(([stopId]) => pending.has(stopId));
      return {
        vehicleId: vehicle.id,
        completedStopIds: completedBy(definition.stops, vehicle.id),
        stopIds: keep.map(([stopId]) => stopId),
        arrivalSeconds: keep.map(([, seconds]) => seconds),
        durationSeconds: route?.durationSeconds ?? 0,
        distanceMeters: route?.distanceMeters ?? 0,
      };
    });
    const previous = this.record.plan;
    const plan: FleetPlan = {
      planVersion: (previous?.planVersion ?? 0) + 1,
      computedAt: new Date(nowMs).toISOString(),
      changeSeq: basedOnChangeSeq,
      feasible: solution.feasible,
      routes,
      unassignedStopIds: solution.unassignedStopIds.filter((stopId) => pending.has(stopId)),
      ...(solution.reasons?.length ? { reasons: solution.reasons } : {}),
      objective: {
        totalDurationSeconds: roundTo(routes.reduce((sum, route) => sum + route.durationSeconds, 0), 1),
        totalDistanceMeters: roundTo(routes.reduce((sum, route) => sum + route.distanceMeters, 0), 1),
        vehiclesUsed: routes.filter((route) => route.stopIds.length > 0).length,
      },
    };
    await this.commit({ ...this.record, plan, updatedAt: plan.computedAt });
    this.planError = null;
    this.deps.publish({ type: 'plan', fleetId: this.id, planVersion: plan.planVersion, previousPlanVersion: previous?.planVersion ?? 0, plan, diff: diffPlans(previous, plan) });
    for (const wake of this.planWaiters.splice(0)) wake();
    this.step({ type: 'solved', nowMs });
  }
}

/** `reply` as the answer to `command`: checked against the fleet's protocol, so each command answers its own reply. */
function answer<B extends FleetCommandBody>(_command: B, reply: FleetReply<B>): FleetReply {
  return reply;
}

/** A vehicle's completed stops in the order it completed them (locked in the plan). */
function completedBy(stops: FleetRecord['definition']['stops'], vehicleId: string): string[] {
  return stops
    .filter((stop) => stop.status === 'completed' && stop.completedBy === vehicleId)
    .sort((a, b) => Date.parse(a.completedAt!) - Date.parse(b.completedAt!))
    .map((stop) => stop.id);
}
