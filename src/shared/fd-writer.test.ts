import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FdWriter } from './fd-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'fd-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const flushed = (writer: FdWriter) => new Promise<Error | undefined>((resolve) => writer.flush(resolve));

describe('FdWriter', () => {
  it('writes every text in order; at exit, what waits behind the write in flight goes out at once', async () => {
    const file = join(dir, 'ordered.txt');
    const fd = openSync(file, 'w');
    const writer = new FdWriter(fd, (error) => expect.fail(error.message));
    const texts = Array.from({ length: 300 }, (_, index) => `${index} ${'ع'.repeat(index % 17)}\n`);
    for (const text of texts.slice(0, 200)) writer.write(text);
    expect(await flushed(writer)).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe(texts.slice(0, 200).join(''));
    // text 200 starts an asynchronous write; 201-298 queue behind it; 299 comes with the synchronous drain
    for (const text of texts.slice(200, 299)) writer.write(text);
    writer.flushSync(texts[299]);
    // written before flushSync returned, in order (the write in flight may land before or after them)
    expect(readFileSync(file, 'utf8')).toContain(texts.slice(201).join(''));
    expect(await flushed(writer)).toBeUndefined();
    closeSync(fd);
    const all = readFileSync(file, 'utf8');
    expect(all.length).toBe(texts.join('').length);
    expect(all.startsWith(texts.slice(0, 200).join(''))).toBe(true);
    expect(all).toContain(texts[200]);
  });

  it('ends for good at the first failed write: told once, flush answers the error, later writes are dropped, flushSync returns', async () => {
    // a descriptor that is not open (a closed one's number could be reused by the next open, anywhere in the process)
    const fd = 999_999;
    const failures: string[] = [];
    const writer = new FdWriter(fd, (error) => failures.push(error.code!));
    writer.write('a\n');
    writer.write('b\n');
    expect((await flushed(writer)) as NodeJS.ErrnoException).toMatchObject({ code: 'EBADF' });
    writer.write('c\n');
    writer.flushSync();
    expect(writer.failed).toBe(true);
    expect(failures).toEqual(['EBADF']);
  });

  it('drops what does not fit its queue (a reader that stopped must not grow the heap) and counts it', async () => {
    const file = join(dir, 'bounded.txt');
    const fd = openSync(file, 'w');
    const writer = new FdWriter(fd, (error) => expect.fail(error.message), 25);
    for (let index = 0; index < 5; index++) writer.write(`line ${index}\n`);
    expect(await flushed(writer)).toBeUndefined();
    closeSync(fd);
    // 7 bytes a line: three fit the 25-byte queue, the other two were dropped
    expect(readFileSync(file, 'utf8')).toBe('line 0\nline 1\nline 2\n');
    expect(writer.dropped).toBe(2);
  });
});
