/**
 * Where navigation sessions live: this process's actors, their bus
 * addresses, and the way to any session wherever it lives. A command for a
 * session goes to the local actor when this process owns it, else by
 * request/reply to `nav.session.<id>`; when nobody answers there (the owner
 * died, or let the session go idle), this process loads the session from the
 * store, claims it with a fenced write, and serves it from then on.
 */
import type { Bus } from '../runtime/bus/bus.js';
import type { Subjects } from '../runtime/subjects.js';
import type { FrameListener } from '../runtime/actor-feed.js';
import { ActorDirectory } from '../runtime/actor-directory.js';
import { newCommandId } from '../runtime/command-id.js';
import type { Logger } from '../../shared/logger.js';
import { GroupCommit } from '../../store/group-commit.js';
import type { NavigationSessionRepository, SessionWrite } from '../../store/pg/navigation-sessions.js';
import { CHECKPOINT_INTERVAL_MS, NavigationSessionActor, SessionFencedError, type SessionActorDeps, type SessionRoutePlanner } from './navigation-session-actor.js';
import type { SessionOwner, SessionRecord } from '../../domain/navigation-session.js';
import type { FeedFrame, SessionCommandBody, SessionEnvelope, SessionExchange, SessionReply, SessionSnapshot } from './session-protocol.js';

export interface SessionHostOptions {
  bus: Bus;
  subjects: Subjects;
  repository: NavigationSessionRepository;
  planRoute: SessionRoutePlanner;
  logger: Logger;
  /** How long a command may wait for the owner (it may be planning a route). */
  requestTimeoutMs: number;
  /** New durable events of a session (webhook delivery). */
  onEvents?(record: SessionRecord): void;
  /** Another process took the session over: stop this process's work on it (webhook delivery). */
  onLost?(sessionId: string): void;
  /** Live blocking incidents near a route ahead (sessions re-plan around new ones). */
  incidentAhead?: SessionActorDeps['incidentAhead'];
  now?: () => number;
  /** Actors idle this long, with no stream watching, leave memory (the store keeps them). */
  idleEvictMs?: number;
  sweepIntervalMs?: number;
  /** Group-commit linger under load (ms), see GroupCommit. */
  writeLingerMs?: number;
}

const DEFAULT_IDLE_EVICT_MS = 15 * 60_000;
const DEFAULT_SWEEP_INTERVAL_MS = 60_000;
/** Ended sessions stay readable this long before they are deleted. */
const ENDED_RETENTION_MS = 7 * 24 * 60 * 60_000;

export class NavigationSessionHost {
  private readonly directory: ActorDirectory<NavigationSessionActor, SessionRecord, SessionExchange, SessionEnvelope, FeedFrame>;
  private readonly writes: GroupCommit<SessionWrite, boolean>;
  private readonly now: () => number;
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly checkpointTimer: NodeJS.Timeout;

  constructor(private readonly options: SessionHostOptions) {
    this.now = options.now ?? Date.now;
    this.writes = new GroupCommit(
      async (batch) => {
        const written = await options.repository.writeMany(batch);
        return batch.map((write) => written.has(write.id));
      },
      { lingerMs: options.writeLingerMs ?? 0 },
    );
    this.directory = new ActorDirectory({
      bus: options.bus,
      logger: options.logger,
      now: this.now,
      commandSubject: options.subjects.navigationSession,
      feedSubject: options.subjects.navigationSessionFeed,
      what: 'navigation session',
      idField: 'sessionId',
      busyReason: 'session_mailbox_full',
      requestTimeoutMs: options.requestTimeoutMs,
      isFenced: (error) => error instanceof SessionFencedError,
      load: (id) => options.repository.load(id),
      claim: (id, revision, processId) => options.repository.claim(id, revision, processId),
      createActor: (record, feed) =>
        new NavigationSessionActor(record, {
          planRoute: options.planRoute,
          persist: (write) => this.writes.submit(write),
          publish: (sessionId, frames) => feed.publish(sessionId, frames),
          ...(options.onEvents ? { onEvents: options.onEvents } : {}),
          ...(options.incidentAhead ? { incidentAhead: options.incidentAhead } : {}),
          now: this.now,
        }),
      ...(options.onLost ? { onLost: options.onLost } : {}),
      watchCommand: (caller) => ({ op: 'watch', caller, commandId: newCommandId() }),
    });
    this.sweepTimer = setInterval(() => void this.sweep(), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
    // sessions whose fixes stopped: their last progress is written within two intervals
    this.checkpointTimer = setInterval(() => void this.checkpoint(CHECKPOINT_INTERVAL_MS), CHECKPOINT_INTERVAL_MS);
    this.checkpointTimer.unref();
  }

  /** Identifies this process as an owner in the store and as the origin of feed batches. */
  get processId(): string {
    return this.directory.processId;
  }

  /** Stores a new session and starts its actor here. */
  async create(record: SessionRecord): Promise<SessionSnapshot> {
    await this.options.repository.insert(record, this.processId);
    return this.directory.host(record).snapshot();
  }

  /** Runs a command on the session wherever it lives; answers its reply or throws ApiError. */
  send<B extends SessionCommandBody>(id: string, caller: SessionOwner, body: B, commandId: string = newCommandId()): Promise<SessionReply<B>> {
    // assigned, not spread: `{ ...body, caller, commandId }` made a new hidden class per command (see withFields)
    return this.directory.send(id, Object.assign({}, body, { caller, commandId }));
  }

  /**
   * Streams the session's frames to `listener` (from the local actor or any other process's)
   * until the returned function is called.
   */
  watch(id: string, caller: SessionOwner, listener: FrameListener<FeedFrame>): () => void {
    return this.directory.watch(id, caller, listener);
  }

  /** Writes the progress of every session here that is `olderThanMs` unsaved (all of it on shutdown). */
  private async checkpoint(olderThanMs: number): Promise<void> {
    const due = [...this.directory.actors()].filter(([, actor]) => actor.hasUnsavedProgress(olderThanMs));
    const results = await Promise.allSettled(due.map(([, actor]) => actor.checkpoint()));
    let failed = 0;
    results.forEach((result, index) => {
      if (result.status === 'fulfilled') return;
      // taken over meanwhile: let it go as a fenced command would (webhook delivery stops here too)
      if (result.reason instanceof SessionFencedError) this.directory.lose(due[index]![0]);
      else failed++;
    });
    if (failed > 0) this.options.logger.warn({ failed }, 'navigation session checkpoint failed; retried at the next one');
  }

  /** Hands the sessions back to the store (their latest progress written) so another process can serve them. */
  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    clearInterval(this.checkpointTimer);
    // commands still arriving over the bus while the last progress is written are written too, not only answered
    for (const [, actor] of this.directory.actors()) actor.writeEveryCommand();
    await this.checkpoint(0);
    this.directory.close();
  }

  /** Expires idle sessions, lets idle actors go, deletes long-ended sessions. */
  private async sweep(): Promise<void> {
    const now = this.now();
    try {
      for (const [id, actor] of this.directory.actors()) {
        await actor.expireIfDue().catch(() => undefined);
        const idle = now - actor.lastActivityMs >= (this.options.idleEvictMs ?? DEFAULT_IDLE_EVICT_MS);
        if (!((idle || !actor.isActive) && actor.pending === 0 && !this.directory.isWatched(id))) continue;
        // progress not yet written goes to the store first; the actor leaves at the next sweep
        if (actor.hasUnsavedProgress()) {
          await actor.checkpoint().catch((error: unknown) => {
            if (error instanceof SessionFencedError) this.directory.lose(id);
          });
        }
        else this.directory.drop(id);
      }
      await this.options.repository.expireIdle(new Date(now));
      await this.options.repository.deleteEndedBefore(new Date(now - ENDED_RETENTION_MS));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'navigation session sweep failed');
    }
  }
}
