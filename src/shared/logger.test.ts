import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { LineBatcher } from './logger.js';

const dir = mkdtempSync(join(tmpdir(), 'logger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('LineBatcher', () => {
  it('writes every line, in order, in batches, and all of them by the time flush calls back', async () => {
    const file = join(dir, 'log.ndjson');
    const destination = pino.destination({ dest: file, sync: false, minLength: 1 });
    await new Promise((resolve) => destination.once('ready', resolve));
    const batcher = new LineBatcher(destination, 100);
    const logger = pino({ base: null }, batcher);
    for (let index = 0; index < 50; index++) logger.info({ index, text: 'شارع عباس العقاد' }, 'line');
    // some batches went out as they filled; the rest waits for the flush
    await new Promise<void>((resolve, reject) => logger.flush((error) => (error ? reject(error) : resolve())));
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { index: number; text: string });
    expect(lines.map((line) => line.index)).toEqual(Array.from({ length: 50 }, (_, index) => index));
    expect(lines[7]!.text).toBe('شارع عباس العقاد');
  });
});
