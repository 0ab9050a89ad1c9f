/**
 * Rate limits and sign-in lockouts while Redis is away: `incrementWindows` goes to the shared store and, when that
 * fails (refused, timed out), counts in this process's memory instead — fail open, but not unlimited. During an
 * outage each process therefore enforces every limit on its own share of the traffic (with N processes a client
 * may get up to N times a limit through), counting from zero; when Redis answers again the shared counts resume
 * where they were (what was counted locally is not carried over). Everything else (values, pings) goes to the
 * shared store as before, so `/ready` still reports the outage.
 */
import type { Logger } from '../../shared/logger.js';
import type { CounterStore, WindowHit } from './counter-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';

/** At most one log line per this long while counting locally. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;

export class LocalFallbackCounterStore implements CounterStore {
  private readonly local: MemoryCounterStore;
  private lastOutageLogMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly shared: CounterStore,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.local = new MemoryCounterStore(now);
  }

  get kind() {
    return this.shared.kind;
  }

  async incrementWindows(hits: readonly WindowHit[]): Promise<number[]> {
    try {
      return await this.shared.incrementWindows(hits);
    } catch (error) {
      const nowMs = this.now();
      if (nowMs - this.lastOutageLogMs >= OUTAGE_LOG_INTERVAL_MS) {
        this.lastOutageLogMs = nowMs;
        this.logger.error({ err: (error as Error).message }, 'counter store unavailable: limits counted in this process');
      }
      return this.local.incrementWindows(hits);
    }
  }

  readCounter(key: string) {
    return this.shared.readCounter(key);
  }

  setValue(key: string, value: string, ttlMs: number) {
    return this.shared.setValue(key, value, ttlMs);
  }

  getValue(key: string) {
    return this.shared.getValue(key);
  }

  deleteValue(key: string) {
    return this.shared.deleteValue(key);
  }

  takeValue(key: string) {
    return this.shared.takeValue(key);
  }

  ping() {
    return this.shared.ping();
  }

  async close() {
    await this.local.close();
    await this.shared.close();
  }
}
