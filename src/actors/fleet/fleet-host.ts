/**
 * Where live fleets live: an actor directory (runtime/actor-directory.ts) of
 * fleet actors addressed on `fleet.actor.<id>`, taken over from the store with
 * a fenced claim when their owner is gone; plan frames reach streams in any
 * process on `fleet.feed.<id>`. Idle, unwatched fleets leave memory.
 */
import { randomUUID } from 'node:crypto';
import type { Bus } from '../runtime/bus/bus.js';
import type { FrameListener } from '../runtime/actor-feed.js';
import { ActorDirectory } from '../runtime/actor-directory.js';
import { newCommandId } from '../runtime/command-id.js';
import type { Subjects } from '../runtime/subjects.js';
import type { Logger } from '../../shared/logger.js';
import type { FleetRepository } from '../../store/pg/fleets.js';
import { FleetActor, FleetFencedError, type FleetOptimizer } from './fleet-actor.js';
import type { FleetOwner, FleetRecord } from '../../domain/fleet.js';
import type { FleetCommandBody, FleetEnvelope, FleetExchange, FleetReply, FleetView, PlanFrame } from './fleet-protocol.js';

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

const DEFAULT_IDLE_EVICT_MS = 30 * 60_000;
const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

/** Fleets unchanged this long are deleted (ms): a fleet is a day's dispatch, kept a week for review. */
export const FLEET_RETENTION_MS = 7 * 24 * 60 * 60_000;

export class FleetHost {
  private readonly directory: ActorDirectory<FleetActor, FleetRecord, FleetExchange, FleetEnvelope, PlanFrame>;
  private readonly now: () => number;
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(private readonly options: FleetHostOptions) {
    this.now = options.now ?? Date.now;
    this.directory = new ActorDirectory({
      bus: options.bus,
      logger: options.logger,
      now: this.now,
      commandSubject: options.subjects.fleet,
      feedSubject: options.subjects.fleetFeed,
      what: 'fleet',
      idField: 'fleetId',
      busyReason: 'fleet_mailbox_full',
      requestTimeoutMs: options.requestTimeoutMs,
      isFenced: (error) => error instanceof FleetFencedError,
      load: (id) => options.repository.load(id),
      claim: (id, revision, processId) => options.repository.claim(id, revision, processId),
      watchCommand: (caller) => ({ op: 'watch', caller, commandId: newCommandId() }),
      createActor: (record, feed) => {
        const actor = new FleetActor(record, {
          optimize: options.optimize,
          persist: (write) => options.repository.write(write),
          publish: (frame) => feed.publish(frame.fleetId, [frame]),
          newStopId: () => randomUUID(),
          now: this.now,
          logger: options.logger,
        });
        // a fleet whose plan is missing or behind its changes (new, or its owner died mid-change) plans now
        void actor.start();
        return actor;
      },
    });
    this.sweepTimer = setInterval(() => this.sweep(), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  /** Stores a new fleet, starts its actor here and waits (up to `firstPlanTimeoutMs`) for its first plan. */
  async create(record: FleetRecord, firstPlanTimeoutMs: number): Promise<FleetView> {
    await this.options.repository.insert(record, this.directory.processId);
    const actor = this.directory.host(record);
    await actor.planAfter(0, firstPlanTimeoutMs);
    return actor.view();
  }

  /** Runs a command on the fleet wherever it lives; answers its reply or throws ApiError. */
  send<B extends FleetCommandBody>(id: string, caller: FleetOwner, body: B, commandId: string = newCommandId()): Promise<FleetReply<B>> {
    // assigned, not spread: `{ ...body, caller, commandId }` made a new hidden class per command (see withFields)
    return this.directory.send(id, Object.assign({}, body, { caller, commandId }));
  }

  /** Streams the fleet's plan frames to `listener` until the returned function is called. */
  watch(id: string, caller: FleetOwner, listener: FrameListener<PlanFrame>): () => void {
    return this.directory.watch(id, caller, listener);
  }

  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.directory.close();
  }

  /**
   * Lets quiet, idle, unwatched actors go (the next command takes the fleet over from the store),
   * and deletes fleets unchanged for FLEET_RETENTION_MS (any process may; the store decides).
   */
  private sweep(): void {
    const now = this.now();
    for (const [id, actor] of this.directory.actors()) {
      if (actor.isQuiet && now - actor.lastActivityMs >= (this.options.idleEvictMs ?? DEFAULT_IDLE_EVICT_MS) && !this.directory.isWatched(id)) this.directory.drop(id);
    }
    this.options.repository.deleteIdleBefore(new Date(now - FLEET_RETENTION_MS)).catch((error: unknown) => this.options.logger.warn({ err: error }, 'fleet retention sweep failed'));
  }
}
