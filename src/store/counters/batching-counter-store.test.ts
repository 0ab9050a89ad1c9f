import { describe, expect, it } from 'vitest';
import { BatchingCounterStore } from './batching-counter-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';
import type { WindowHit } from './counter-store.js';

/** The memory store, recording how many times it was called. */
function countingStore() {
  const inner = new MemoryCounterStore();
  const calls: number[] = [];
  const original = inner.incrementWindows.bind(inner);
  inner.incrementWindows = async (hits: readonly WindowHit[]) => {
    calls.push(hits.length);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return original(hits);
  };
  return { inner, calls };
}

const hit = (key: string, by = 1): WindowHit => ({ key, windowEndsAtMs: Date.now() + 60_000, by });

describe('BatchingCounterStore', () => {
  it('sends the calls of one event-loop phase together (the messages of the sockets ready together)', async () => {
    const { inner, calls } = countingStore();
    const store = new BatchingCounterStore(inner);
    const values = await Promise.all([store.incrementWindows([hit('a')]), store.incrementWindows([hit('a'), hit('b')]), store.incrementWindows([hit('c')])]);
    expect(values).toEqual([[1], [2, 1], [1]]);
    expect(calls).toEqual([3]);
  });

  it('joins calls that arrive while one is in flight, each seeing its own counts in arrival order', async () => {
    const { inner, calls } = countingStore();
    const store = new BatchingCounterStore(inner);
    const first = store.incrementWindows([hit('a'), hit('b')]);
    // a later phase: the first batch has left
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [store.incrementWindows([hit('a')]), store.incrementWindows([hit('a', 5), hit('c')]), store.incrementWindows([hit('b')])];
    expect(await first).toEqual([1, 1]);
    expect(await Promise.all(rest)).toEqual([[2], [7, 1], [2]]);
    // the second round trip carries a (summed: 1 + 5), c and b: three counters for four hits
    expect(calls).toEqual([2, 3]);
    expect(await store.readCounter('a')).toBe(7);
  });

  it('passes failures to every caller of the batch and keeps working', async () => {
    const inner = new MemoryCounterStore();
    let fail = true;
    const original = inner.incrementWindows.bind(inner);
    inner.incrementWindows = async (hits: readonly WindowHit[]) => {
      if (fail) throw new Error('redis down');
      return original(hits);
    };
    const store = new BatchingCounterStore(inner);
    await expect(store.incrementWindows([hit('x')])).rejects.toThrow('redis down');
    fail = false;
    expect(await store.incrementWindows([hit('x')])).toEqual([1]);
    expect(await store.incrementWindows([])).toEqual([]);
  });
});
