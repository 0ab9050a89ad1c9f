/** When and how often a delivery is retried. Units are in the names. */
export interface WebhookRetryOptions {
  /** Attempts per event before it is given up (logged as failed); default 8. */
  maxAttempts: number;
  /** An event is given up when its next attempt would start later than this after its first; default 1 h. */
  maxAgeMs: number;
  /** Wait before the 2nd attempt; each later wait doubles; default 5 s. */
  initialDelayMs: number;
  /** Longest computed wait between two attempts; default 15 min. */
  maxDelayMs: number;
  /** Longest Retry-After honoured (a longer one is shortened to this); default 15 min. */
  maxRetryAfterMs: number;
  /** Each wait is scaled by a random factor in [1 - ratio, 1 + ratio] so receivers are not hit in lockstep; default 0.2. */
  jitterRatio: number;
}

/**
 * 8 attempts with waits of about 5, 10, 20, 40, 80, 160 and 320 s: the last
 * attempt comes about 10.6 min (at most 12.7 min with jitter) after the first.
 * Navigation events are about a trip in progress, so early retries matter
 * most and a retry an hour later would tell the receiver nothing useful.
 */
export const DEFAULT_WEBHOOK_RETRY: Readonly<WebhookRetryOptions> = Object.freeze({
  maxAttempts: 8,
  maxAgeMs: 60 * 60 * 1000,
  initialDelayMs: 5 * 1000,
  maxDelayMs: 15 * 60 * 1000,
  maxRetryAfterMs: 15 * 60 * 1000,
  jitterRatio: 0.2,
});

/** What one attempt's result means for the event. */
export type AttemptDisposition = 'delivered' | 'retryable' | 'permanent';

/**
 * 2xx delivered; 408, 429 and 5xx are worth retrying; any other status
 * (including 3xx: redirects are not followed) will not change by retrying.
 */
export function dispositionOfStatus(status: number): AttemptDisposition {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 408 || status === 429 || status >= 500) return 'retryable';
  return 'permanent';
}

export type RetryDecision = { outcome: 'delivered' } | { outcome: 'failed' } | { outcome: 'retrying'; delayMs: number };

export interface AttemptFacts {
  disposition: AttemptDisposition;
  /** 1-based number of the attempt just made. */
  attempt: number;
  /** The attempt limit in force (lower than maxAttempts while the endpoint is known to be down). */
  maxAttempts: number;
  firstAttemptAtMs: number;
  nowMs: number;
  retryAfterMs?: number;
}

/** Decides the event's next step after an attempt; `random` in [0, 1) (tests pass a fixed one). */
export function decideRetry(facts: AttemptFacts, options: WebhookRetryOptions, random: () => number = Math.random): RetryDecision {
  if (facts.disposition === 'delivered') return { outcome: 'delivered' };
  if (facts.disposition === 'permanent' || facts.attempt >= facts.maxAttempts) return { outcome: 'failed' };
  const backoffMs = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** (facts.attempt - 1));
  const jittered = backoffMs * (1 - options.jitterRatio + 2 * options.jitterRatio * random());
  const delayMs = Math.round(Math.max(jittered, Math.min(facts.retryAfterMs ?? 0, options.maxRetryAfterMs)));
  if (facts.nowMs + delayMs - facts.firstAttemptAtMs > options.maxAgeMs) return { outcome: 'failed' };
  return { outcome: 'retrying', delayMs };
}
