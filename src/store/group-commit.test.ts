import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

describe('GroupCommit', () => {
  it('writes a lone item at once and batches what arrives during a write', async () => {
    const batches: number[][] = [];
    let finish: () => void = () => {};
    const commit = new GroupCommit<number, string>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (finish = resolve));
      return items.map((item) => `ok ${item}`);
    });
    const first = commit.submit(1);
    const waiting = [commit.submit(2), commit.submit(3), commit.submit(4)];
    expect(batches).toEqual([[1]]);
    finish();
    expect(await first).toBe('ok 1');
    expect(await Promise.all(waiting)).toEqual(['ok 2', 'ok 3', 'ok 4']);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('fails only the batch whose write failed, and keeps going', async () => {
    let calls = 0;
    const commit = new GroupCommit<number, number>(async (items) => {
      calls++;
      if (calls === 1) throw new Error('database down');
      return items;
    });
    await expect(commit.submit(1)).rejects.toThrow('database down');
    expect(await commit.submit(2)).toBe(2);
  });

  it('under load, lingers before a batch so more items share it', async () => {
    const sizes: number[] = [];
    const commit = new GroupCommit<number, number>(
      async (items) => {
        sizes.push(items.length);
        return items;
      },
      { lingerMs: 15 },
    );
    expect(await commit.submit(0)).toBe(0);
    // right after a flush: the next batch waits 15 ms, gathering the items submitted meanwhile
    const first = commit.submit(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = [commit.submit(2), commit.submit(3)];
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3]);
    expect(sizes).toEqual([1, 3]);
  });

  it('caps the batch size', async () => {
    const sizes: number[] = [];
    const commit = new GroupCommit<number, number>(async (items) => {
      sizes.push(items.length);
      await Promise.resolve();
      return items;
    }, { maxBatch: 2 });
    await Promise.all([1, 2, 3, 4, 5].map((item) => commit.submit(item)));
    expect(sizes).toEqual([1, 2, 2]);
  });
});
