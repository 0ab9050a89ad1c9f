/**
 * Where navigation sessions live: this process's actors, their bus
 * addresses, and the way to any session wherever it lives. A command for a
 * session goes to the local actor when this process owns it, else by
 * request/reply to `nav.session.<id>`; when nobody answers there (the owner
 * died, or let the session go idle), this process loads the session from the
 * store, claims it with a fenced write, and serves it from then on.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Bus, BusSubscription } from '../runtime/bus/bus.js';
import type { Subjects } from '../runtime/subjects.js';
import { ActorFeed, type FrameListener } from '../runtime/actor-feed.js';
import { sendToOwner, serveOwnerCommand, type OwnedActorKind } from '../runtime/owner-routing.js';
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { GroupCommit } from '../../store/group-commit.js';
import type { NavigationSessionRepository, SessionWrite } from '../../store/pg/navigation-sessions.js';
import { NavigationSessionActor, SessionFencedError, type SessionRoutePlanner } from './navigation-session-actor.js';
import type { SessionOwner, SessionRecord } from './session-model.js';
import type { FeedFrame, SessionCommand, SessionCommandBody } from './session-protocol.js';

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
  now?: () => number;
  /** Actors idle this long, with no stream watching, leave memory (the store keeps them). */
  idleEvictMs?: number;
  sweepIntervalMs?: number;
}

interface Hosted {
  actor: NavigationSessionActor;
  subscription: BusSubscription;
}

const DEFAULT_IDLE_EVICT_MS = 15 * 60_000;
const DEFAULT_SWEEP_INTERVAL_MS = 60_000;
/** Ended sessions stay readable this long before they are deleted. */
const ENDED_RETENTION_MS = 7 * 24 * 60 * 60_000;

export class NavigationSessionHost {
  /** Identifies this process as an owner in the store and as the origin of feed batches. */
  readonly processId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly hosted = new Map<string, Hosted>();
  private readonly feed: ActorFeed<FeedFrame>;
  /** How commands find the session's owner (this process, another one, or a takeover). */
  private readonly kind: OwnedActorKind<SessionCommand>;
  private readonly writes: GroupCommit<SessionWrite, boolean>;
  private readonly now: () => number;
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(private readonly options: SessionHostOptions) {
    this.now = options.now ?? Date.now;
    this.feed = new ActorFeed({ bus: options.bus, subjectOf: options.subjects.navigationSessionFeed, origin: this.processId, logger: options.logger });
    this.kind = {
      bus: options.bus,
      subjectOf: options.subjects.navigationSession,
      local: (id) => {
        const actor = this.hosted.get(id)?.actor;
        return actor?.isLive ? actor : undefined;
      },
      isFenced: (error) => error instanceof SessionFencedError,
      lose: (id) => this.lose(id),
      takeOver: (id, command) => this.takeOver(id, command.caller),
      what: 'navigation session',
      detailsOf: (sessionId) => ({ sessionId }),
      busyReason: 'session_mailbox_full',
      logger: options.logger,
      now: this.now,
    };
    this.writes = new GroupCommit(async (batch) => {
      const written = await options.repository.writeMany(batch);
      return batch.map((write) => written.has(write.id));
    });
    this.sweepTimer = setInterval(() => void this.sweep(), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  get hostedCount(): number {
    return this.hosted.size;
  }

  /** Stores a new session and starts its actor here. */
  async create(record: SessionRecord): Promise<ReturnType<NavigationSessionActor['snapshot']>> {
    await this.options.repository.insert(record, this.processId);
    const actor = this.host(record);
    return actor.snapshot();
  }

  /** Runs a command on the session wherever it lives; answers its value or throws ApiError. */
  send(id: string, caller: SessionOwner, body: SessionCommandBody, commandId: string = randomUUID()): Promise<unknown> {
    const command = { ...body, caller, commandId } as SessionCommand;
    return sendToOwner(this.kind, id, command, this.options.requestTimeoutMs);
  }

  /**
   * Streams the session's frames to `listener` (from the local actor or any other process's)
   * until the returned function is called.
   */
  watch(id: string, listener: FrameListener<FeedFrame>): () => void {
    return this.feed.watch(id, listener);
  }

  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    for (const id of [...this.hosted.keys()]) this.drop(id);
    this.feed.close();
  }

  private host(record: SessionRecord): NavigationSessionActor {
    const actor = new NavigationSessionActor(record, {
      planRoute: this.options.planRoute,
      persist: (write) => this.writes.submit(write),
      publish: (sessionId, frames) => this.feed.publish(sessionId, frames),
      ...(this.options.onEvents ? { onEvents: this.options.onEvents } : {}),
      now: this.now,
    });
    const subscription = this.options.bus.subscribe(this.options.subjects.navigationSession(record.id), (message) => serveOwnerCommand(this.kind, record.id, actor, message));
    this.hosted.set(record.id, { actor, subscription });
    return actor;
  }

  /**
   * Nobody serves the session: load it and claim it. Another process claiming at the same
   * moment wins or loses on the revision; the loser simply sends to the winner next.
   */
  private async takeOver(id: string, caller: SessionOwner): Promise<void> {
    const record = await this.options.repository.load(id);
    if (!record) throw new ApiError('NOT_FOUND', { message: 'Navigation session not found', details: { sessionId: id } });
    if (record.owner.kind !== caller.kind || record.owner.id !== caller.id) {
      throw new ApiError('FORBIDDEN', { message: 'This navigation session belongs to another caller' });
    }
    if (this.hosted.get(id)?.actor.isLive) return;
    const revision = await this.options.repository.claim(id, record.revision, this.processId);
    if (revision === undefined) {
      // lost the race; give the winner a moment to subscribe
      await new Promise((resolve) => setTimeout(resolve, 20));
      return;
    }
    this.host({ ...record, revision });
    this.options.logger.info({ sessionId: id, processId: this.processId }, 'navigation session taken over');
  }

  /** The session was taken over elsewhere. */
  private lose(id: string): void {
    this.drop(id);
    this.options.onLost?.(id);
  }

  private drop(id: string): void {
    const hosted = this.hosted.get(id);
    if (!hosted) return;
    hosted.actor.retire();
    hosted.subscription.unsubscribe();
    this.hosted.delete(id);
  }

  /** Expires idle sessions, lets idle actors go, deletes long-ended sessions. */
  private async sweep(): Promise<void> {
    const now = this.now();
    try {
      for (const [id, { actor }] of this.hosted) {
        await actor.expireIfDue().catch(() => undefined);
        const idle = now - actor.lastActivityMs >= (this.options.idleEvictMs ?? DEFAULT_IDLE_EVICT_MS);
        if ((idle || !actor.isActive) && actor.pending === 0 && !this.feed.isWatched(id)) this.drop(id);
      }
      await this.options.repository.expireIdle(new Date(now));
      await this.options.repository.deleteEndedBefore(new Date(now - ENDED_RETENTION_MS));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'navigation session sweep failed');
    }
  }
}
