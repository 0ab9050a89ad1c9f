import type { WindowHit } from '../../store/counters/counter-store.js';

/**
 * The counters the request limits count in: the port the edge's access gate
 * is given, so it sees the limits' vocabulary rather than the store's
 * (every CounterStore is one).
 */
export interface WindowCounters {
  /** Bumps every counter of `hits` atomically, in one round trip, and returns their new values in order. */
  incrementWindows(hits: readonly WindowHit[]): Promise<number[]>;
  /**
   * The same, answered at once, where the counters live in this process (the embedded store): the request path then
   * takes no trip through the microtask queue for them. Absent where counting is a round trip (Redis).
   */
  incrementWindowsNow?(hits: readonly WindowHit[]): number[];
}
