/**
 * The in-process work queue of the embedded default: the same contract as
 * JetStream's within one process. What is queued lives in memory, so the
 * owner re-enqueues what its own records still show unfinished at start
 * (trip-ingestion.ts does, from its SQL rows).
 */
import type { WorkHandler, WorkItem, WorkQueue, WorkQueueOptions } from './work-queue.js';

export class MemoryWorkQueue implements WorkQueue {
  readonly kind = 'memory' as const;
  private readonly waiting: { id: string; deliveries: number }[] = [];
  /** Ids queued or delivered and not yet acknowledged (an enqueue of one of them is a duplicate). */
  private readonly known = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private handler: WorkHandler | undefined;
  private concurrency = 1;
  private closed = false;

  constructor(private readonly options: WorkQueueOptions) {}

  async enqueue(id: string): Promise<void> {
    if (this.closed || this.known.has(id)) return;
    this.known.add(id);
    this.waiting.push({ id, deliveries: 0 });
    this.deliver();
  }

  consume(handler: WorkHandler, options: { concurrency: number }): void {
    this.handler = handler;
    this.concurrency = Math.max(1, options.concurrency);
    this.deliver();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.allSettled([...this.running]);
  }

  private deliver(): void {
    while (!this.closed && this.handler && this.running.size < this.concurrency && this.waiting.length) {
      const entry = this.waiting.shift()!;
      entry.deliveries++;
      let settled = false;
      // the ack wait: a handler that neither acks nor retries in time has its item delivered again
      const expiry = setTimeout(() => settle(() => this.requeue(entry, 0)), this.options.ackWaitMs);
      expiry.unref();
      const settle = (then: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(expiry);
        then();
      };
      const item: WorkItem = {
        id: entry.id,
        deliveries: entry.deliveries,
        ack: async () => settle(() => this.known.delete(entry.id)),
        retry: (delayMs) => settle(() => this.requeue(entry, delayMs)),
      };
      const work = this.handler(item)
        .catch(() => settle(() => this.requeue(entry, 0)))
        .finally(() => {
          this.running.delete(work);
          this.deliver();
        });
      this.running.add(work);
    }
  }

  private requeue(entry: { id: string; deliveries: number }, delayMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.waiting.push(entry);
      this.deliver();
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }
}
