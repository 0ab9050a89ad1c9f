/**
 * The work queue on JetStream: a stream with work-queue retention (an item is
 * removed when acknowledged), file storage, one subject, and one durable pull
 * consumer shared by every process (each item goes to one of them). Items are
 * published with their id as the message id, so an enqueue repeated within
 * the duplicate window is one item. An item its consumer did not acknowledge
 * within the ack wait (the process died, or hangs) is delivered again, to any
 * process; there is no limit on deliveries: the owner decides when to give up.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType, type Consumer, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import type { Logger } from '../../../shared/logger.js';
import type { WorkHandler, WorkQueue, WorkQueueOptions } from './work-queue.js';

/** Repeated enqueues of one id within this window are one message (JetStream's default is also 2 minutes). */
const DUPLICATE_WINDOW_MS = 2 * 60_000;
/** How long one pull waits for items before asking again (the loop also notices `close` this often). */
const PULL_EXPIRES_MS = 5_000;
/** Pause after a failed pull (NATS away): the loop keeps trying. */
const RETRY_PULL_MS = 1_000;
/**
 * Longest an enqueue waits for NATS (its first connection included): past it the caller goes on without the
 * queue (the item is durable elsewhere and a sweep queues it again), never hangs while NATS is unreachable.
 */
const ENQUEUE_TIMEOUT_MS = 2_000;

const nanos = (ms: number) => ms * 1_000_000;

export interface JetStreamWorkQueueOptions extends WorkQueueOptions {
  /** The bus's connection once it is up (nats.js reconnects it in place). */
  connection: () => Promise<NatsConnection>;
  /** The stream's only subject (built in actors/runtime/subjects.ts). */
  subject: string;
  logger: Logger;
}

export class JetStreamWorkQueue implements WorkQueue {
  readonly kind = 'jetstream' as const;
  private readonly stream: string;
  private ready: Promise<{ js: JetStreamClient; consumer: Consumer }> | undefined;
  private readonly running = new Set<Promise<void>>();
  private pulling: Promise<void> | undefined;
  private closed = false;
  private slotFreed: (() => void) | undefined;
  /** Settles on close: a pull still waiting for NATS's first connection stops waiting then. */
  private readonly closing: Promise<void>;
  private markClosed!: () => void;

  constructor(private readonly options: JetStreamWorkQueueOptions) {
    this.stream = options.name;
    this.closing = new Promise((resolve) => (this.markClosed = resolve));
  }

  async enqueue(id: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`work queue ${this.stream}: NATS did not take the item within ${ENQUEUE_TIMEOUT_MS} ms`)), ENQUEUE_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.setUp().then(({ js }) => js.publish(this.options.subject, new TextEncoder().encode(id), { msgID: id })), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  consume(handler: WorkHandler, options: { concurrency: number }): void {
    this.pulling ??= this.pull(handler, Math.max(1, options.concurrency));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.markClosed();
    this.slotFreed?.();
    await this.pulling?.catch(() => undefined);
    await Promise.allSettled([...this.running]);
  }

  /** The stream and the durable consumer, created (or kept as they are) once per process. */
  private setUp(): Promise<{ js: JetStreamClient; consumer: Consumer }> {
    this.ready ??= (async () => {
      const connection = await this.options.connection();
      const manager = await jetstreamManager(connection);
      const config = { name: this.stream, subjects: [this.options.subject], retention: RetentionPolicy.Workqueue, storage: StorageType.File, duplicate_window: nanos(DUPLICATE_WINDOW_MS) };
      await manager.streams.add(config).catch(async () => manager.streams.update(this.stream, config));
      const consumerConfig = { durable_name: 'workers', ack_policy: AckPolicy.Explicit, ack_wait: nanos(this.options.ackWaitMs), deliver_policy: DeliverPolicy.All, max_deliver: -1 };
      await manager.consumers.add(this.stream, consumerConfig).catch(async () => manager.consumers.update(this.stream, 'workers', { ack_wait: consumerConfig.ack_wait }));
      const js = jetstream(connection);
      return { js, consumer: await js.consumers.get(this.stream, 'workers') };
    })();
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  private async pull(handler: WorkHandler, concurrency: number): Promise<void> {
    while (!this.closed) {
      try {
        if (this.running.size >= concurrency) {
          await new Promise<void>((resolve) => (this.slotFreed = resolve));
          continue;
        }
        const ready = await Promise.race([this.setUp(), this.closing]);
        if (!ready) return;
        const { consumer } = ready;
        const batch = await consumer.fetch({ max_messages: concurrency - this.running.size, expires: PULL_EXPIRES_MS });
        for await (const message of batch) this.launch(handler, message);
      } catch (error) {
        if (this.closed) return;
        this.options.logger.warn({ err: (error as Error).message, stream: this.stream }, 'work queue pull failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, RETRY_PULL_MS).unref());
      }
    }
  }

  private launch(handler: WorkHandler, message: JsMsg): void {
    let settled = false;
    const work = handler({
      id: new TextDecoder().decode(message.data),
      deliveries: message.info.deliveryCount,
      ack: async () => {
        if (settled) return;
        settled = true;
        // confirmed by the server: an ack lost on the way would redeliver work already committed (harmless, but wasted)
        await message.ackAck();
      },
      retry: (delayMs) => {
        if (settled) return;
        settled = true;
        message.nak(delayMs);
      },
    })
      .catch((error: unknown) => {
        this.options.logger.warn({ err: error, stream: this.stream }, 'work item failed; delivered again');
        if (!settled) message.nak(RETRY_PULL_MS);
      })
      .finally(() => {
        this.running.delete(work);
        const freed = this.slotFreed;
        this.slotFreed = undefined;
        freed?.();
      });
    this.running.add(work);
  }
}
