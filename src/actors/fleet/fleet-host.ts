/**
 * Where live fleets live: this process's fleet actors, their bus addresses
 * (`fleet.actor.<id>`), and the way to any fleet wherever it lives (owner
 * routing: local, by request/reply, or a takeover with a fenced claim when
 * nobody answers). Plan frames reach streams in any process through the
 * fleet's feed subject.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Bus, BusSubscription } from '../runtime/bus/bus.js';
import { ActorFeed, type FrameListener } from '../runtime/actor-feed.js';
import { sendToOwner, serveOwnerCommand, type OwnedActorKind } from '../runtime/owner-routing.js';
import type { Subjects } from '../runtime/subjects.js';
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import type { FleetRepository } from '../../store/pg/fleets.js';
import { FleetActor, FleetFencedError, type FleetOptimizer } from './fleet-actor.js';
import type { FleetOwner, FleetRecord } from './fleet-model.js';
import type { FleetCommand, FleetCommandBody, PlanFrame } from './fleet-protocol.js';

export interface FleetHostOptions {
  bus: Bus;
  subjects: Subjects;
  repository: FleetRepository;
  optimize: FleetOptimizer;
  logger: Logger;
  /** How long a command may wait for the owner. */
  requestTimeoutMs: number;
  now?: () => number;
  /** Quiet actors idle this long, with no stream watching, leave memory (the store keeps them). */
  idleEvictMs?: number;
  sweepIntervalMs?: number;
}

interface Hosted {
  actor: FleetActor;
  subscription: BusSubscription;
}

const DEFAULT_IDLE_EVICT_MS = 30 * 60_000;
const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

export class FleetHost {
  readonly processId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly hosted = new Map<string, Hosted>();
  private readonly feed: ActorFeed<PlanFrame>;
  private readonly kind: OwnedActorKind<FleetCommand>;
  private readonly now: () => number;
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(private readonly options: FleetHostOptions) {
    this.now = options.now ?? Date.now;
    this.feed = new ActorFeed({ bus: options.bus, subjectOf: options.subjects.fleetFeed, origin: this.processId, logger: options.logger });
    this.kind = {
      bus: options.bus,
      subjectOf: options.subjects.fleet,
      local: (id) => {
        const actor = this.hosted.get(id)?.actor;
        return actor?.isLive ? actor : undefined;
      },
      isFenced: (error) => error instanceof FleetFencedError,
      lose: (id) => this.drop(id),
      takeOver: (id, command) => this.takeOver(id, command.caller),
      what: 'fleet',
      detailsOf: (fleetId) => ({ fleetId }),
      busyReason: 'fleet_mailbox_full',
      logger: options.logger,
      now: this.now,
    };
    this.sweepTimer = setInterval(() => this.sweep(), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  /** Stores a new fleet, starts its actor here and waits (up to `firstPlanTimeoutMs`) for its first plan. */
  async create(record: FleetRecord, firstPlanTimeoutMs: number): Promise<ReturnType<FleetActor['view']>> {
    await this.options.repository.insert(record, this.processId);
    const actor = this.host(record);
    await actor.planAfter(0, firstPlanTimeoutMs);
    return actor.view();
  }

  /** Runs a command on the fleet wherever it lives; answers its value or throws ApiError. */
  send(id: string, caller: FleetOwner, body: FleetCommandBody, commandId: string = randomUUID()): Promise<unknown> {
    return sendToOwner(this.kind, id, { ...body, caller, commandId } as FleetCommand, this.options.requestTimeoutMs);
  }

  /** Streams the fleet's plan frames to `listener` until the returned function is called. */
  watch(id: string, listener: FrameListener<PlanFrame>): () => void {
    return this.feed.watch(id, listener);
  }

  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    for (const id of [...this.hosted.keys()]) this.drop(id);
    this.feed.close();
  }

  private host(record: FleetRecord): FleetActor {
    const actor = new FleetActor(record, {
      optimize: this.options.optimize,
      persist: (write) => this.options.repository.write(write),
      publish: (frame) => this.feed.publish(frame.fleetId, [frame]),
      newStopId: () => randomUUID(),
      now: this.now,
      logger: this.options.logger,
    });
    const subscription = this.options.bus.subscribe(this.options.subjects.fleet(record.id), (message) => serveOwnerCommand(this.kind, record.id, actor, message));
    this.hosted.set(record.id, { actor, subscription });
    // a fleet whose plan is missing or behind its changes (its owner died mid-change) plans now
    void actor.start();
    return actor;
  }

  /** Nobody serves the fleet: load it and claim it; a process losing the race sends to the winner next. */
  private async takeOver(id: string, caller: FleetOwner): Promise<void> {
    const record = await this.options.repository.load(id);
    if (!record) throw new ApiError('NOT_FOUND', { message: 'Fleet not found', details: { fleetId: id } });
    if (record.owner.kind !== caller.kind || record.owner.id !== caller.id) throw new ApiError('FORBIDDEN', { message: 'This fleet belongs to another caller' });
    if (this.hosted.get(id)?.actor.isLive) return;
    const revision = await this.options.repository.claim(id, record.revision, this.processId);
    if (revision === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return;
    }
    this.host({ ...record, revision });
    this.options.logger.info({ fleetId: id, processId: this.processId }, 'fleet taken over');
  }

  private drop(id: string): void {
    const hosted = this.hosted.get(id);
    if (!hosted) return;
    hosted.actor.retire();
    hosted.subscription.unsubscribe();
    this.hosted.delete(id);
  }

  /** Lets quiet, idle, unwatched actors go; the next command takes the fleet over from the store. */
  private sweep(): void {
    const now = this.now();
    for (const [id, { actor }] of this.hosted) {
      if (actor.isQuiet && now - actor.lastActivityMs >= (this.options.idleEvictMs ?? DEFAULT_IDLE_EVICT_MS) && !this.feed.isWatched(id)) this.drop(id);
    }
  }
}
