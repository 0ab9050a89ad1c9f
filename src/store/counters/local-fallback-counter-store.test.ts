import { describe, expect, it } from 'vitest';
import { createLogger } from '../../shared/logger.js';
import type { CounterStore } from './counter-store.js';
import { LocalFallbackCounterStore } from './local-fallback-counter-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';

const hit = (key: string) => ({ key, windowEndsAtMs: Date.now() + 60_000 });

/** A shared store that can be switched off: its counting commands then fail as the Redis client's do. */
function switchable(): { store: CounterStore; up: boolean } {
  const inner = new MemoryCounterStore();
  const state = { up: true, store: undefined as unknown as CounterStore };
  state.store = Object.assign(Object.create(inner) as CounterStore, {
    incrementWindows: (hits: Parameters<CounterStore['incrementWindows']>[0]) => (state.up ? inner.incrementWindows(hits) : Promise.reject(new Error('The client is closed'))),
  });
  return state;
}

describe('LocalFallbackCounterStore', () => {
  it('counts in the shared store while it answers, in process memory while it does not, and in the shared store again after', async () => {
    const shared = switchable();
    const counters = new LocalFallbackCounterStore(shared.store, createLogger({ LOG_LEVEL: 'silent' }));
    expect(await counters.incrementWindows([hit('a'), hit('b')])).toEqual([1, 1]);
    expect(await counters.incrementWindows([hit('a')])).toEqual([2]);
    shared.up = false;
    // limits still count (from zero, in this process), never refuse the request outright
    expect(await counters.incrementWindows([hit('a')])).toEqual([1]);
    expect(await counters.incrementWindows([hit('a')])).toEqual([2]);
    shared.up = true;
    expect(await counters.incrementWindows([hit('a')])).toEqual([3]);
    await counters.close();
  });
});
