import { describe, expect, it } from 'vitest';
import { Mailbox, MailboxFullError } from './mailbox.js';

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('Mailbox', () => {
  it('runs messages one at a time in arrival order, each to completion', async () => {
    const mailbox = new Mailbox(10);
    const log: string[] = [];
    const work = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await later(null, ms);
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([mailbox.post(work('a', 20)), mailbox.post(work('b', 1)), mailbox.post(work('c', 5))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('keeps going after a failed message, and after it has run empty', async () => {
    const mailbox = new Mailbox(10);
    await expect(
      mailbox.post(() => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await mailbox.post(() => 1)).toBe(1);
    expect(mailbox.depth).toBe(0);
    await later(null, 1);
    const order: number[] = [];
    await Promise.all([mailbox.post(async () => order.push(await later(1, 5))), mailbox.post(() => order.push(2))]);
    expect(order).toEqual([1, 2]);
  });

  it('refuses messages beyond its capacity at once', async () => {
    const mailbox = new Mailbox(2);
    const slow = [mailbox.post(() => later(1, 10)), mailbox.post(() => later(2, 1))];
    await expect(mailbox.post(() => 3)).rejects.toBeInstanceOf(MailboxFullError);
    expect(await Promise.all(slow)).toEqual([1, 2]);
    expect(await mailbox.post(() => 4)).toBe(4);
  });
});
