import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { Logger } from '../../../shared/logger.js';
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
import { assertPublishSubject, assertSubscribePattern } from './subject-pattern.js';

const RECONNECT_WAIT_MS = 1_000;
const PING_TIMEOUT_MS = 2_000;

export interface NatsBusOptions {
  servers: string[];
  name: string;
  logger: Logger;
}

interface Registration {
  subject: string;
  handler: BusHandler;
  options: SubscribeOptions;
  live: Subscription | undefined;
  cancelled: boolean;
}

/**
 * The bus over NATS. The process starts even while NATS is unreachable (the
 * readiness probe says so); subscriptions made before the first connection are
 * attached when it comes, and nats.js re-subscribes after reconnects.
 */
export class NatsBus implements Bus {
  readonly kind = 'nats' as const;
  private connection: NatsConnection | undefined;
  private readonly registrations = new Set<Registration>();
  private readonly connecting: Promise<void>;
  private firstAttemptFailed: () => void = () => {};
  private readonly firstAttempt = new Promise<void>((resolve) => (this.firstAttemptFailed = resolve));
  private closed = false;

  constructor(private readonly options: NatsBusOptions) {
    this.connecting = this.connectForever();
  }

  /**
   * Resolves true once connected; false when the first attempt fails or after
   * `timeoutMs` (the bus keeps trying in the background either way).
   */
  async waitUntilConnected(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([this.connecting, this.firstAttempt, timeout]);
    clearTimeout(timer);
    return this.connection !== undefined;
  }

  /** The connection once it is up, for JetStream (work-queue/jetstream-work-queue.ts); nats.js reconnects it in place. */
  async whenConnected(): Promise<NatsConnection> {
    await this.connecting;
    return this.live();
  }

  publish(subject: string, data: Uint8Array): void {
    assertPublishSubject(subject);
    this.live().publish(subject, data);
  }

  subscribe(subject: string, handler: BusHandler, options: SubscribeOptions = {}): BusSubscription {
    if (this.closed) throw new BusError('CLOSED', 'bus is closed');
    assertSubscribePattern(subject);
    const registration: Registration = { subject, handler, options, live: undefined, cancelled: false };
    this.registrations.add(registration);
    if (this.connection) this.attach(this.connection, registration);
    return {
      subject,
      unsubscribe: () => {
        registration.cancelled = true;
        registration.live?.unsubscribe();
        this.registrations.delete(registration);
      },
    };
  }

  async request(subject: string, data: Uint8Array, options: RequestOptions = {}): Promise<BusMessage> {
    assertPublishSubject(subject);
    const connection = this.live();
    try {
      const reply = await connection.request(subject, data, { timeout: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS });
      return { subject: reply.subject, data: reply.data, expectsReply: false, respond: () => {} };
    } catch (error) {
      throw translateRequestError(error, subject);
    }
  }

  async flush(): Promise<void> {
    await this.live().flush();
  }

  async ping(): Promise<void> {
    const connection = this.live();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BusError('TIMEOUT', 'NATS ping timed out')), PING_TIMEOUT_MS);
    });
    try {
      await Promise.race([connection.rtt(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = undefined;
    if (connection && !connection.isClosed()) await connection.drain().catch(() => connection.close());
  }

  private live(): NatsConnection {
    if (this.closed) throw new BusError('CLOSED', 'bus is closed');
    if (!this.connection || this.connection.isClosed()) throw new BusError('UNAVAILABLE', 'NATS is not connected');
    return this.connection;
  }

  private async connectForever(): Promise<void> {
    let attempt = 0;
    while (!this.closed) {
      try {
        const connection = await connect({
          servers: this.options.servers,
          name: this.options.name,
          maxReconnectAttempts: -1,
          reconnectTimeWait: RECONNECT_WAIT_MS,
        });
        if (this.closed) {
          await connection.close();
          return;
        }
        this.connection = connection;
        for (const registration of this.registrations) this.attach(connection, registration);
        this.options.logger.info({ servers: this.options.servers }, 'bus connected to NATS');
        return;
      } catch (error) {
        this.firstAttemptFailed();
        if (attempt++ % 10 === 0) this.options.logger.warn({ err: (error as Error).message }, 'NATS unavailable; retrying');
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_WAIT_MS).unref());
      }
    }
  }

  private attach(connection: NatsConnection, registration: Registration): void {
    if (registration.cancelled || registration.live) return;
    const subscribeOptions = registration.options.queue ? { queue: registration.options.queue } : {};
    registration.live = connection.subscribe(registration.subject, {
      ...subscribeOptions,
      callback: (error, message) => {
        if (error) {
          this.options.logger.error({ err: error.message, subject: registration.subject }, 'subscription failed');
          return;
        }
        const delivered: BusMessage = {
          subject: message.subject,
          data: message.data,
          expectsReply: Boolean(message.reply),
          respond: (answer) => {
            if (message.reply) message.respond(answer);
          },
        };
        try {
          const result = registration.handler(delivered);
          if (result instanceof Promise) result.catch((failure) => this.logHandlerError(failure, message.subject));
        } catch (failure) {
          this.logHandlerError(failure, message.subject);
        }
      },
    });
  }

  private logHandlerError(error: unknown, subject: string): void {
    this.options.logger.error({ err: error, subject }, 'bus handler failed');
  }
}

function translateRequestError(error: unknown, subject: string): Error {
  if (error instanceof BusError) return error;
  const name = (error as Error | undefined)?.name ?? '';
  const noResponders =
    name === 'NoRespondersError' ||
    (typeof (error as { isNoResponders?: () => boolean }).isNoResponders === 'function' &&
      (error as { isNoResponders: () => boolean }).isNoResponders());
  if (noResponders) return new BusError('NO_RESPONDERS', `no responders on ${subject}`);
  if (name === 'TimeoutError' || (error as { cause?: { name?: string } }).cause?.name === 'TimeoutError') {
    return new BusError('TIMEOUT', `request to ${subject} timed out`);
  }
  if (name === 'ClosedConnectionError' || name === 'DrainingConnectionError') return new BusError('CLOSED', 'NATS connection closed');
  return error as Error;
}
