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
import { BusError, decodeJson, encodeJson, type Bus, type BusMessage, type BusSubscription } from '../runtime/bus/bus.js';
import type { Subjects } from '../runtime/subjects.js';
import { MailboxFullError } from '../runtime/mailbox.js';
import { ApiError, errorCodes, type ErrorCode } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { GroupCommit } from '../../store/group-commit.js';
import type { NavigationSessionRepository, SessionWrite } from '../../store/pg/navigation-sessions.js';
import { NavigationSessionActor, SessionFencedError, type SessionRoutePlanner } from './navigation-session-actor.js';
import type { SessionOwner, SessionRecord } from './session-model.js';
import type { FeedBatch, FeedFrame, SessionCommand, SessionCommandBody, SessionReply } from './session-protocol.js';

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
  /** Group-commit linger under load (ms), see GroupCommit. */
  writeLingerMs?: number;
}

type FrameListener = (frames: FeedFrame[]) => void;

interface Hosted {
  actor: NavigationSessionActor;
  subscription: BusSubscription;
}

interface Watch {
  listeners: Set<FrameListener>;
  feed: BusSubscription;
  /** Renews this process's interest with a remote owner. */
  renewal: NodeJS.Timeout;
}

/** Bounds the retries of one command (takeovers, fenced writes, timeouts) within its time budget. */
const MAX_ATTEMPTS = 20;
/** One wait for the owner's answer (ms); see send(). */
const ATTEMPT_TIMEOUT_MS = 2_000;
/**
 * The owner publishes a session's frames on the bus only while another process has said, within
 * this long (ms), that it streams the session: most sessions are streamed by the process that owns
 * them, and a publish nobody reads still costs both ends.
 */
const FEED_INTEREST_MS = 60_000;
/** A watching process renews its interest this often (ms), well inside FEED_INTEREST_MS. */
const FEED_INTEREST_RENEW_MS = 20_000;
const DEFAULT_IDLE_EVICT_MS = 15 * 60_000;
const DEFAULT_SWEEP_INTERVAL_MS = 60_000;
/** Ended sessions stay readable this long before they are deleted. */
const ENDED_RETENTION_MS = 7 * 24 * 60 * 60_000;

export class NavigationSessionHost {
  /** Identifies this process as an owner in the store and as the origin of feed batches. */
  readonly processId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly hosted = new Map<string, Hosted>();
  private readonly watches = new Map<string, Watch>();
  /** Sessions owned here that other processes stream, until when (epoch ms). */
  private readonly feedInterest = new Map<string, number>();
  private readonly writes: GroupCommit<SessionWrite, boolean>;
  private readonly now: () => number;
  private readonly sweepTimer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: SessionHostOptions) {
    this.now = options.now ?? Date.now;
    this.writes = new GroupCommit(
      async (batch) => {
        const written = await options.repository.writeMany(batch);
        return batch.map((write) => written.has(write.id));
      },
      { lingerMs: options.writeLingerMs ?? 0 },
    );
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
  async send(id: string, caller: SessionOwner, body: SessionCommandBody, commandId: string = randomUUID()): Promise<unknown> {
    const command = { ...body, caller, commandId } as SessionCommand;
    const deadline = this.now() + this.options.requestTimeoutMs;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && this.now() < deadline; attempt++) {
      const local = this.hosted.get(id);
      if (local?.actor.isLive) {
        try {
          return await local.actor.handle(command);
        } catch (error) {
          if (error instanceof SessionFencedError) {
            this.lose(id);
            continue;
          }
          throw translateLocal(error) ?? error;
        }
      }
      let message: BusMessage;
      try {
        // Short attempts: an owner killed with the command in flight never answers, and waiting out
        // the whole budget would stall the traveller. A retry reaching a live but busy owner waits in
        // its mailbox and gets the remembered answer (same command id), so it is never applied twice.
        const timeoutMs = Math.max(1, Math.min(ATTEMPT_TIMEOUT_MS, deadline - this.now()));
        const outgoing: SessionCommand = this.watches.has(id) ? { ...command, watcherProcess: this.processId } : command;
        message = await this.options.bus.request(this.options.subjects.navigationSession(id), encodeJson(outgoing), { timeoutMs });
      } catch (error) {
        if (error instanceof BusError && error.code === 'NO_RESPONDERS') {
          await this.takeOver(id, caller);
          continue;
        }
        if (error instanceof BusError && error.code === 'TIMEOUT') continue;
        throw new ApiError('SERVICE_UNAVAILABLE', { message: 'The navigation session cannot be reached; retry the request', details: { sessionId: id, reason: error instanceof BusError ? error.code : 'bus' } });
      }
      const reply = decodeJson<SessionReply>(message.data);
      if (reply.ok) return reply.value;
      if ('stale' in reply) continue;
      throw new ApiError(knownCode(reply.error.code), { message: reply.error.message, ...(reply.error.details ? { details: reply.error.details } : {}) });
    }
    throw new ApiError('SERVICE_UNAVAILABLE', { message: 'The navigation session did not answer in time; retry the request', details: { sessionId: id } });
  }

  /**
   * Streams the session's frames to `listener` (from the local actor or any other process's)
   * until the returned function is called.
   */
  watch(id: string, caller: SessionOwner, listener: FrameListener): () => void {
    let watch = this.watches.get(id);
    if (!watch) {
      const listeners = new Set<FrameListener>();
      const feed = this.options.bus.subscribe(this.options.subjects.navigationSessionFeed(id), (message) => {
        const batch = decodeJson<FeedBatch & { origin: string }>(message.data);
        // frames of this process's own actor were already handed over directly
        if (batch.origin === this.processId) return;
        for (const each of listeners) each(batch.frames);
      });
      // tell a remote owner to publish the feed, now and periodically while watching
      const renew = () => {
        if (!this.hosted.get(id)?.actor.isLive) void this.send(id, caller, { op: 'watch' }).catch(() => undefined);
      };
      const renewal = setInterval(renew, FEED_INTEREST_RENEW_MS);
      renewal.unref();
      watch = { listeners, feed, renewal };
      this.watches.set(id, watch);
      renew();
    }
    watch.listeners.add(listener);
    return () => {
      const current = this.watches.get(id);
      if (!current) return;
      current.listeners.delete(listener);
      if (current.listeners.size === 0) {
        current.feed.unsubscribe();
        clearInterval(current.renewal);
        this.watches.delete(id);
      }
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweepTimer);
    for (const id of [...this.hosted.keys()]) this.drop(id);
    for (const watch of this.watches.values()) {
      watch.feed.unsubscribe();
      clearInterval(watch.renewal);
    }
    this.watches.clear();
  }

  private host(record: SessionRecord): NavigationSessionActor {
    const actor = new NavigationSessionActor(record, {
      planRoute: this.options.planRoute,
      persist: (write) => this.writes.submit(write),
      publish: (sessionId, frames) => this.publish(sessionId, frames),
      ...(this.options.onEvents ? { onEvents: this.options.onEvents } : {}),
      now: this.now,
    });
    const subscription = this.options.bus.subscribe(this.options.subjects.navigationSession(record.id), (message) => this.serve(actor, message));
    this.hosted.set(record.id, { actor, subscription });
    return actor;
  }

  private async serve(actor: NavigationSessionActor, message: BusMessage): Promise<void> {
    const command = decodeJson<SessionCommand>(message.data);
    if (command.watcherProcess !== undefined && command.watcherProcess !== this.processId) this.feedInterest.set(actor.id, this.now() + FEED_INTEREST_MS);
    let reply: SessionReply;
    try {
      reply = { ok: true, value: await actor.handle(command) };
    } catch (error) {
      if (error instanceof SessionFencedError) {
        this.lose(actor.id);
        reply = { ok: false, stale: true };
      } else {
        const translated = translateLocal(error) ?? new ApiError('INTERNAL_ERROR');
        if (translated.statusCode >= 500) this.options.logger.error({ err: error, sessionId: actor.id }, 'navigation session command failed');
        reply = { ok: false, error: { code: translated.code, message: translated.messages, ...(translated.details ? { details: translated.details } : {}) } };
      }
    }
    message.respond(encodeJson(reply));
  }

  private publish(sessionId: string, frames: FeedFrame[]): void {
    for (const listener of this.watches.get(sessionId)?.listeners ?? []) listener(frames);
    if (this.closed || (this.feedInterest.get(sessionId) ?? 0) <= this.now()) return;
    try {
      this.options.bus.publish(this.options.subjects.navigationSessionFeed(sessionId), encodeJson({ sessionId, frames, origin: this.processId }));
    } catch (error) {
      // streams elsewhere catch up from the event log on their next fix; the write itself is durable
      this.options.logger.warn({ err: error, sessionId }, 'navigation feed publish failed');
    }
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
    // streams elsewhere may be watching the session's previous owner: publish until they renew or lapse
    this.feedInterest.set(id, this.now() + FEED_INTEREST_MS);
    this.options.logger.info({ sessionId: id, processId: this.processId }, 'navigation session taken over');
  }

  /** The session was taken over elsewhere. */
  private lose(id: string): void {
    this.drop(id);
    this.options.onLost?.(id);
  }

  private drop(id: string): void {
    this.feedInterest.delete(id);
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
        if ((idle || !actor.isActive) && actor.pending === 0 && !this.watches.has(id)) this.drop(id);
      }
      await this.options.repository.expireIdle(new Date(now));
      await this.options.repository.deleteEndedBefore(new Date(now - ENDED_RETENTION_MS));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'navigation session sweep failed');
    }
  }
}

function knownCode(code: string): ErrorCode {
  return code in errorCodes ? (code as ErrorCode) : 'INTERNAL_ERROR';
}

/** The API error a command failure stands for; undefined for a bug (a 500 with the error logged). */
function translateLocal(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof MailboxFullError) {
    return new ApiError('RATE_LIMITED', { message: 'Too many commands queued for this navigation session; slow down', details: { reason: 'session_mailbox_full' } });
  }
  return undefined;
}
