import {
  BusError,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type Bus,
  type BusHandler,
  type BusMessage,
  type BusSubscription,
  type RequestOptions,
  type SubscribeOptions,
} from './bus.js';
import { assertPublishSubject, assertSubscribePattern, subjectMatches } from './subject-pattern.js';

interface Subscriber {
  pattern: string;
  handler: BusHandler;
  queue: string | undefined;
}

/**
 * The in-process bus of the embedded default. Delivery is asynchronous (a
 * microtask later), as over the network, so code that works here does not rely
 * on synchronous delivery that NATS would not give it.
 */
export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  /**
   * Subscribers of exact subjects by subject, and the wildcard ones in a list: per-entity
   * subjects (one per navigation session) number in the thousands, and every message must
   * find its few subscribers without scanning them all.
   */
  private exact = new Map<string, Subscriber[]>();
  private wildcard: Subscriber[] = [];
  /** Round-robin position per queue group, so members share the load like NATS does. */
  private readonly queueCursor = new Map<string, number>();
  private closed = false;

  constructor(private readonly onHandlerError: (error: unknown, subject: string) => void = () => {}) {}

  publish(subject: string, data: Uint8Array): void {
    this.deliver(subject, data, undefined);
  }

  subscribe(subject: string, handler: BusHandler, options: SubscribeOptions = {}): BusSubscription {
    this.assertOpen();
    assertSubscribePattern(subject);
    const subscriber: Subscriber = { pattern: subject, handler, queue: options.queue };
    const isWildcard = subject.split('.').some((token) => token === '*' || token === '>');
    if (isWildcard) this.wildcard.push(subscriber);
    else this.exact.set(subject, [...(this.exact.get(subject) ?? []), subscriber]);
    let active = true;
    return {
      subject,
      unsubscribe: () => {
        if (!active) return;
        active = false;
        if (isWildcard) {
          this.wildcard = this.wildcard.filter((candidate) => candidate !== subscriber);
          return;
        }
        const remaining = (this.exact.get(subject) ?? []).filter((candidate) => candidate !== subscriber);
        if (remaining.length > 0) this.exact.set(subject, remaining);
        else this.exact.delete(subject);
      },
    };
  }

  request(subject: string, data: Uint8Array, options: RequestOptions = {}): Promise<BusMessage> {
    return new Promise<BusMessage>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        reject(new BusError('TIMEOUT', `request to ${subject} timed out`));
      }, options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
      const delivered = this.deliver(subject, data, (reply) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(reply);
      });
      if (delivered === 0) {
        settled = true;
        clearTimeout(timer);
        reject(new BusError('NO_RESPONDERS', `no responders on ${subject}`));
      }
    });
  }

  async flush(): Promise<void> {
    this.assertOpen();
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.exact = new Map();
    this.wildcard = [];
  }

  /** Returns how many subscribers the message was handed to. */
  private deliver(subject: string, data: Uint8Array, replyTo: ((reply: BusMessage) => void) | undefined): number {
    this.assertOpen();
    assertPublishSubject(subject);
    const targets = this.pickTargets(subject);
    for (const target of targets) {
      const message: BusMessage = {
        subject,
        data,
        expectsReply: replyTo !== undefined,
        respond: (answer) => replyTo?.({ subject, data: answer, expectsReply: false, respond: () => {} }),
      };
      queueMicrotask(() => {
        try {
          const result = target.handler(message);
          if (result instanceof Promise) result.catch((error) => this.onHandlerError(error, subject));
        } catch (error) {
          this.onHandlerError(error, subject);
        }
      });
    }
    return targets.length;
  }

  private pickTargets(subject: string): Subscriber[] {
    const plain: Subscriber[] = [];
    const groups = new Map<string, Subscriber[]>();
    const candidates = this.exact.get(subject) ?? [];
    const matching = this.wildcard.length === 0 ? candidates : [...candidates, ...this.wildcard.filter((subscriber) => subjectMatches(subscriber.pattern, subject))];
    for (const subscriber of matching) {
      if (subscriber.queue === undefined) plain.push(subscriber);
      else {
        // As in NATS, a queue group is the pair (subscription subject, queue name).
        const group = `${subscriber.pattern} ${subscriber.queue}`;
        groups.set(group, [...(groups.get(group) ?? []), subscriber]);
      }
    }
    for (const [queue, members] of groups) {
      const cursor = this.queueCursor.get(queue) ?? 0;
      plain.push(members[cursor % members.length]!);
      this.queueCursor.set(queue, cursor + 1);
    }
    return plain;
  }

  private assertOpen(): void {
    if (this.closed) throw new BusError('CLOSED', 'bus is closed');
  }
}
