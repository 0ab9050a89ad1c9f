import { afterAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { BatchingCounterStore } from '../src/store/counters/batching-counter-store.js';
import type { CounterStore } from '../src/store/counters/counter-store.js';
import { MemoryCounterStore } from '../src/store/counters/memory-counter-store.js';
import { RedisCounterStore } from '../src/store/counters/redis-counter-store.js';
import { realServices, uniqueName } from './support/services.js';

const logger = pino({ level: 'silent' });
const stores: CounterStore[] = [];

async function redisStore(): Promise<CounterStore> {
  const store = new RedisCounterStore({ url: realServices.redisUrl, prefix: `${uniqueName('ct')}:`, logger });
  expect(await store.connect()).toBe(true);
  // Fails (not skips) when Redis is missing.
  await store.ping();
  stores.push(store);
  return store;
}

/** As production composes it: calls joined and same counters coalesced in front of Redis. */
async function batchingRedisStore(): Promise<CounterStore> {
  return new BatchingCounterStore(await redisStore());
}

async function memoryStore(): Promise<CounterStore> {
  const store = new MemoryCounterStore();
  stores.push(store);
  return store;
}

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});

describe.each([
  ['memory', memoryStore],
  ['redis', redisStore],
  ['batching redis', batchingRedisStore],
])('CounterStore on %s', (_, makeStore) => {
  it('increments several windows atomically in one call', async () => {
    const store = await makeStore();
    const endsAt = Date.now() + 60_000;
    expect(await store.incrementWindows([{ key: 'a', windowEndsAtMs: endsAt }, { key: 'b', windowEndsAtMs: endsAt, by: 5 }])).toEqual([1, 5]);
    expect(await store.incrementWindows([{ key: 'a', windowEndsAtMs: endsAt }, { key: 'b', windowEndsAtMs: endsAt }])).toEqual([2, 6]);
    expect(await store.readCounter('a')).toBe(2);
    expect(await store.incrementWindows([])).toEqual([]);
  });

  it('counts exactly under concurrency', async () => {
    const store = await makeStore();
    const endsAt = Date.now() + 60_000;
    const results = await Promise.all(
      Array.from({ length: 300 }, () => store.incrementWindows([{ key: 'hot', windowEndsAtMs: endsAt }])),
    );
    const values = results.map(([value]) => value).sort((x, y) => x! - y!);
    expect(values).toEqual(Array.from({ length: 300 }, (_, index) => index + 1));
  });

  it('expires a window counter when its window ends, not when it is bumped again', async () => {
    const store = await makeStore();
    const endsAt = Date.now() + 400;
    await store.incrementWindows([{ key: 'w', windowEndsAtMs: endsAt }]);
    // A later bump must not push the expiry out (fixed windows, not sliding).
    await store.incrementWindows([{ key: 'w', windowEndsAtMs: endsAt + 60_000 }]);
    expect(await store.readCounter('w')).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await store.readCounter('w')).toBe(0);
    expect(await store.incrementWindows([{ key: 'w', windowEndsAtMs: Date.now() + 60_000 }])).toEqual([1]);
  });

  it('stores hot values with a time to live', async () => {
    const store = await makeStore();
    await store.setValue('session', 'revoked', 300);
    expect(await store.getValue('session')).toBe('revoked');
    await store.setValue('other', 'x', 60_000);
    await store.deleteValue('other');
    expect(await store.getValue('other')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await store.getValue('session')).toBeNull();
  });

  it('hands a single-use value to exactly one of concurrent takers', async () => {
    const store = await makeStore();
    await store.setValue('state', 'once', 60_000);
    const taken = await Promise.all(Array.from({ length: 10 }, () => store.takeValue('state')));
    expect(taken.filter((value) => value === 'once')).toHaveLength(1);
    expect(await store.getValue('state')).toBeNull();
  });

  it('answers a ping', async () => {
    const store = await makeStore();
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

describe('RedisCounterStore without Redis', () => {
  it('fails fast instead of queueing while Redis is unreachable', async () => {
    const store = new RedisCounterStore({ url: 'redis://127.0.0.1:1', prefix: 'x:', logger });
    expect(await store.connect(300)).toBe(false);
    const startedAt = Date.now();
    await expect(store.ping()).rejects.toThrow();
    await expect(store.incrementWindows([{ key: 'k', windowEndsAtMs: Date.now() + 1000 }])).rejects.toThrow();
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    await store.close();
  });
});
