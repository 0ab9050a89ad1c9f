import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { FdWriter } from './fd-writer.js';
import { redactUrl } from './log-redaction.js';
import { infoLineWriter, LineBatcher, serializerOf, type Logger } from './logger.js';

const dir = mkdtempSync(join(tmpdir(), 'logger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('LineBatcher', () => {
  it('writes every line, in order, in batches, and all of them by the time flush calls back', async () => {
    const file = join(dir, 'log.ndjson');
    const fd = openSync(file, 'w');
    const batcher = new LineBatcher(new FdWriter(fd, (error) => expect.fail(error.message)), 100);
    const logger = pino({ base: null }, batcher);
    for (let index = 0; index < 50; index++) logger.info({ index, text: 'شارع عباس العقاد' }, 'line');
    // some batches went out as they filled; the rest waits for the flush
    await new Promise<void>((resolve, reject) => logger.flush((error) => (error ? reject(error) : resolve())));
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { index: number; text: string });
    expect(lines.map((line) => line.index)).toEqual(Array.from({ length: 50 }, (_, index) => index));
    expect(lines[7]!.text).toBe('شارع عباس العقاد');
    closeSync(fd);
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

  it('keeps the process serving, and able to end, when the reader of its output goes away (EPIPE)', async () => {
    const built = fileURLToPath(new URL('../../dist/shared/logger.js', import.meta.url));
    // After its first line the child waits for word (on stdin) that its reader has gone, then logs 200 lines and
    // ends as `end` says: a flush that must call back and a clean exit, or at once in the same turn (uncaught error,
    // process.exit()) with lines still queued behind the failing write.
    const ends = {
      flush: "logger.flush(() => setTimeout(() => { logger.info('still running'); logger.flush(() => process.exit(0)); }, 100))",
      uncaught: "JSON.parse('{')",
      exit: 'process.exit(2)',
    };
    const run = async (end: string) => {
      const script = `import { createLogger } from ${JSON.stringify(built)};
        const logger = createLogger({ LOG_LEVEL: 'info' });
        logger.info('first'); logger.flush();
        process.stdin.once('data', () => { for (let index = 0; index < 200; index++) logger.info({ index, pad: 'x'.repeat(400) }, 'after the reader left'); ${end}; });`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.stdout.once('data', () => {
        child.stdout.destroy();
        child.stdin.write('go\n');
      });
      const code = await new Promise<number | string>((resolve) => {
        // before: the first write after the reader left crashed the process, and a crash or exit with lines queued
        // hung in sonic-boom's synchronous flush, which retries a failed write forever
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve('hung');
        }, 10_000);
        child.once('exit', (exitCode) => {
          clearTimeout(timer);
          resolve(exitCode ?? 'signal');
        });
      });
      return { code, stderr };
    };
    const flushed = await run(ends.flush);
    expect(flushed.code).toBe(0);
    expect(flushed.stderr).toContain('logging stopped');
    expect((await run(ends.uncaught)).code).toBe(1);
    expect((await run(ends.exit)).code).toBe(2);
  });

  it('writes everything at exit behind a full pipe, a write waiting for its retry included, in order', async () => {
    const built = fileURLToPath(new URL('../../dist/shared/logger.js', import.meta.url));
    // process.stdout makes the pipe non-blocking (libuv), so a pipe nobody reads yet answers EAGAIN: the big line
    // waits for its retry timer when the process exits, and the exit drain must write it, not skip it
    // the child says on stderr when it is exiting (its listener runs before the logger's drain); only then does
    // this side start reading, so the drain meets a full pipe whatever the machine's load
    const script = `import { writeSync } from 'node:fs';
      import { createLogger } from ${JSON.stringify(built)};
      process.stdout;
      process.once('exit', () => writeSync(2, 'exiting\\n'));
      const logger = createLogger({ LOG_LEVEL: 'info' });
      logger.info({ big: 'A'.repeat(200_000) }, 'big');
      logger.info('after');
      setTimeout(() => process.exit(0), 100);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pause();
    let output = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (chunk.includes('exiting')) child.stdout.setEncoding('utf8').on('data', (data: string) => (output += data));
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    const lines = output.trim().split('\n').map((line) => JSON.parse(line) as { msg: string; big?: string });
    expect(lines.map((line) => line.msg)).toEqual(['big', 'after']);
    expect(lines[0]!.big).toHaveLength(200_000);
  });
});

describe('infoLineWriter', () => {
  const fields = { requestId: 'abc-1', method: 'GET', url: '/api/v1/x?api_key=secret&q="هلا\\\u0001', route: '/x/{id}', status: 200, durationMs: 0.123, remoteAddress: '::1' };
  const members = (logger: Logger) =>
    `,"requestId":${JSON.stringify(fields.requestId)},"method":"GET","url":${JSON.stringify(serializerOf(logger, 'url')!(fields.url))},"route":"/x/{id}","status":200,"durationMs":0.123,"remoteAddress":"::1"`;

  it('writes the very line pino writes for the same fields, bindings and serializers included', () => {
    const lines: string[] = [];
    const root = pino({ level: 'info', base: { pid: 42 }, serializers: { url: (url: unknown) => redactUrl(String(url)) } }, { write: (line: string) => lines.push(line) });
    for (const logger of [root, root.child({ worker: 'a"b' })]) {
      lines.length = 0;
      const fixedTime = Date.now;
      Date.now = () => 1_700_000_000_000;
      try {
        logger.info(fields, 'request');
        infoLineWriter(logger)!(members(logger), 'request');
      } finally {
        Date.now = fixedTime;
      }
      expect(lines[1]).toBe(lines[0]);
      expect(lines[0]).toContain('[redacted]');
    }
  });

  it('follows the clock and the message from line to line', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info', base: { pid: 42 } }, { write: (line: string) => lines.push(line) });
    const write = infoLineWriter(logger)!;
    const fixedTime = Date.now;
    try {
      for (const [nowMs, msg] of [[1_700_000_000_000, 'request'], [1_700_000_000_000, 'request'], [1_700_000_000_001, 'other "one"'], [1_700_000_000_000, 'request']] as const) {
        Date.now = () => nowMs;
        logger.info({ status: 200 }, msg);
        write(',"status":200', msg);
      }
    } finally {
      Date.now = fixedTime;
    }
    for (let at = 0; at < lines.length; at += 2) expect(lines[at + 1]).toBe(lines[at]);
  });

  it('declines loggers whose lines it could not repeat', () => {
    const sink = { write: () => undefined };
    expect(infoLineWriter(pino({ mixin: () => ({ extra: 1 }) }, sink))).toBeUndefined();
    expect(infoLineWriter(pino({ messageKey: 'message' }, sink))).toBeUndefined();
    expect(infoLineWriter(pino({ formatters: { level: (label: string) => ({ level: label }) } }, sink))).toBeUndefined();
    expect(infoLineWriter(pino({ hooks: { logMethod: (args, method) => method.apply(undefined, args) } }, sink))).toBeUndefined();
  });
});
