/**
 * Delivers inbox notifications to the user's registered push tokens (docs/commute.md, "Push delivery").
 * The outbox rows are written with the inbox record; every process polls them (and is woken at once when
 * it wrote one itself), claims a batch under a lease and sends each through its platform's provider.
 * Delivered rows go; a token the provider calls gone (404/410) is removed with everything queued for it;
 * a retryable failure (network, 408, 429, 5xx) waits with exponential backoff and jitter (Retry-After
 * honoured) up to `maxAttempts`; a platform without a configured provider is not attempted.
 */
import type { Logger } from '../../shared/logger.js';
import type { ClaimedPush, PushOutboxRepository } from '../../store/pg/push-outbox.js';
import { decideRetry, type WebhookRetryOptions } from '../webhooks/webhook-retry-policy.js';
import type { PushPlatform, PushProvider } from './push-providers.js';

const BATCH = 50;

export interface PushDispatcherOptions {
  outbox: PushOutboxRepository;
  providers: ReadonlyMap<PushPlatform, PushProvider>;
  logger: Logger;
  pollMs: number;
  retry: WebhookRetryOptions;
  /** How long a claimed row is this process's (longer than one attempt's 10 s budget). */
  leaseMs?: number;
}

export class PushDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private wakeRequested = false;
  private stopped = false;
  private readonly controller = new AbortController();
  readonly counts = { delivered: 0, gone: 0, retried: 0, failed: 0, skipped: 0 };

  constructor(private readonly options: PushDispatcherOptions) {}

  start(): void {
    this.schedule(0);
  }

  /** A notification was written here: look at the outbox now rather than at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    clearTimeout(this.timer);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.controller.abort();
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.drain()
        .catch((error: unknown) => this.options.logger.error({ err: error }, 'push delivery pass failed'))
        .finally(() => {
          this.running = undefined;
          const again = this.wakeRequested;
          this.wakeRequested = false;
          this.schedule(again ? 0 : this.options.pollMs);
        });
    }, delayMs);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const claimed = await this.options.outbox.claim(BATCH, this.options.leaseMs ?? 60_000);
      if (claimed.length === 0 || this.stopped) return;
      await Promise.all(claimed.map((push) => this.deliver(push)));
      if (claimed.length < BATCH) return;
    }
  }

  private async deliver(push: ClaimedPush): Promise<void> {
    const provider = this.options.providers.get(push.platform as PushPlatform);
    if (!provider || !push.sameUser) {
      this.counts.skipped++;
      await this.options.outbox.settle(push.id);
      return;
    }
    const outcome = await provider.send(push.token, push.notification, this.controller.signal);
    if (this.stopped && outcome.kind === 'retry') return; // the lease runs out and another process takes it
    const log = { notificationId: push.notification.id, platform: push.platform, attempt: push.attempts, status: outcome.status };
    if (outcome.kind === 'delivered') {
      this.counts.delivered++;
      await this.options.outbox.settle(push.id);
      return;
    }
    if (outcome.kind === 'gone') {
      this.counts.gone++;
      this.options.logger.info(log, 'push token gone: removed');
      await this.options.outbox.removeToken(push.token);
      return;
    }
    const decision = decideRetry(
      {
        disposition: outcome.kind === 'retry' ? 'retryable' : 'permanent',
        attempt: push.attempts,
        maxAttempts: this.options.retry.maxAttempts,
        firstAttemptAtMs: Date.parse(push.firstQueuedAt),
        nowMs: Date.now(),
        ...(outcome.kind === 'retry' && outcome.retryAfterMs !== undefined ? { retryAfterMs: outcome.retryAfterMs } : {}),
      },
      this.options.retry,
    );
    if (decision.outcome === 'retrying') {
      this.counts.retried++;
      await this.options.outbox.retryLater(push.id, decision.delayMs, outcome.error);
      return;
    }
    this.counts.failed++;
    this.options.logger.warn({ ...log, error: outcome.error }, 'push given up');
    await this.options.outbox.settle(push.id);
  }
}
