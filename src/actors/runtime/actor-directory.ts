/**
 * Where the actors of one kind live (navigation sessions, fleets): this
 * process's actors and their bus subscriptions, commands routed to whichever
 * process owns an actor (owner-routing.ts), takeover of an actor nobody serves
 * (load it, claim it with a fenced revision write, serve it here), and the
 * actors' feeds for streams in any process (actor-feed.ts).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { ActorFeed, type FrameListener } from './actor-feed.js';
import type { Exchange, ReplyTo } from './actor-protocol.js';
import type { Bus, BusSubscription } from './bus/bus.js';
import { sendToOwner, serveOwnerCommand, type ActorOwner, type CommandEnvelope, type CommandHandler, type OwnedActorKind } from './owner-routing.js';

export type { ActorOwner };

/** An actor of protocol `X`, its commands sent in envelope `E`. */
export interface DirectoryActor<X extends Exchange, E extends CommandEnvelope> extends CommandHandler<X, E> {
  readonly isLive: boolean;
  retire(): void;
}

/** What a takeover needs of a stored entity. */
export interface OwnedRecord {
  owner: ActorOwner;
  revision: number;
}

export interface ActorDirectoryOptions<A, R extends OwnedRecord, X extends Exchange, E extends CommandEnvelope> {
  bus: Bus;
  logger: Logger;
  now: () => number;
  commandSubject(id: string): string;
  feedSubject(id: string): string;
  /** Names the kind in messages ("navigation session") and in error details ({ sessionId }). */
  what: string;
  idField: string;
  /** `details.reason` when an actor's mailbox is full. */
  busyReason: string;
  requestTimeoutMs: number;
  /** The actor's write was fenced (it belongs to another process now). */
  isFenced(error: unknown): boolean;
  load(id: string): Promise<R | undefined>;
  /** Fenced claim: the new revision, or undefined when another process wrote first. */
  claim(id: string, revision: number, processId: string): Promise<number | undefined>;
  createActor(record: R, directory: { publish(id: string, frames: unknown[]): void }): A;
  /** The actor was taken over elsewhere: stop this process's side work on it. */
  onLost?(id: string): void;
  /** A command that only says "this process streams the actor" (renews the owner's feed). */
  watchCommand(caller: ActorOwner): X['command'] & E;
}

interface Hosted<A> {
  actor: A;
  subscription: BusSubscription;
}

/**
 * The actors of one kind: `A` the actor, `R` its stored record, `X` its protocol (commands and their
 * replies, sent in envelope `E`), `F` the frames it publishes for streams.
 */
export class ActorDirectory<A extends DirectoryActor<X, E>, R extends OwnedRecord, X extends Exchange, E extends CommandEnvelope, F> {
  /** Identifies this process as an owner in the store and as the origin of feed batches. */
  readonly processId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly hosted = new Map<string, Hosted<A>>();
  private readonly feed: ActorFeed<F>;
  private readonly kind: OwnedActorKind<X, E>;
  /** Who watches each actor streamed here (the caller renewing interest with a remote owner). */
  private readonly watchers = new Map<string, ActorOwner>();

  constructor(private readonly options: ActorDirectoryOptions<A, R, X, E>) {
    this.feed = new ActorFeed({
      bus: options.bus,
      subjectOf: options.feedSubject,
      origin: this.processId,
      logger: options.logger,
      now: options.now,
      renewInterest: (id) => {
        const caller = this.watchers.get(id);
        if (caller && !this.kind.local(id)) void this.send(id, options.watchCommand(caller)).catch(() => undefined);
      },
    });
    this.kind = {
      bus: options.bus,
      subjectOf: options.commandSubject,
      local: (id) => {
        const actor = this.hosted.get(id)?.actor;
        return actor?.isLive ? actor : undefined;
      },
      isFenced: options.isFenced,
      lose: (id) => {
        this.drop(id);
        options.onLost?.(id);
      },
      outgoing: (id, command) => (this.feed.isWatched(id) ? { ...command, watcherProcess: this.processId } : command),
      received: (id, command) => this.feed.noteInterest(id, command.watcherProcess),
      takeOver: (id, command) => this.takeOver(id, command.caller),
      what: options.what,
      detailsOf: (id) => ({ [options.idField]: id }),
      busyReason: options.busyReason,
      logger: options.logger,
      now: options.now,
    };
  }

  /** Another process owns `id` now (found by a fenced write outside a command): let it go, as a command would. */
  lose(id: string): void {
    this.kind.lose(id);
  }

  /** This process's actors, for sweeps. */
  actors(): [string, A][] {
    return [...this.hosted].map(([id, hosted]) => [id, hosted.actor]);
  }

  /** Starts serving `record`'s actor here (a new entity, or one just claimed). */
  host(record: R & { id: string }): A {
    const actor = this.options.createActor(record, { publish: (id, frames) => this.feed.publish(id, frames as F[]) });
    const subscription = this.options.bus.subscribe(this.options.commandSubject(record.id), (message) => serveOwnerCommand(this.kind, record.id, actor, message));
    this.hosted.set(record.id, { actor, subscription });
    return actor;
  }

  /** Runs a command on the actor wherever it lives; answers its reply or throws ApiError. */
  send<B extends X['command']>(id: string, command: B & E): Promise<ReplyTo<X, B>> {
    return sendToOwner(this.kind, id, command, this.options.requestTimeoutMs);
  }

  /**
   * Streams the actor's frames (from this process or any other) to `listener` until the returned
   * function is called; `caller` (the actor's owner) renews the feed with a remote owner.
   */
  watch(id: string, caller: ActorOwner, listener: FrameListener<F>): () => void {
    if (!this.watchers.has(id)) this.watchers.set(id, caller);
    const unwatch = this.feed.watch(id, listener);
    return () => {
      unwatch();
      if (!this.feed.isWatched(id)) this.watchers.delete(id);
    };
  }

  isWatched(id: string): boolean {
    return this.feed.isWatched(id);
  }

  drop(id: string): void {
    this.feed.forget(id);
    const hosted = this.hosted.get(id);
    if (!hosted) return;
    hosted.actor.retire();
    hosted.subscription.unsubscribe();
    this.hosted.delete(id);
  }

  close(): void {
    for (const id of [...this.hosted.keys()]) this.drop(id);
    this.feed.close();
  }

  /**
   * Nobody serves the actor: load it and claim it. Another process claiming at the same
   * moment wins or loses on the revision; the loser simply sends to the winner next.
   */
  private async takeOver(id: string, caller: ActorOwner): Promise<void> {
    const record = await this.options.load(id);
    if (!record) throw new ApiError('NOT_FOUND', { message: `${capitalized(this.options.what)} not found`, details: { [this.options.idField]: id } });
    if (record.owner.kind !== caller.kind || record.owner.id !== caller.id) {
      throw new ApiError('FORBIDDEN', { message: `This ${this.options.what} belongs to another caller` });
    }
    if (this.hosted.get(id)?.actor.isLive) return;
    const revision = await this.options.claim(id, record.revision, this.processId);
    if (revision === undefined) {
      // lost the race; give the winner a moment to subscribe
      await new Promise((resolve) => setTimeout(resolve, 20));
      return;
    }
    this.host({ ...record, id, revision });
    this.feed.assumeInterest(id);
    this.options.logger.info({ [this.options.idField]: id, processId: this.processId }, `${this.options.what} taken over`);
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
