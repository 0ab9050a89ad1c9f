import { afterAll, describe, expect, it } from 'vitest';
import { fnv1a } from './diagnostics/describe-shared-data.js';
import { toSharedBuffer } from './shared-data.js';
import { SlotQueueFullError } from './fifo-slots.js';
import { SolverPool } from './solver-pool.js';

const graph = toSharedBuffer(Uint8Array.from({ length: 4096 }, (_, index) => (index * 31) % 251));
const pool = new SolverPool({ threads: 2, shared: { graph } });

afterAll(async () => {
  await pool.close();
});

describe('SolverPool', () => {
  it('runs named tasks on worker threads that see the shared data', async () => {
    const result = await pool.run('describeSharedData', undefined);
    expect(result).toEqual({ ok: true, value: { buffers: { graph: { byteLength: 4096, fnv1a: fnv1a(new Uint8Array(graph)) } } } });
  });

  it('shares the memory instead of copying it', async () => {
    // A write on the main thread is visible to the workers: proof that no copy was taken.
    new Uint8Array(graph)[0] = 99;
    const results = await Promise.all(Array.from({ length: 4 }, () => pool.run('describeSharedData', undefined)));
    for (const result of results) {
      expect(result.ok && result.value.buffers.graph?.fnv1a).toBe(fnv1a(new Uint8Array(graph)));
    }
  });

  it('answers a probe on an idle pool with a task round trip', async () => {
    await expect(pool.probe(60_000)).resolves.toBeUndefined();
  });

  it('runs tasks that carry a signal first come, first served when every worker is busy', async () => {
    const single = new SolverPool({ threads: 1, shared: { graph } });
    try {
      await single.run('describeSharedData', undefined);
      const order: number[] = [];
      await Promise.all(
        Array.from({ length: 12 }, (_, index) => single.run('describeSharedData', undefined, new AbortController().signal).then(() => order.push(index))),
      );
      expect(order).toEqual(Array.from({ length: 12 }, (_, index) => index));
    } finally {
      await single.close();
    }
  });

  it('refuses a task at once when maxQueued tasks already wait for a worker, and runs the others', async () => {
    const single = new SolverPool({ threads: 1, maxQueued: 3, shared: { graph } });
    try {
      await single.run('describeSharedData', undefined);
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => single.run('describeSharedData', undefined)));
      // one runs, three wait, four are refused
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected', 'rejected']);
      for (const outcome of outcomes.slice(4)) expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(SlotQueueFullError);
      // an unbounded task waits regardless
      const unbounded = await Promise.all(Array.from({ length: 6 }, () => single.run('describeSharedData', undefined, undefined, { unbounded: true })));
      expect(unbounded.every((result) => result.ok)).toBe(true);
    } finally {
      await single.close();
    }
  });

  it('cancels a task whose caller gave up', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(pool.run('describeSharedData', undefined, controller.signal)).rejects.toThrow();
  });
});
