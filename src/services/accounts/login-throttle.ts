import { ApiError } from '../../shared/errors.js';
import { limitBucketOf } from '../access/ip-address.js';
import { fixedWindow, secondsUntilReset } from '../limits/quota-windows.js';
import type { CounterStore } from '../../store/counters/counter-store.js';

/**
 * Brute-force lockout for password sign-in (documented in docs/accounts.md):
 * failures are counted in fixed 15-minute windows per account and per client
 * address; at the threshold, sign-in is refused with 429 until the window ends.
 */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;

export class LoginThrottle {
  constructor(
    private readonly counters: CounterStore,
    private readonly now: () => number = Date.now,
  ) {}


  /**
   * Counts this attempt atomically (before the slow password check, so parallel
   * guesses cannot all read "no failures yet") and throws 429 RATE_LIMITED when
   * the account or the address is over its threshold. Returns a refund to call
   * when the attempt turns out not to be a failure (right password, provider account).
   */
  async admit(email: string, address: string): Promise<() => Promise<void>> {
    // One clock reading: keys and expiry must come from the same window.
    const nowMs = this.now();
    const window = fixedWindow(nowMs, LOGIN_WINDOW_MS);
    const windowEndsAtMs = window.endsAtMs;
    const accountKey = `login-fail:account:${email}:${window.id}`;
    const addressKey = `login-fail:address:${limitBucketOf(address)}:${window.id}`;
    const [accountAttempts = 0, addressAttempts = 0] = await this.counters.incrementWindows([
      { key: accountKey, windowEndsAtMs },
      { key: addressKey, windowEndsAtMs },
    ]);
    if (accountAttempts > MAX_FAILURES_PER_ACCOUNT || addressAttempts > MAX_FAILURES_PER_ADDRESS) {
      const retryAfterSeconds = secondsUntilReset(window, nowMs);
      throw new ApiError('RATE_LIMITED', {
        message: 'Too many failed sign-in attempts; try again later',
        details: { retryAfterSeconds },
        headers: { 'retry-after': String(retryAfterSeconds) },
      });
    }
    return async () => {
      await this.counters.incrementWindows([
        { key: accountKey, windowEndsAtMs, by: -1 },
        { key: addressKey, windowEndsAtMs, by: -1 },
      ]);
    };
  }
}
