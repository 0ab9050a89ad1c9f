import { describe, expect, it } from 'vitest';
import { MemoryCounterStore } from '../../store/counters/memory-counter-store.js';
import { decide, planCounters, ThrottleKeys, type LimitRequest } from './request-limits.js';

const AT = Date.UTC(2026, 10, 22, 10, 15, 30); // 10:15:30 UTC
const key = { id: 'k1', unlimited: false, quotaPerMinute: 100, quotaPerDay: 5000 };
const base: LimitRequest = { nowMs: AT, clientIp: '203.0.113.7', endpoint: 'GET /geo/pluscode', scoped: true, scope: 'geo', key };

/** Sends `count` requests through a counter store; returns the decisions. */
async function send(store: MemoryCounterStore, request: LimitRequest, count: number) {
  const decisions = [];
  for (let index = 0; index < count; index++) {
    const planned = planCounters(request);
    decisions.push(decide(request, planned, await store.incrementWindows(planned.map((counter) => counter.hit))));
  }
  return decisions;
}

describe('request limits', () => {
  it('refuses the key quota with the spec message, details and Retry-After', async () => {
    const decisions = await send(new MemoryCounterStore(() => AT), base, 101);
    expect(decisions.slice(0, 100).every((decision) => decision.refusal === undefined)).toBe(true);
    const last = decisions[100]!;
    expect(last.refusal?.code).toBe('QUOTA_EXCEEDED');
    expect(last.refusal?.messages).toBe('key quota exceeded for scope geo: 100/minute');
    expect(last.refusal?.details).toEqual({ scope: 'geo', limit: 100, window: 'minute', observed: 101, retryAfterSeconds: 30 });
    expect(last.headers['retry-after']).toBe('30');
    expect(decisions[0]!.headers).toMatchObject({
      'x-svc-quota-limit-minute': '100',
      'x-svc-quota-remaining-minute': '99',
      'x-svc-quota-limit-day': '5000',
      'x-svc-quota-remaining-day': '4999',
      'x-svc-quota-reset-minute': '30',
      'x-ratelimit-limit': '3000',
    });
  });

  it('starts a new minute window at :00 exactly', () => {
    const before = planCounters({ ...base, nowMs: Date.UTC(2026, 10, 22, 10, 15, 59, 999) });
    const after = planCounters({ ...base, nowMs: Date.UTC(2026, 10, 22, 10, 16, 0, 0) });
    expect(before.find((c) => c.role === 'key-minute')!.hit.key).not.toBe(after.find((c) => c.role === 'key-minute')!.hit.key);
    expect(before.find((c) => c.role === 'key-day')!.hit.key).toBe(after.find((c) => c.role === 'key-day')!.hit.key);
    const midnightBefore = planCounters({ ...base, nowMs: Date.UTC(2026, 10, 22, 23, 59, 59, 999) });
    const midnightAfter = planCounters({ ...base, nowMs: Date.UTC(2026, 10, 23, 0, 0, 0, 0) });
    expect(midnightBefore.find((c) => c.role === 'key-day')!.hit.key).not.toBe(midnightAfter.find((c) => c.role === 'key-day')!.hit.key);
    expect(midnightAfter.find((c) => c.role === 'key-day')!.hit.windowEndsAtMs).toBe(Date.UTC(2026, 10, 24));
  });

  it('applies the per-IP limit across keys: 90/minute, or the key quota if higher', async () => {
    const store = new MemoryCounterStore(() => AT);
    const small = { ...key, quotaPerMinute: 60 };
    await send(store, { ...base, key: { ...small, id: 'a' } }, 60);
    const other = await send(store, { ...base, key: { ...small, id: 'b' } }, 31);
    expect(other[29]!.refusal).toBeUndefined();
    expect(other[30]!.refusal?.messages).toBe('IP rate limit exceeded: 90/minute');
    expect(other[30]!.refusal?.details).toEqual({ limit: 90, window: 'minute', observed: 91, retryAfterSeconds: 30 });
  });

  it('reports day windows without retryAfterSeconds', async () => {
    const decisions = await send(new MemoryCounterStore(() => AT), { ...base, key: { ...key, quotaPerMinute: 1000, quotaPerDay: 3 } }, 4);
    expect(decisions[3]!.refusal?.messages).toBe('key quota exceeded for scope geo: 3/day');
    expect(decisions[3]!.refusal?.details).toEqual({ scope: 'geo', limit: 3, window: 'day', observed: 4 });
    expect(decisions[3]!.headers['retry-after']).toBeUndefined();
  });

  it('throttles keyless callers per endpoint at 3000/minute with 429', async () => {
    const anonymous = { ...base, key: undefined, scoped: false };
    const decisions = await send(new MemoryCounterStore(() => AT), anonymous, 3001);
    expect(decisions[2999]!.refusal).toBeUndefined();
    expect(decisions[3000]!.refusal?.code).toBe('RATE_LIMITED');
    expect(decisions[3000]!.headers).toMatchObject({ 'retry-after': '30', 'x-ratelimit-remaining': '0' });
    expect(planCounters(anonymous).map((counter) => counter.role)).toEqual(['throttle']);
  });

  describe('unlimited keys', () => {
    const unlimited = { ...base, key: { ...key, unlimited: true } };
    it('lift key quotas, per-IP limits and the plain throttle, but still count usage', async () => {
      expect(planCounters(unlimited).map((counter) => counter.role)).toEqual(['key-minute', 'key-day']);
      const decisions = await send(new MemoryCounterStore(() => AT), unlimited, 150);
      expect(decisions.every((decision) => decision.refusal === undefined)).toBe(true);
      expect(decisions[149]!.headers).toEqual({
        'x-svc-quota-limit-minute': 'unlimited',
        'x-svc-quota-remaining-minute': 'unlimited',
        'x-svc-quota-limit-day': 'unlimited',
        'x-svc-quota-remaining-day': 'unlimited',
        'x-svc-quota-reset-minute': '30',
        'x-svc-quota-unlimited': 'true',
      });
    });

    it('lift the 60/minute of POST /search/events', () => {
      const events = { ...unlimited, endpoint: 'POST /search/events', throttlePerMinute: 60, throttleLiftedForUnlimited: true };
      expect(planCounters(events).some((counter) => counter.role === 'throttle')).toBe(false);
    });

    it('keep the tighter anti-abuse throttles and the throttle of endpoints without a scope', () => {
      const ai = { ...unlimited, endpoint: 'POST /ai/constraints', throttlePerMinute: 30 };
      expect(planCounters(ai).find((counter) => counter.role === 'throttle')?.limit).toBe(30);
      const account = { ...unlimited, endpoint: 'POST /auth/login', scoped: false, scope: undefined };
      expect(planCounters(account).find((counter) => counter.role === 'throttle')?.limit).toBe(3000);
    });
  });

  it('plans the same counters with kept throttle keys, across minutes and back', () => {
    const keys = new ThrottleKeys();
    const requests = [base, { ...base, key: undefined, scoped: false }, { ...base, clientIp: '2001:db8::7' }, { ...base, endpoint: 'GET /geocode/autocomplete' }];
    for (const nowMs of [AT, AT + 1_000, AT + 60_000, AT]) {
      for (const request of requests) {
        const plain = planCounters({ ...request, nowMs });
        const kept = planCounters({ ...request, nowMs }, keys);
        expect(kept).toEqual(plain);
      }
    }
  });
});
