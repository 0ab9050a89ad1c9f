import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

  it('writes the lines still gathered when the process ends: process.exit(), an uncaught error, the loop running dry', () => {
    // the built logger, as the server runs it (npm test builds first)
    const built = fileURLToPath(new URL('../../dist/shared/logger.js', import.meta.url));
    const ending = ['process.exit(3)', "throw new Error('boom')", ''];
    for (const end of ending) {
      const script = `import { createLogger } from ${JSON.stringify(built)}; createLogger({ LOG_LEVEL: 'info' }).error({ end: ${JSON.stringify(end)} }, 'last words'); ${end}`;
      let output: string;
      try {
        output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      } catch (error) {
        output = (error as { stdout: string }).stdout;
      }
      expect(output, end || 'natural end').toContain('"msg":"last words"');
    }
  });

  it('keeps the process running and able to end when the reader of its output goes away (EPIPE)', async () => {
    const built = fileURLToPath(new URL('../../dist/shared/logger.js', import.meta.url));
    // logs once, then (after the reader has left) many more lines, a flush that must call back, and a clean exit
    const script = `import { createLogger } from ${JSON.stringify(built)};
      const logger = createLogger({ LOG_LEVEL: 'info' });
      logger.info('first'); logger.flush();
      setTimeout(() => {
        for (let index = 0; index < 200; index++) logger.info({ index }, 'after the reader left');
        logger.flush(() => setTimeout(() => { logger.info('still running'); logger.flush(() => process.exit(0)); }, 100));
      }, 500);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | string>((resolve) => {
      // before the fix the process crashed on the EPIPE and then hung in sonic-boom's flushSync at exit
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('hung');
      }, 10_000);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode ?? 'signal');
      });
    });
    expect(code).toBe(0);
    expect(stderr).toContain('logging stopped');
    expect(stderr).not.toContain('Error');
  });
});
