import { describe, expect, it } from 'vitest';
import { BatchingCounterStore } from './batching-counter-store.js';
import { coalesceHits } from './coalesced-increments.js';
import { MemoryCounterStore } from './memory-counter-store.js';
import type { WindowHit } from './counter-store.js';
import { decide, planCounters, type LimitRequest } from '../../services/limits/request-limits.js';

const WINDOW_END = Date.now() + 60_000;
const hit = (key: string, by?: number): WindowHit => ({ key, windowEndsAtMs: WINDOW_END, ...(by === undefined ? {} : { by }) });

/** The memory store, recording the hits of every call and answering after a delay (a round trip). */
function recordingStore(delayMs = 2) {
  const inner = new MemoryCounterStore();
  const calls: WindowHit[][] = [];
  const original = inner.incrementWindows.bind(inner);
  inner.incrementWindows = async (hits: readonly WindowHit[]) => {
    calls.push(hits.map((one) => ({ ...one })));
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return original(hits);
  };
  return { inner, calls };
}

describe('coalesceHits', () => {
  it('sends each counter once with the summed amount and answers each hit its value in arrival order', () => {
    const coalesced = coalesceHits([[hit('a'), hit('b')], [hit('a', 3)], [hit('c'), hit('a'), hit('a', 2)]]);
    expect(coalesced.hits.map(({ key, by }) => [key, by])).toEqual([
      ['a', 7],
      ['b', 1],
      ['c', 1],
    ]);
    // the counters held a = 10, b = 0, c = 4 before the batch
    expect(coalesced.answer([17, 1, 5])).toEqual([[11, 1], [14], [5, 15, 17]]);
  });

  it('keeps the first hit’s window end (the hit that would have created the counter)', () => {
    const coalesced = coalesceHits([[{ key: 'a', windowEndsAtMs: 1_000 }], [{ key: 'a', windowEndsAtMs: 2_000 }]]);
    expect(coalesced.hits).toEqual([{ key: 'a', windowEndsAtMs: 1_000, by: 2 }]);
  });
});

describe('BatchingCounterStore coalescing', () => {
  it('gives every caller exactly the value running the calls one by one gives (random workloads, refunds of -1 included)', async () => {
    let seed = 3;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const { inner, calls } = recordingStore();
    const store = new BatchingCounterStore(inner);
    const sequential = new MemoryCounterStore();
    for (let round = 0; round < 20; round++) {
      const workload = Array.from({ length: 1 + Math.floor(random() * 40) }, () =>
        Array.from({ length: 1 + Math.floor(random() * 5) }, () => hit(`k${Math.floor(random() * 6)}`, [1, 1, 2, 3, -1][Math.floor(random() * 5)])),
      );
      const batched = await Promise.all(workload.map((hits) => store.incrementWindows(hits)));
      const expected: number[][] = [];
      for (const hits of workload) expected.push(await sequential.incrementWindows(hits));
      expect(batched).toEqual(expected);
    }
    // the joined calls went as far fewer counters than hits
    expect(calls.every((hits) => new Set(hits.map((one) => one.key)).size === hits.length)).toBe(true);
  });

  it('sends one counter shared by many concurrent callers once per round trip', async () => {
    const { inner, calls } = recordingStore();
    const store = new BatchingCounterStore(inner);
    const values = await Promise.all(Array.from({ length: 100 }, (_, index) => store.incrementWindows([hit('quota:key:k:m'), hit(`throttle:${index}`)])));
    expect(values.map(([shared]) => shared)).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
    expect(values.every(([, own]) => own === 1)).toBe(true);
    // the 100 calls of one event-loop phase in one round trip: 1 + 100 distinct keys, not 200 hits
    expect(calls.map((hits) => hits.length)).toEqual([101]);
    expect(calls[0]![0]).toMatchObject({ key: 'quota:key:k:m', by: 100 });
  });

  it('fails every caller of a batch when the store fails, and serves the next batch', async () => {
    const inner = new MemoryCounterStore();
    let fail = false;
    const original = inner.incrementWindows.bind(inner);
    inner.incrementWindows = async (hits: readonly WindowHit[]) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      if (fail) throw new Error('redis down');
      return original(hits);
    };
    const store = new BatchingCounterStore(inner);
    const first = store.incrementWindows([hit('x')]);
    fail = true;
    const waiting = Array.from({ length: 5 }, () => store.incrementWindows([hit('x'), hit('y')]).then(() => 'ok', (error: Error) => error.message));
    await expect(first).rejects.toThrow('redis down');
    expect(await Promise.all(waiting)).toEqual(Array(5).fill('redis down'));
    fail = false;
    expect(await store.incrementWindows([hit('x')])).toEqual([1]);
  });

  it('refuses exactly the messages past a limit when they come in one batch', async () => {
    const { inner } = recordingStore();
    const store = new BatchingCounterStore(inner);
    const key = { id: 'key-1', unlimited: false, quotaPerMinute: 30, quotaPerDay: 1_000 };
    const request = (index: number): LimitRequest => ({
      nowMs: Date.now(),
      clientIp: `10.0.0.${index % 4}`,
      endpoint: 'POST /navigation/sessions/{id}/positions',
      scoped: true,
      scope: 'routing',
      key,
    });
    const decisions = await Promise.all(
      Array.from({ length: 45 }, async (_, index) => {
        const planned = planCounters(request(index));
        return decide(request(index), planned, await store.incrementWindows(planned.map((counter) => counter.hit)));
      }),
    );
    const refused = decisions.map((decision) => decision.refusal !== undefined);
    // the key's minute quota is 30: the first 30 pass, the 31st and later are refused, in arrival order
    expect(refused).toEqual([...Array(30).fill(false), ...Array(15).fill(true)]);
    expect(decisions[29]!.headers['x-svc-quota-remaining-minute']).toBe('0');
    expect(decisions[30]!.refusal?.details).toMatchObject({ limit: 30, observed: 31 });
  });
});
