/**
 * Sends concurrent `incrementWindows` calls to the underlying store together:
 * while one call is in flight, the calls that arrive meanwhile are joined
 * into one (the Redis script runs their hits one after the other, so each
 * caller still sees the counts as if its call ran alone, in arrival order).
 * Under load — every request and every navigation stream message counts its
 * limits — one round trip then serves hundreds of requests instead of one.
 * Hits on the same counter within a batch go to Redis once, summed
 * (coalesced-increments.ts), with each caller's own value worked out here.
 */
import { GroupCommit } from '../group-commit.js';
import { coalesceHits } from './coalesced-increments.js';
import type { CounterStore, WindowHit } from './counter-store.js';

export class BatchingCounterStore implements CounterStore {
  private readonly increments: GroupCommit<readonly WindowHit[], number[]>;

  constructor(private readonly inner: CounterStore) {
    this.increments = new GroupCommit(async (calls) => {
      const coalesced = coalesceHits(calls);
      return coalesced.answer(await inner.incrementWindows(coalesced.hits));
    }, { maxBatch: MAX_CALLS_PER_ROUND_TRIP, gatherPhase: true });
  }

  get kind() {
    return this.inner.kind;
  }

  incrementWindows(hits: readonly WindowHit[]): Promise<number[]> {
    if (hits.length === 0) return Promise.resolve([]);
    return this.increments.submit(hits);
  }

  readCounter(key: string) {
    return this.inner.readCounter(key);
  }

  setValue(key: string, value: string, ttlMs: number) {
    return this.inner.setValue(key, value, ttlMs);
  }

  getValue(key: string) {
    return this.inner.getValue(key);
  }

  deleteValue(key: string) {
    return this.inner.deleteValue(key);
  }

  takeValue(key: string) {
    return this.inner.takeValue(key);
  }

  ping() {
    return this.inner.ping();
  }

  close() {
    return this.inner.close();
  }
}

/** Calls joined into one script run at most (each is a handful of counters). */
const MAX_CALLS_PER_ROUND_TRIP = 256;
