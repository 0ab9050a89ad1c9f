/** A message delivered to a subscriber. */
export interface BusMessage {
  readonly subject: string;
  readonly data: Uint8Array;
  /** True when the sender waits for an answer (request/reply). */
  readonly expectsReply: boolean;
  /** Answers a request; a no-op for plain publishes. */
  respond(data: Uint8Array): void;
}

export type BusHandler = (message: BusMessage) => void | Promise<void>;

export interface SubscribeOptions {
  /** Members of one queue group share the subject's messages: each goes to one member only. */
  queue?: string;
}

export interface BusSubscription {
  readonly subject: string;
  unsubscribe(): void;
}

export interface RequestOptions {
  /** How long to wait for the reply; default DEFAULT_REQUEST_TIMEOUT_MS. */
  timeoutMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;

export type BusErrorCode = 'NO_RESPONDERS' | 'TIMEOUT' | 'UNAVAILABLE' | 'CLOSED';

/** Typed bus failure, so callers branch on `code`, never on message text. */
export class BusError extends Error {
  constructor(
    readonly code: BusErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BusError';
  }
}

/**
 * Subject-addressed messaging between processes: NATS in production, an
 * in-process implementation with identical semantics on the embedded default.
 * Subjects are dot-separated tokens; `*` matches one token, `>` the rest.
 */
export interface Bus {
  readonly kind: 'nats' | 'memory';
  publish(subject: string, data: Uint8Array): void;
  subscribe(subject: string, handler: BusHandler, options?: SubscribeOptions): BusSubscription;
  /** Sends to one responder and resolves with its answer; rejects with BusError. */
  request(subject: string, data: Uint8Array, options?: RequestOptions): Promise<BusMessage>;
  /** Resolves once everything published so far has reached the server (no-op in process). */
  flush(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function decodeJson<T>(data: Uint8Array): T {
  return JSON.parse(decoder.decode(data)) as T;
}
