import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './webhook-http.js';
import { DEFAULT_WEBHOOK_RETRY, decideRetry, dispositionOfStatus, type AttemptFacts } from './webhook-retry-policy.js';

const facts = (overrides: Partial<AttemptFacts>): AttemptFacts => ({
  disposition: 'retryable',
  attempt: 1,
  maxAttempts: DEFAULT_WEBHOOK_RETRY.maxAttempts,
  firstAttemptAtMs: 0,
  nowMs: 0,
  ...overrides,
});
const middle = () => 0.5;

describe('webhook retry policy', () => {
  it.each([
    [200, 'delivered'],
    [204, 'delivered'],
    [301, 'permanent'],
    [400, 'permanent'],
    [404, 'permanent'],
    [410, 'permanent'],
    [408, 'retryable'],
    [429, 'retryable'],
    [500, 'retryable'],
    [503, 'retryable'],
  ])('treats HTTP %i as %s', (status, disposition) => {
    expect(dispositionOfStatus(status)).toBe(disposition);
  });

  it('backs off exponentially up to the cap, 8 attempts in about 11 minutes', () => {
    let elapsedMs = 0;
    const delays: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const decision = decideRetry(facts({ attempt, nowMs: elapsedMs }), DEFAULT_WEBHOOK_RETRY, middle);
      if (decision.outcome !== 'retrying') {
        expect(decision.outcome).toBe('failed');
        expect(attempt).toBe(8);
        break;
      }
      delays.push(decision.delayMs / 1000);
      elapsedMs += decision.delayMs;
    }
    expect(delays).toEqual([5, 10, 20, 40, 80, 160, 320]);
  });

  it('keeps jitter within ±20 %', () => {
    expect(decideRetry(facts({ attempt: 2 }), DEFAULT_WEBHOOK_RETRY, () => 0)).toEqual({ outcome: 'retrying', delayMs: 8_000 });
    expect(decideRetry(facts({ attempt: 2 }), DEFAULT_WEBHOOK_RETRY, () => 0.999999)).toEqual({ outcome: 'retrying', delayMs: 12_000 });
  });

  it('honours a longer Retry-After, up to its cap', () => {
    expect(decideRetry(facts({ retryAfterMs: 120_000 }), DEFAULT_WEBHOOK_RETRY, middle)).toEqual({ outcome: 'retrying', delayMs: 120_000 });
    expect(decideRetry(facts({ retryAfterMs: 5 * 3600_000 }), DEFAULT_WEBHOOK_RETRY, middle)).toEqual({
      outcome: 'retrying',
      delayMs: DEFAULT_WEBHOOK_RETRY.maxRetryAfterMs,
    });
    expect(decideRetry(facts({ retryAfterMs: 1_000 }), DEFAULT_WEBHOOK_RETRY, middle)).toEqual({ outcome: 'retrying', delayMs: 5_000 });
  });

  it('gives up on permanent refusals at once, and when the next attempt would pass the maximum age', () => {
    expect(decideRetry(facts({ disposition: 'permanent' }), DEFAULT_WEBHOOK_RETRY, middle)).toEqual({ outcome: 'failed' });
    expect(decideRetry(facts({ disposition: 'delivered', attempt: 8 }), DEFAULT_WEBHOOK_RETRY, middle)).toEqual({ outcome: 'delivered' });
    const late = facts({ attempt: 3, nowMs: DEFAULT_WEBHOOK_RETRY.maxAgeMs - 10_000 });
    expect(decideRetry(late, DEFAULT_WEBHOOK_RETRY, middle)).toEqual({ outcome: 'failed' });
    expect(decideRetry(facts({ maxAttempts: 1 }), DEFAULT_WEBHOOK_RETRY, middle)).toEqual({ outcome: 'failed' });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const nowMs = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', nowMs)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', nowMs)).toBe(60_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', nowMs)).toBe(0);
    expect(parseRetryAfter('soon', nowMs)).toBeUndefined();
    expect(parseRetryAfter(undefined, nowMs)).toBeUndefined();
  });
});
