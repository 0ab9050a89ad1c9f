import { describe, expect, it } from 'vitest';
import { FifoSlots, SlotQueueFullError } from './fifo-slots.js';

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('FifoSlots', () => {
  it('hands slots out at once while free, then strictly in arrival order', async () => {
    const slots = new FifoSlots(2);
    const order: number[] = [];
    const acquirers = Array.from({ length: 6 }, (_, index) => slots.acquire().then(() => order.push(index)));
    await settled();
    expect(order).toEqual([0, 1]);
    expect(slots.queued).toBe(4);
    for (let release = 0; release < 4; release++) {
      slots.release();
      await settled();
    }
    await Promise.all(acquirers);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(slots.queued).toBe(0);
  });

  it('drops a waiter whose signal aborts (rejecting with its reason) without spending a slot on it', async () => {
    const slots = new FifoSlots(1);
    await slots.acquire();
    const leaving = new AbortController();
    const order: string[] = [];
    const gone = slots.acquire(leaving.signal).then(() => order.push('gone'), (reason: unknown) => order.push(`rejected:${String(reason)}`));
    const next = slots.acquire(new AbortController().signal).then(() => order.push('next'));
    leaving.abort('client left');
    await gone;
    slots.release();
    await next;
    expect(order).toEqual(['rejected:client left', 'next']);
    // the slot went to `next`; once it is back, a newcomer gets it at once
    slots.release();
    await expect(slots.acquire()).resolves.toBeUndefined();
  });

  it('refuses an already aborted caller', async () => {
    const slots = new FifoSlots(1);
    const aborted = new AbortController();
    aborted.abort();
    await expect(slots.acquire(aborted.signal)).rejects.toThrow(/aborted/);
    await expect(slots.acquire()).resolves.toBeUndefined();
  });

  it('keeps its order over many rounds (the array is compacted as it drains)', async () => {
    const slots = new FifoSlots(1);
    await slots.acquire();
    const order: number[] = [];
    const all = Array.from({ length: 3000 }, (_, index) => slots.acquire().then(() => order.push(index)));
    for (let index = 0; index < 3000; index++) {
      slots.release();
      await Promise.resolve();
      await Promise.resolve();
    }
    await Promise.all(all);
    expect(order).toEqual(Array.from({ length: 3000 }, (_, index) => index));
  });

  it('refuses a caller at once when maxWaiting callers already wait, and takes callers again as the line shortens', async () => {
    const slots = new FifoSlots(1, 2);
    await slots.acquire();
    const first = slots.acquire();
    const leaving = new AbortController();
    const second = slots.acquire(leaving.signal);
    await expect(slots.acquire()).rejects.toBeInstanceOf(SlotQueueFullError);
    await expect(slots.acquire()).rejects.toThrow(/2 tasks are already waiting/);
    expect(slots.queued).toBe(2);
    // an abandoned waiter leaves the line at once, before its turn comes
    leaving.abort('gone');
    await expect(second).rejects.toBe('gone');
    expect(slots.queued).toBe(1);
    const third = slots.acquire();
    expect(slots.queued).toBe(2);
    const order: string[] = [];
    void first.then(() => order.push('first'));
    void third.then(() => order.push('third'));
    slots.release();
    await settled();
    slots.release();
    await settled();
    expect(order).toEqual(['first', 'third']);
    expect(slots.queued).toBe(0);
  });

  it('lets an unbounded caller wait past the bound (work the server itself needs)', async () => {
    const slots = new FifoSlots(1, 1);
    await slots.acquire();
    const waiting = slots.acquire();
    const internal = slots.acquire(undefined, false);
    expect(slots.queued).toBe(2);
    slots.release();
    slots.release();
    await expect(Promise.all([waiting, internal])).resolves.toEqual([undefined, undefined]);
  });
});
