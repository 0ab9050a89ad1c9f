import type { CounterStore, WindowHit } from './counter-store.js';

interface Entry {
  /** Counters stay numbers and are bumped in place (no allocation per request); values set as text stay text. */
  value: string | number;
  expiresAtMs: number;
}

/** How often expired entries are swept, so idle keys do not accumulate. */
const SWEEP_INTERVAL_MS = 30_000;

/**
 * In-process counters for the embedded default. JavaScript runs one callback at
 * a time, so each call is atomic without locks.
 */
export class MemoryCounterStore implements CounterStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async incrementWindows(hits: readonly WindowHit[]): Promise<number[]> {
    return this.incrementWindowsNow(hits);
  }

  incrementWindowsNow(hits: readonly WindowHit[]): number[] {
    const nowMs = this.now();
    return hits.map((hit) => {
      const current = this.live(hit.key, nowMs);
      if (!current) {
        const first = hit.by ?? 1;
        this.entries.set(hit.key, { value: first, expiresAtMs: hit.windowEndsAtMs });
        return first;
      }
      const next = Number(current.value) + (hit.by ?? 1);
      current.value = next;
      return next;
    });
  }

  async readCounter(key: string): Promise<number> {
    const entry = this.live(key, this.now());
    return entry ? Number(entry.value) : 0;
  }

  async setValue(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.set(key, { value, expiresAtMs: this.now() + ttlMs });
  }

  async getValue(key: string): Promise<string | null> {
    const entry = this.live(key, this.now());
    return entry ? String(entry.value) : null;
  }

  async deleteValue(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async takeValue(key: string): Promise<string | null> {
    const entry = this.live(key, this.now());
    this.entries.delete(key);
    return entry ? String(entry.value) : null;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  private live(key: string, nowMs: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(): void {
    const nowMs = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAtMs <= nowMs) this.entries.delete(key);
  }
}
