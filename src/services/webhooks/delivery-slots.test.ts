import { describe, expect, it } from 'vitest';
import { DeliverySlots } from './delivery-slots.js';

/** A task that runs until `finish` is called. */
function heldTask() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { finish, work: () => done.then(() => 'done') };
}

describe('DeliverySlots', () => {
  it('runs at most `capacity` tasks at once and serves waiters in order', async () => {
    const slots = new DeliverySlots(2);
    const signal = new AbortController().signal;
    const started: string[] = [];
    const [a, b, c, d] = [heldTask(), heldTask(), heldTask(), heldTask()];
    const runs = (
      [
        ['a', a],
        ['b', b],
        ['c', c],
        ['d', d],
      ] as const
    ).map(([name, task]) => slots.run(signal, () => (started.push(name), task.work())));
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    b.finish();
    await runs[1];
    expect(started).toEqual(['a', 'b', 'c']);
    a.finish();
    c.finish();
    d.finish();
    expect(await Promise.all(runs)).toEqual(['done', 'done', 'done', 'done']);
    expect(started).toEqual(['a', 'b', 'c', 'd']);
  });

  it('drops a waiter whose signal aborts, without running it or losing the slot', async () => {
    const slots = new DeliverySlots(1);
    const holder = heldTask();
    const held = slots.run(new AbortController().signal, holder.work);
    const cancelled = new AbortController();
    let ranCancelled = false;
    const waiting = slots.run(cancelled.signal, async () => {
      ranCancelled = true;
    });
    cancelled.abort();
    expect(await waiting).toBeUndefined();
    holder.finish();
    await held;
    expect(await slots.run(new AbortController().signal, async () => 'next')).toBe('next');
    expect(ranCancelled).toBe(false);
  });
});
