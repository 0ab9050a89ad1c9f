import { describe, expect, it } from 'vitest';
import { MemoryWorkQueue } from './memory-work-queue.js';
import type { WorkItem } from './work-queue.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('MemoryWorkQueue', () => {
  it('delivers each id once until acknowledged, at most `concurrency` at a time, and drops duplicates', async () => {
    const queue = new MemoryWorkQueue({ name: 'test', ackWaitMs: 60_000 });
    const seen: string[] = [];
    let running = 0;
    let most = 0;
    queue.consume(async (item) => {
      running++;
      most = Math.max(most, running);
      seen.push(item.id);
      await settle();
      running--;
      await item.ack();
    }, { concurrency: 2 });
    for (const id of ['a', 'b', 'a', 'c', 'd']) await queue.enqueue(id);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(seen.sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(most).toBe(2);
    await queue.close();
  });

  it('delivers again what was retried, what failed, and what was neither acknowledged nor retried within the ack wait', async () => {
    const queue = new MemoryWorkQueue({ name: 'test', ackWaitMs: 50 });
    const deliveries = new Map<string, number[]>();
    queue.consume(async (item: WorkItem) => {
      deliveries.set(item.id, [...(deliveries.get(item.id) ?? []), item.deliveries]);
      if (item.deliveries === 1 && item.id === 'retried') return item.retry(10);
      if (item.deliveries === 1 && item.id === 'failed') throw new Error('boom');
      if (item.deliveries === 1 && item.id === 'silent') return; // a processor that died holding it
      await item.ack();
    }, { concurrency: 4 });
    for (const id of ['retried', 'failed', 'silent', 'plain']) await queue.enqueue(id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(Object.fromEntries(deliveries)).toEqual({ retried: [1, 2], failed: [1, 2], silent: [1, 2], plain: [1] });
    // acknowledged: an enqueue of the same id is new work
    await queue.enqueue('plain');
    await settle();
    expect(deliveries.get('plain')).toEqual([1, 1]);
    await queue.close();
  });
});
