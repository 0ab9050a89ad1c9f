/**
 * The frames an actor publishes for streams, wherever they are: listeners in
 * this process get them directly, every other process through the actor's
 * feed subject. One subscription per watched actor, however many sockets
 * watch it.
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
}

export class ActorFeed<F> {
  private readonly watches = new Map<string, Watch<F>>();
  private closed = false;

  constructor(
    private readonly options: {
      bus: Bus;
      /** The feed subject of actor `id` (built in subjects.ts). */
      subjectOf: (id: string) => string;
      /** This process's id. */
      origin: string;
      logger: Logger;
    },
  ) {}

  isWatched(id: string): boolean {
    return this.watches.has(id);
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
      watch = { listeners, feed };
      this.watches.set(id, watch);
    }
    watch.listeners.add(listener);
    return () => {
      const current = this.watches.get(id);
      if (!current) return;
      current.listeners.delete(listener);
      if (current.listeners.size === 0) {
        current.feed.unsubscribe();
        this.watches.delete(id);
      }
    };
  }

  /** Hands frames of a local actor to this process's listeners and to every other process. */
  publish(id: string, frames: F[]): void {
    for (const listener of this.watches.get(id)?.listeners ?? []) listener(frames);
    if (this.closed) return;
    try {
      this.options.bus.publish(this.options.subjectOf(id), encodeJson({ id, frames, origin: this.options.origin } satisfies FeedBatch<F>));
    } catch (error) {
      // streams elsewhere catch up from the store on their next read; the write itself is durable
      this.options.logger.warn({ err: error, id }, 'actor feed publish failed');
    }
  }

  close(): void {
    this.closed = true;
    for (const watch of this.watches.values()) watch.feed.unsubscribe();
    this.watches.clear();
  }
}
