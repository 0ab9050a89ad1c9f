import { Counter, Histogram, type Registry } from 'prom-client';
import type { WebhookAttemptOutcome } from '../../store/pg/webhook-deliveries.js';

const ATTEMPT_BUCKETS_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Observes one delivery attempt: its outcome and how long it took. */
export type WebhookAttemptObserver = (outcome: WebhookAttemptOutcome, durationMs: number) => void;

/**
 * Registers `webhook_delivery_attempts_total{outcome}` and
 * `webhook_delivery_attempt_duration_seconds` on the process's registry (the
 * edge's HttpMetrics.registry) and returns the dispatcher's `observeAttempt`.
 */
export function registerWebhookMetrics(registry: Registry): WebhookAttemptObserver {
  const attempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts, by outcome (delivered, retrying, failed)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'webhook_delivery_attempt_duration_seconds',
    help: 'Time of one webhook delivery attempt, DNS to response headers',
    buckets: ATTEMPT_BUCKETS_SECONDS,
    registers: [registry],
  });
  return (outcome, durationMs) => {
    attempts.inc({ outcome });
    duration.observe(durationMs / 1000);
  };
}
