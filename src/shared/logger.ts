import { writeSync } from 'node:fs';
import { pino, type DestinationStream, type Logger } from 'pino';
import sonicBoom from 'sonic-boom';

// a CommonJS module: its class is a property of the default export
const { SonicBoom } = sonicBoom;
type SonicBoom = InstanceType<typeof SonicBoom>;
import type { Config } from './config.js';

export type { Logger };

/** Log lines are written in batches of about this size under load... */
const LOG_BATCH_CHARS = 4096;
/** ...and at least this often when traffic is light, so a line never waits long. */
const LOG_FLUSH_INTERVAL_MS = 200;

/**
 * Gathers lines and hands them to the destination a batch at a time. The destination's own batching (`minLength`)
 * appends each line to a growing string and measures that string's UTF-8 length on every line, which flattens it:
 * about 8 KB of garbage per 200-byte request line, a third of everything a request allocated. Here a batch is
 * joined once.
 */
export class LineBatcher implements DestinationStream {
  private lines: string[] = [];
  private chars = 0;
  /** The destination failed a write: nothing more goes to it (see `onDestinationError`). */
  private failed = false;

  constructor(
    private readonly destination: SonicBoom,
    private readonly batchChars = LOG_BATCH_CHARS,
  ) {
    destination.on('error', (error: NodeJS.ErrnoException) => this.onDestinationError(error));
  }

  write(line: string): boolean {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= this.batchChars) this.release();
    return true;
  }

  /** Hands the waiting lines on, then flushes the destination (pino's `logger.flush(cb)` lands here). */
  flush(callback?: (error?: Error) => void): void {
    this.release();
    if (this.destroyed) {
      callback?.();
      return;
    }
    this.destination.flush(callback);
  }

  /**
   * Writes everything still waiting, synchronously: the process is ending and no callback will run (an asynchronous
   * write started now would never finish). The destination's pending data first, then the lines gathered here.
   */
  flushSync(): void {
    if (this.destroyed) return;
    try {
      this.destination.flushSync();
    } catch {
      // a write in flight or a closed descriptor at exit: what it holds cannot be rescued
    }
    const batch = this.take();
    if (batch === undefined) return;
    try {
      writeSync((this.destination as unknown as { fd: number }).fd, batch);
    } catch {
      // stdout closed or full at exit: nothing more can be done
    }
  }

  get destroyed(): boolean {
    return this.failed || (this.destination as unknown as { destroyed: boolean }).destroyed;
  }

  /**
   * A failed write ends logging for good. sonic-boom's `flushSync` retries a failed write forever (it only gives up
   * on EAGAIN), so one more write at exit would hang the process instead of ending it: with stdout piped to a reader
   * that went away, the first line after would crash the server and leave it stuck. A reader gone (EPIPE) is said
   * once on stderr and the server goes on without logs, as pino's own destination does; any other error is thrown
   * on as an uncaught error (the process ends, and now can).
   */
  private onDestinationError(error: NodeJS.ErrnoException): void {
    if (this.failed) return;
    this.failed = true;
    this.lines = [];
    this.chars = 0;
    if (error.code !== 'EPIPE') throw error;
    try {
      writeSync(2, `${JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, msg: 'log output closed (EPIPE): logging stopped' })}\n`);
    } catch {
      // stderr is gone too: nothing to tell
    }
  }

  /** The waiting lines as one text (undefined when none), and none waiting after. */
  private take(): string | undefined {
    if (this.lines.length === 0) return undefined;
    const batch = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.chars = 0;
    return batch;
  }

  /** Hands the waiting lines to the destination; once it is closed they are dropped, not kept growing. */
  private release(): void {
    const batch = this.take();
    if (batch !== undefined && !this.destroyed) this.destination.write(batch);
  }
}

/**
 * One JSON logger for the process. Writes go through an asynchronous destination so that the per-request log line
 * never blocks the event loop.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  // minLength 1: each batch is written at once, and flush(cb) still waits for the write in flight. Made directly (not
  // pino.destination, which ends itself at exit before the lines gathered here could reach it).
  const batcher = new LineBatcher(new SonicBoom({ fd: 1, sync: false, minLength: 1 }));
  setInterval(() => batcher.flush(), LOG_FLUSH_INTERVAL_MS).unref();
  // an uncaught error, process.exit() or the loop running dry: the last lines are the ones worth having
  process.once('exit', () => batcher.flushSync());
  return pino(
    {
      level: config.LOG_LEVEL,
      base: { pid: process.pid },
      // Epoch-ms timestamps and no redaction pass: the request log line is on the hot path.
      // Secrets never reach the logger (the pipeline masks key-bearing query parameters).
    },
    batcher,
  );
}
