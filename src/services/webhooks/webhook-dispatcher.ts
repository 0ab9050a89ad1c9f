import { setTimeout as wait } from 'node:timers/promises';
import type { Logger } from '../../shared/logger.js';
import type { WebhookAttemptRecord, WebhookDeliveryProgress } from '../../store/pg/webhook-deliveries.js';
import { DeliverySlots } from './delivery-slots.js';
import { postWebhook } from './webhook-http.js';
import type { WebhookAttemptObserver } from './webhook-metrics.js';
import { DEFAULT_WEBHOOK_RETRY, decideRetry, dispositionOfStatus, type AttemptDisposition, type WebhookRetryOptions } from './webhook-retry-policy.js';
import { signWebhook } from './webhook-signature.js';
import type { WebhookTargetResolution, WebhookUrlPolicy } from './webhook-url-guard.js';

/** Budget of one attempt (DNS, connect, TLS, response headers): 10 s. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
/** Deliveries in flight at once across all sessions. */
export const DEFAULT_MAX_CONCURRENT_DELIVERIES = 32;
/** Response bytes read (and discarded) before the connection is cut: 64 KiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
/** Wait before a queue tries again after its database read or write failed. */
export const DEFAULT_STORE_RETRY_DELAY_MS = 5_000;
export const WEBHOOK_USER_AGENT = 'LocationPlatform-Webhooks/1.0';
/** Events read from the outbox at a time. */
const EVENTS_PER_READ = 50;

/** One event to deliver: a navigation event, or any stream's event of the same shape (geofences). */
export interface OutboxEvent {
  seq: number;
  type: string;
  at: string;
  data: Record<string, unknown>;
}

/** The stream's event log, read as the outbox (NavigationSessionRepository, GeofenceRepository). */
export interface WebhookOutbox {
  eventsSince(sessionId: string, afterSeq: number, limit: number): Promise<OutboxEvent[]>;
}

/** The delivery log (WebhookDeliveryRepository). */
export interface WebhookDeliveryLog {
  record(attempt: WebhookAttemptRecord): Promise<void>;
  progress(sessionId: string): Promise<WebhookDeliveryProgress>;
}

/** Where a session's events go. `secret` is `deriveWebhookSecret(masterKey, sessionId)`. */
export interface WebhookTarget {
  sessionId: string;
  url: string;
  secret: string;
}

export interface WebhookDispatcherOptions {
  outbox: WebhookOutbox;
  deliveryLog: WebhookDeliveryLog;
  urlPolicy: WebhookUrlPolicy;
  logger?: Logger;
  /** Overrides of DEFAULT_WEBHOOK_RETRY (8 attempts within 1 h, backoff from 5 s). */
  retry?: Partial<WebhookRetryOptions>;
  /** Default DEFAULT_ATTEMPT_TIMEOUT_MS (10 s). */
  attemptTimeoutMs?: number;
  /** Default DEFAULT_MAX_CONCURRENT_DELIVERIES (32). */
  maxConcurrentDeliveries?: number;
  /** Default DEFAULT_MAX_RESPONSE_BYTES (64 KiB). */
  maxResponseBytes?: number;
  /** Default DEFAULT_STORE_RETRY_DELAY_MS (5 s). */
  storeRetryDelayMs?: number;
  userAgent?: string;
  /** Called after every attempt (metrics: registerWebhookMetrics). */
  observeAttempt?: WebhookAttemptObserver;
  /** Jitter source in [0, 1); default Math.random. */
  random?: () => number;
  /** The body's field naming the stream: `sessionId` (default, navigation) or `geofenceId`. */
  streamField?: string;
}

interface SessionQueue {
  target: WebhookTarget;
  readonly controller: AbortController;
  /** A notify() arrived while the outbox was being read: read again before retiring. */
  wakeRequested: boolean;
  /**
   * Set when an event was given up because the endpoint stayed unreachable;
   * later events then get one attempt each until one is delivered, so a dead
   * endpoint does not hold every later event for an hour.
   */
  endpointDown: boolean;
  running: Promise<void>;
}

interface AttemptResult {
  disposition: AttemptDisposition;
  httpStatus: number | null;
  error: string | null;
  retryAfterMs?: number;
}

/**
 * Delivers each navigation session's events to its webhook, one at a time in
 * seq order, at least once. A session's queue exists only while it has
 * something to deliver; its position is the delivery log, so a new process
 * picks up after the last delivered or given-up event. Receivers dedupe
 * redeliveries (after a crash mid-attempt) by the `webhook-id` header.
 */
export class WebhookDispatcher {
  private readonly queues = new Map<string, SessionQueue>();
  private readonly slots: DeliverySlots;
  private readonly retry: WebhookRetryOptions;
  private readonly attemptTimeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly storeRetryDelayMs: number;
  private readonly userAgent: string;
  private readonly random: () => number;
  private closed = false;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.slots = new DeliverySlots(options.maxConcurrentDeliveries ?? DEFAULT_MAX_CONCURRENT_DELIVERIES);
    this.retry = { ...DEFAULT_WEBHOOK_RETRY, ...options.retry };
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.storeRetryDelayMs = options.storeRetryDelayMs ?? DEFAULT_STORE_RETRY_DELAY_MS;
    this.userAgent = options.userAgent ?? WEBHOOK_USER_AGENT;
    this.random = options.random ?? Math.random;
  }

  /**
   * New events are committed for this session: deliver everything after the
   * last settled one. Call after the events' transaction commits; cheap to
   * call often (a running queue just reads again). A changed url or secret
   * applies from the next attempt.
   */
  notify(target: WebhookTarget): void {
    if (this.closed) return;
    const existing = this.queues.get(target.sessionId);
    if (existing) {
      existing.target = target;
      existing.wakeRequested = true;
      return;
    }
    const queue: SessionQueue = { target, controller: new AbortController(), wakeRequested: false, endpointDown: false, running: Promise.resolve() };
    this.queues.set(target.sessionId, queue);
    queue.running = this.drain(queue);
  }

  /**
   * Stops this process delivering the session (e.g. another process took it
   * over): aborts the attempt in flight, which is not logged and is repeated
   * by whoever calls notify() next. Do not call it when a session merely
   * ends: its last events (`arrived`) still have to go out.
   */
  async stop(sessionId: string): Promise<void> {
    const queue = this.queues.get(sessionId);
    if (!queue) return;
    this.queues.delete(sessionId);
    queue.controller.abort();
    await queue.running;
  }

  /** Resolves once the session has nothing left to deliver (or was stopped). */
  async whenIdle(sessionId: string): Promise<void> {
    for (let queue = this.queues.get(sessionId); queue; queue = this.queues.get(sessionId)) await queue.running;
  }

  /** Stops every queue and timer and aborts attempts in flight; later notify() calls are ignored. */
  async close(): Promise<void> {
    this.closed = true;
    const queues = [...this.queues.values()];
    this.queues.clear();
    for (const queue of queues) queue.controller.abort();
    await Promise.all(queues.map((queue) => queue.running));
  }

  private async drain(queue: SessionQueue): Promise<void> {
    const { signal } = queue.controller;
    while (!signal.aborted) {
      try {
        await this.deliverPending(queue);
        return;
      } catch (error) {
        // The database failed us; the log stays the source of truth, so start over from it.
        this.options.logger?.error({ err: error, sessionId: queue.target.sessionId }, 'webhook delivery could not read or write its log');
        if (!(await this.sleep(this.storeRetryDelayMs, signal))) return;
      }
    }
  }

  /** Delivers until the outbox has nothing after the last settled event, then retires the queue. */
  private async deliverPending(queue: SessionQueue): Promise<void> {
    const { sessionId } = queue.target;
    const { signal } = queue.controller;
    const progress = await this.options.deliveryLog.progress(sessionId);
    let lastSettledSeq = progress.lastSettledSeq ?? -1;
    let resumed = progress.pending;
    for (;;) {
      queue.wakeRequested = false;
      const events = await this.options.outbox.eventsSince(sessionId, lastSettledSeq, EVENTS_PER_READ);
      if (signal.aborted) return;
      if (events.length === 0) {
        if (queue.wakeRequested) continue;
        // Same tick as the empty read: a notify() from here on starts a fresh queue instead of being lost.
        if (this.queues.get(sessionId) === queue) this.queues.delete(sessionId);
        return;
      }
      for (const event of events) {
        const priorAttempts = resumed?.seq === event.seq ? resumed : null;
        resumed = null;
        if (!(await this.deliverEvent(queue, event, priorAttempts))) return;
        lastSettledSeq = event.seq;
      }
    }
  }

  /** Attempts one event until it is delivered or given up; false when the queue was stopped meanwhile. */
  private async deliverEvent(
    queue: SessionQueue,
    event: OutboxEvent,
    prior: { attempts: number; firstAttemptAt: Date } | null,
  ): Promise<boolean> {
    const { signal } = queue.controller;
    const { sessionId } = queue.target;
    const webhookId = `${sessionId}:${event.seq}`;
    const body = JSON.stringify({ [this.options.streamField ?? 'sessionId']: sessionId, seq: event.seq, type: event.type, at: event.at, data: event.data });
    const firstAttemptAtMs = prior?.firstAttemptAt.getTime() ?? Date.now();
    let attempt = prior?.attempts ?? 0;
    for (;;) {
      attempt++;
      const startedAtMs = Date.now();
      const result = await this.slots.run(signal, () => this.attemptOnce(queue.target, webhookId, body, signal));
      if (result === undefined || signal.aborted) return false;
      const nowMs = Date.now();
      const maxAttempts = queue.endpointDown ? 1 : this.retry.maxAttempts;
      const decision = decideRetry({ ...result, attempt, maxAttempts, firstAttemptAtMs, nowMs }, this.retry, this.random);
      await this.options.deliveryLog.record({
        sessionId,
        seq: event.seq,
        attempt,
        outcome: decision.outcome,
        httpStatus: result.httpStatus,
        error: decision.outcome === 'delivered' ? null : result.error,
        durationMs: nowMs - startedAtMs,
        attemptedAt: new Date(startedAtMs),
      });
      this.options.observeAttempt?.(decision.outcome, nowMs - startedAtMs);
      if (decision.outcome === 'delivered') {
        queue.endpointDown = false;
        return true;
      }
      if (decision.outcome === 'failed') {
        if (result.disposition === 'retryable') queue.endpointDown = true;
        this.options.logger?.warn({ sessionId, seq: event.seq, attempts: attempt, httpStatus: result.httpStatus, error: result.error }, 'webhook event given up');
        return true;
      }
      if (!(await this.sleep(decision.delayMs, signal))) return false;
    }
  }

  private async attemptOnce(target: WebhookTarget, webhookId: string, body: string, signal: AbortSignal): Promise<AttemptResult> {
    const deadlineMs = Date.now() + this.attemptTimeoutMs;
    const resolution = await this.resolveWithin(target.url, this.attemptTimeoutMs);
    if (!resolution.ok) return { disposition: resolution.retryable ? 'retryable' : 'permanent', httpStatus: null, error: resolution.reason };
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': this.userAgent,
      'webhook-id': webhookId,
      'webhook-timestamp': String(timestampSeconds),
      'webhook-signature': signWebhook(target.secret, webhookId, timestampSeconds, body),
    };
    const timeoutMs = Math.max(1, deadlineMs - Date.now());
    const result = await postWebhook(resolution.target, body, headers, { timeoutMs, maxResponseBytes: this.maxResponseBytes, signal });
    if (result.kind === 'cancelled') return { disposition: 'permanent', httpStatus: null, error: 'cancelled' };
    if (result.kind === 'failure') {
      // The attempt's whole budget, not what was left of it after DNS.
      return { disposition: 'retryable', httpStatus: null, error: result.timedOut ? `timed out after ${this.attemptTimeoutMs} ms` : result.message };
    }
    const disposition = dispositionOfStatus(result.status);
    const error = disposition === 'delivered' ? null : result.status >= 300 && result.status < 400 ? 'redirects are not followed' : `HTTP ${result.status}`;
    return { disposition, httpStatus: result.status, error, ...(result.retryAfterMs === undefined ? {} : { retryAfterMs: result.retryAfterMs }) };
  }

  /** The system resolver cannot be cancelled; past the attempt's budget its answer is ignored. */
  private async resolveWithin(url: string, timeoutMs: number): Promise<WebhookTargetResolution> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<WebhookTargetResolution>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, reason: `DNS lookup timed out after ${timeoutMs} ms`, retryable: true }), timeoutMs);
    });
    try {
      return await Promise.race([this.options.urlPolicy.resolve(url), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async sleep(ms: number, signal: AbortSignal): Promise<boolean> {
    try {
      // Unreferenced: a pending retry must not keep a shutting-down process alive.
      await wait(ms, undefined, { signal, ref: false });
      return true;
    } catch {
      return false;
    }
  }
}
