/**
 * A durable work queue: items (ids) are taken by one consumer at a time and
 * stay queued until that consumer acknowledges them. JetStream in production
 * (a work-queue stream and a durable pull consumer: an item whose consumer
 * died unacknowledged is delivered again after the ack wait), an in-process
 * queue on the embedded default. Consumers must tolerate an item delivered
 * twice (a redelivery after a slow, not dead, consumer; a re-enqueue).
 */

/** One delivered item. */
export interface WorkItem {
  readonly id: string;
  /** 1 on the first delivery, more on redeliveries. */
  readonly deliveries: number;
  /** Done: the item leaves the queue. Call only after the work is committed. */
  ack(): Promise<void>;
  /** Not done: deliver it again (to any consumer) after `delayMs`. */
  retry(delayMs: number): void;
}

export type WorkHandler = (item: WorkItem) => Promise<void>;

export interface WorkQueue {
  readonly kind: 'jetstream' | 'memory';
  /** Resolves once the item is durably queued (JetStream: the stream's acknowledgement). Same id twice: one item. */
  enqueue(id: string): Promise<void>;
  /** Delivers items to `handler`, at most `concurrency` unacknowledged at once in this process. */
  consume(handler: WorkHandler, options: { concurrency: number }): void;
  /** Stops taking items and waits for the handlers running. */
  close(): Promise<void>;
}

export interface WorkQueueOptions {
  /** Names the queue (stream and consumer names derive from it); `[A-Za-z0-9_-]`. */
  name: string;
  /** An item delivered and neither acknowledged nor retried within this long is delivered again. */
  ackWaitMs: number;
}
