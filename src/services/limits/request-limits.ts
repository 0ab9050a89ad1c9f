import { ApiError } from '../../shared/errors.js';
import { limitBucketOf } from '../access/ip-address.js';
import type { WindowHit } from '../../store/counters/counter-store.js';
import { dayWindow, keyQuotaCounter, minuteWindow, secondsUntilReset, type QuotaWindow } from './quota-windows.js';

/** Spec part 1 §8 defaults. */
export const REQUEST_THROTTLE_PER_MINUTE = 3_000;
export const IP_QUOTA_PER_MINUTE = 90;
export const IP_QUOTA_PER_DAY = 30_000;

/** The key part of a limit decision. */
export interface KeyLimits {
  id: string;
  unlimited: boolean;
  quotaPerMinute: number;
  quotaPerDay: number;
}

export interface LimitRequest {
  nowMs: number;
  clientIp: string;
  /** `limitBucketOf(clientIp)` when the caller has it at hand (the access gate keeps it per client); else worked out. */
  clientBucket?: string | undefined;
  /** `METHOD /path/{pattern}`: the throttle counts per endpoint, not per URL. */
  endpoint: string;
  /** The endpoint needs a key scope (quotas apply to keyed calls). */
  scoped: boolean;
  /** Scope named in quota messages. */
  scope: string | undefined;
  /** The endpoint's own tighter throttle, if any. */
  throttlePerMinute?: number | undefined;
  /** Unlimited keys are exempt from this endpoint's tighter throttle too (from the access table). */
  throttleLiftedForUnlimited?: boolean;
  neverThrottled?: boolean;
  key: KeyLimits | undefined;
}

type Role = 'throttle' | 'key-minute' | 'key-day' | 'ip-minute' | 'ip-day';

export interface PlannedCounter {
  role: Role;
  hit: WindowHit;
  /** Infinity where the counter only measures usage (unlimited keys). */
  limit: number;
  window: QuotaWindow;
}

/** Throttle keys kept at most (client buckets × endpoints in one minute); more start the set again. */
const THROTTLE_KEYS_KEPT = 20_000;

/**
 * The throttle's counter keys of the current minute, kept: the same clients ask the same endpoints request after
 * request, and a key made anew is a new string the counter store hashes and compares in full (a long key: ~0.4 µs
 * a request), where a kept one carries its hash. Bucket and endpoint texts are the access gate's own, kept too.
 */
export class ThrottleKeys {
  private minuteId = NaN;
  private readonly byEndpoint = new Map<string, Map<string, string>>();
  private count = 0;

  of(bucket: string, endpoint: string, minuteId: number): string {
    if (minuteId !== this.minuteId || this.count >= THROTTLE_KEYS_KEPT) {
      this.minuteId = minuteId;
      this.byEndpoint.clear();
      this.count = 0;
    }
    let keys = this.byEndpoint.get(endpoint);
    if (keys === undefined) this.byEndpoint.set(endpoint, (keys = new Map()));
    let key = keys.get(bucket);
    if (key === undefined) {
      keys.set(bucket, (key = throttleKey(bucket, endpoint, minuteId)));
      this.count++;
    }
    return key;
  }
}

function throttleKey(bucket: string, endpoint: string, minuteId: number): string {
  return `throttle:${bucket}:${endpoint}:${minuteId}`;
}

/** Which counters one request bumps (all in one atomic round trip); `throttleKeys` keeps the throttle's keys. */
export function planCounters(request: LimitRequest, throttleKeys?: ThrottleKeys): PlannedCounter[] {
  const bucket = request.clientBucket ?? limitBucketOf(request.clientIp);
  const minute = minuteWindow(request.nowMs);
  const counters: PlannedCounter[] = [];
  const key = request.key;
  const unlimited = key?.unlimited === true;
  const throttleLifted =
    request.neverThrottled === true ||
    (unlimited && request.scoped && (request.throttlePerMinute === undefined || request.throttleLiftedForUnlimited === true));
  if (!throttleLifted) {
    counters.push({
      role: 'throttle',
      hit: { key: throttleKeys ? throttleKeys.of(bucket, request.endpoint, minute.id) : throttleKey(bucket, request.endpoint, minute.id), windowEndsAtMs: minute.endsAtMs },
      limit: request.throttlePerMinute ?? REQUEST_THROTTLE_PER_MINUTE,
      window: minute,
    });
  }
  if (key && request.scoped) {
    const day = dayWindow(request.nowMs);
    // Usage is counted for unlimited keys too; only the refusal is lifted.
    counters.push(
      { role: 'key-minute', hit: { key: keyQuotaCounter(key.id, minute), windowEndsAtMs: minute.endsAtMs }, limit: unlimited ? Infinity : key.quotaPerMinute, window: minute },
      { role: 'key-day', hit: { key: keyQuotaCounter(key.id, day), windowEndsAtMs: day.endsAtMs }, limit: unlimited ? Infinity : key.quotaPerDay, window: day },
    );
    if (!unlimited) {
      counters.push(
        {
          role: 'ip-minute',
          hit: { key: `quota:ip:${bucket}:m:${minute.id}`, windowEndsAtMs: minute.endsAtMs },
          limit: Math.max(IP_QUOTA_PER_MINUTE, key.quotaPerMinute),
          window: minute,
        },
        {
          role: 'ip-day',
          hit: { key: `quota:ip:${bucket}:d:${day.id}`, windowEndsAtMs: day.endsAtMs },
          limit: Math.max(IP_QUOTA_PER_DAY, key.quotaPerDay),
          window: day,
        },
      );
    }
  }
  return counters;
}

export interface LimitDecision {
  headers: Record<string, string>;
  refusal: ApiError | undefined;
}

/** Quota counters checked after the throttle, in order, with the message of a refusal. Made once: this runs per request. */
const QUOTA_CHECKS: ReadonlyArray<readonly [Role, (limit: number, scope: string) => string]> = [
  ['key-minute', (limit, scope) => `key quota exceeded for scope ${scope}: ${limit}/minute`],
  ['key-day', (limit, scope) => `key quota exceeded for scope ${scope}: ${limit}/day`],
  ['ip-minute', (limit) => `IP rate limit exceeded: ${limit}/minute`],
  ['ip-day', (limit) => `IP daily quota exceeded: ${limit}/day`],
];

/** The planned counter of a role and its count, or undefined (a request plans at most five: a scan beats a map). */
function counted(planned: readonly PlannedCounter[], counts: readonly number[], role: Role): { counter: PlannedCounter; observed: number } | undefined {
  for (let index = 0; index < planned.length; index++) {
    if (planned[index]!.role === role) return { counter: planned[index]!, observed: counts[index] ?? 0 };
  }
  return undefined;
}

/** Turns the counts (this request included) into the response headers and, when over a limit, the refusal. */
export function decide(request: LimitRequest, planned: readonly PlannedCounter[], counts: readonly number[]): LimitDecision {
  const headers: Record<string, string> = {};
  const nowMs = request.nowMs;

  const throttle = counted(planned, counts, 'throttle');
  if (throttle) {
    headers['x-ratelimit-limit'] = String(throttle.counter.limit);
    headers['x-ratelimit-remaining'] = String(Math.max(0, throttle.counter.limit - throttle.observed));
    headers['x-ratelimit-reset'] = String(secondsUntilReset(throttle.counter.window, nowMs));
  }
  const keyMinute = counted(planned, counts, 'key-minute');
  const keyDay = counted(planned, counts, 'key-day');
  if (request.key && keyMinute && keyDay) {
    const unlimited = request.key.unlimited;
    headers['x-svc-quota-limit-minute'] = unlimited ? 'unlimited' : String(keyMinute.counter.limit);
    headers['x-svc-quota-remaining-minute'] = unlimited ? 'unlimited' : String(Math.max(0, keyMinute.counter.limit - keyMinute.observed));
    headers['x-svc-quota-limit-day'] = unlimited ? 'unlimited' : String(keyDay.counter.limit);
    headers['x-svc-quota-remaining-day'] = unlimited ? 'unlimited' : String(Math.max(0, keyDay.counter.limit - keyDay.observed));
    headers['x-svc-quota-reset-minute'] = String(secondsUntilReset(keyMinute.counter.window, nowMs));
    if (unlimited) headers['x-svc-quota-unlimited'] = 'true';
  }

  if (throttle && throttle.observed > throttle.counter.limit) {
    const retryAfterSeconds = secondsUntilReset(throttle.counter.window, nowMs);
    return {
      headers: { ...headers, 'retry-after': String(retryAfterSeconds) },
      refusal: new ApiError('RATE_LIMITED', {
        message: `Too many requests to this endpoint: ${throttle.counter.limit}/minute`,
        details: { limit: throttle.counter.limit, window: 'minute', observed: throttle.observed, retryAfterSeconds },
      }),
    };
  }
  const scope = request.scope ?? 'none';
  for (const [role, message] of QUOTA_CHECKS) {
    const found = counted(planned, counts, role);
    if (!found || found.observed <= found.counter.limit) continue;
    const { counter, observed } = found;
    const perMinute = counter.window.kind === 'minute';
    const retryAfterSeconds = secondsUntilReset(counter.window, nowMs);
    const details: Record<string, unknown> = {
      ...(role.startsWith('key') ? { scope } : {}),
      limit: counter.limit,
      window: counter.window.kind,
      observed,
      ...(perMinute ? { retryAfterSeconds } : {}),
    };
    return {
      headers: perMinute ? { ...headers, 'retry-after': String(retryAfterSeconds) } : headers,
      refusal: new ApiError('QUOTA_EXCEEDED', { message: message(counter.limit, scope), details }),
    };
  }
  return { headers, refusal: undefined };
}
