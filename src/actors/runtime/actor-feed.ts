/**
 * The frames an actor publishes for streams, wherever they are: listeners in
 * this process get them directly, every other process through the actor's
 * feed subject. One subscription per watched actor, however many sockets
 * watch it. The owner publishes on the bus only while another process has
 * said, lately, that it streams the actor (most actors are streamed by the
 * process that owns them, and a publish nobody reads still costs both ends).
 */
import { decodeJson, encodeJson, type Bus, type BusSubscription } from './bus/bus.js';
import type { Logger } from '../../shared/logger.js';

export type FrameListener<F> = (frames: F[]) => void;

interface FeedBatch<F> {
  id: string;
  frames: F[];
  /** The publishing process: it skips its own batches (its listeners already have them). */
  origin: string;
}

interface Watch<F> {
  listeners: Set<FrameListener<F>>;
  feed: BusSubscription;
  /** Renews this process's interest with a remote owner. */
  renewal: NodeJS.Timeout;
}

/** How long (ms) an owner keeps publishing after another process said it streams the actor. */
export const FEED_INTEREST_MS = 60_000;
/** A watching process renews its interest this often (ms), well inside FEED_INTEREST_MS. */
const FEED_INTEREST_RENEW_MS = 20_000;

export class ActorFeed<F> {
  private readonly watches = new Map<string, Watch<F>>();
  /** Actors owned here that other processes stream, until when (epoch ms). */
  private readonly interest = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly options: {
      bus: Bus;
      /** The feed subject of actor `id` (built in subjects.ts). */
      subjectOf: (id: string) => string;
      /** This process's id. */
      origin: string;
      logger: Logger;
      now: () => number;
      /** Tells actor `id`'s owner (when another process) that this process streams it. */
      renewInterest: (id: string) => void;
    },
  ) {}

  isWatched(id: string): boolean {
    return this.watches.has(id);
  }

  /** Another process streams actor `id` (owned here): publish its frames on the bus for a while. */
  noteInterest(id: string, processId: string | undefined): void {
    if (processId !== undefined && processId !== this.options.origin) this.interest.set(id, this.options.now() + FEED_INTEREST_MS);
  }

  /** After a takeover: streams elsewhere may be watching the previous owner; publish until they renew or lapse. */
  assumeInterest(id: string): void {
    this.interest.set(id, this.options.now() + FEED_INTEREST_MS);
  }

  forget(id: string): void {
    this.interest.delete(id);
  }

  /** Streams actor `id`'s frames to `listener` until the returned function is called. */
  watch(id: string, listener: FrameListener<F>): () => void {
    let watch = this.watches.get(id);
    if (!watch) {
      const listeners = new Set<FrameListener<F>>();
      const feed = this.options.bus.subscribe(this.options.subjectOf(id), (message) => {
        const batch = decodeJson<FeedBatch<F>>(message.data);
        if (batch.origin === this.options.origin) return;
        for (const each of listeners) each(batch.frames);
      });
      const renewal = setInterval(() => this.options.renewInterest(id), FEED_INTEREST_RENEW_MS);
      renewal.unref();
      watch = { listeners, feed, renewal };
      this.watches.set(id, watch);
      this.options.renewInterest(id);
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

  /** Hands frames of a local actor to this process's listeners and to every other process. */
  publish(id: string, frames: F[]): void {
    for (const listener of this.watches.get(id)?.listeners ?? []) listener(frames);
    if (this.closed || (this.interest.get(id) ?? 0) <= this.options.now()) return;
    try {
      this.options.bus.publish(this.options.subjectOf(id), encodeJson({ id, frames, origin: this.options.origin } satisfies FeedBatch<F>));
    } catch (error) {
      // streams elsewhere catch up from the store on their next read; the write itself is durable
      this.options.logger.warn({ err: error, id }, 'actor feed publish failed');
    }
  }

  close(): void {
    this.closed = true;
    for (const watch of this.watches.values()) {
      watch.feed.unsubscribe();
      clearInterval(watch.renewal);
    }
    this.watches.clear();
  }
}
