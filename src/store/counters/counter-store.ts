/** One counter to bump: a key and the instant its fixed window ends. */
export interface WindowHit {
  key: string;
  /** Epoch ms at which the window (and the counter) expires. */
  windowEndsAtMs: number;
  /** Amount to add; default 1. */
  by?: number;
}

/**
 * Counters and hot state shared by all edge processes. Redis in production,
 * process memory on the embedded default; both give the same semantics.
 */
export interface CounterStore {
  readonly kind: 'redis' | 'memory';
  /**
   * Atomically increments every counter of `hits` (all or none) and returns
   * their new values in order. A counter created by the call expires when its
   * window ends. One round trip however many counters.
   */
  incrementWindows(hits: readonly WindowHit[]): Promise<number[]>;
  /** Current value of a counter, 0 when absent or expired. */
  readCounter(key: string): Promise<number>;
  /** Stores a value that disappears after `ttlMs`. */
  setValue(key: string, value: string, ttlMs: number): Promise<void>;
  getValue(key: string): Promise<string | null>;
  deleteValue(key: string): Promise<void>;
  /** Reads and deletes a value atomically: of two concurrent takes, only one gets it (single-use tokens). */
  takeValue(key: string): Promise<string | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
