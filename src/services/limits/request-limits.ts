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
  /** `METHOD /path/{pattern}`: the throttle counts per endpoint, not per URL. */
  endpoint: string;
  /** The endpoint needs a key scope (quotas apply to keyed calls). */
  scoped: boolean;
  /** Scope named in quota messages. */
  scope: string | undefined;
  /** The endpoint's own tighter throttle, if any. */
  throttlePerMinute?: number;
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

/** Which counters one request bumps (all in one atomic round trip). */
export function planCounters(request: LimitRequest): PlannedCounter[] {
  const bucket = limitBucketOf(request.clientIp);
  const minute = minuteWindow(request.nowMs);
  const day = dayWindow(request.nowMs);
  const counters: PlannedCounter[] = [];
  const key = request.key;
  const unlimited = key?.unlimited === true;
  const throttleLifted =
    request.neverThrottled === true ||
    (unlimited && request.scoped && (request.throttlePerMinute === undefined || request.throttleLiftedForUnlimited === true));
  if (!throttleLifted) {
    counters.push({
      role: 'throttle',
      hit: { key: `throttle:${bucket}:${request.endpoint}:${minute.id}`, windowEndsAtMs: minute.endsAtMs },
      limit: request.throttlePerMinute ?? REQUEST_THROTTLE_PER_MINUTE,
      window: minute,
    });
  }
  if (key && request.scoped) {
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

/** Turns the counts (this request included) into the response headers and, when over a limit, the refusal. */
export function decide(request: LimitRequest, planned: readonly PlannedCounter[], counts: readonly number[]): LimitDecision {
  const headers: Record<string, string> = {};
  const byRole = new Map(planned.map((counter, index) => [counter.role, { ...counter, observed: counts[index] ?? 0 }]));
  const nowMs = request.nowMs;

  const throttle = byRole.get('throttle');
  if (throttle) {
    headers['x-ratelimit-limit'] = String(throttle.limit);
    headers['x-ratelimit-remaining'] = String(Math.max(0, throttle.limit - throttle.observed));
    headers['x-ratelimit-reset'] = String(secondsUntilReset(throttle.window, nowMs));
  }
  const keyMinute = byRole.get('key-minute');
  const keyDay = byRole.get('key-day');
  if (request.key && keyMinute && keyDay) {
    const unlimited = request.key.unlimited;
    headers['x-svc-quota-limit-minute'] = unlimited ? 'unlimited' : String(keyMinute.limit);
    headers['x-svc-quota-remaining-minute'] = unlimited ? 'unlimited' : String(Math.max(0, keyMinute.limit - keyMinute.observed));
    headers['x-svc-quota-limit-day'] = unlimited ? 'unlimited' : String(keyDay.limit);
    headers['x-svc-quota-remaining-day'] = unlimited ? 'unlimited' : String(Math.max(0, keyDay.limit - keyDay.observed));
    headers['x-svc-quota-reset-minute'] = String(secondsUntilReset(keyMinute.window, nowMs));
    if (unlimited) headers['x-svc-quota-unlimited'] = 'true';
  }

  if (throttle && throttle.observed > throttle.limit) {
    const retryAfterSeconds = secondsUntilReset(throttle.window, nowMs);
    return {
      headers: { ...headers, 'retry-after': String(retryAfterSeconds) },
      refusal: new ApiError('RATE_LIMITED', {
        message: `Too many requests to this endpoint: ${throttle.limit}/minute`,
        details: { limit: throttle.limit, window: 'minute', observed: throttle.observed, retryAfterSeconds },
      }),
    };
  }
  const scope = request.scope ?? 'none';
  const checks: Array<[Role, (limit: number) => string]> = [
    ['key-minute', (limit) => `key quota exceeded for scope ${scope}: ${limit}/minute`],
    ['key-day', (limit) => `key quota exceeded for scope ${scope}: ${limit}/day`],
    ['ip-minute', (limit) => `IP rate limit exceeded: ${limit}/minute`],
    ['ip-day', (limit) => `IP daily quota exceeded: ${limit}/day`],
  ];
  for (const [role, message] of checks) {
    const counter = byRole.get(role);
    if (!counter || counter.observed <= counter.limit) continue;
    const perMinute = counter.window.kind === 'minute';
    const retryAfterSeconds = secondsUntilReset(counter.window, nowMs);
    const details: Record<string, unknown> = {
      ...(role.startsWith('key') ? { scope } : {}),
      limit: counter.limit,
      window: counter.window.kind,
      observed: counter.observed,
      ...(perMinute ? { retryAfterSeconds } : {}),
    };
    return {
      headers: perMinute ? { ...headers, 'retry-after': String(retryAfterSeconds) } : headers,
      refusal: new ApiError('QUOTA_EXCEEDED', { message: message(counter.limit), details }),
    };
  }
  return { headers, refusal: undefined };
}
