/**
 * Ordered asynchronous writes to a file descriptor (the process's stdout), one
 * write in flight at a time, plus a synchronous drain for the process's last
 * moment. Written here rather than taken from sonic-boom (pino's destination):
 * its synchronous flush retries a failed write forever (it gives up on nothing
 * but EAGAIN), so a process whose output pipe had lost its reader hung at exit
 * instead of ending. Here a failed write ends the writer at once and for good.
 */
import { write, writeSync } from 'node:fs';

/** A full non-blocking pipe or terminal (EAGAIN) is tried again after this long (ms)... */
const RETRY_WAIT_MS = 10;
/** ...and, at exit, at most this many times before what is left is given up. */
const EXIT_RETRIES = 100;

const napCell = new Int32Array(new SharedArrayBuffer(4));
/** Blocks the thread for `ms` (only at exit, when nothing else can run anyway). */
const nap = (ms: number) => Atomics.wait(napCell, 0, 0, ms);

export class FdWriter {
  /** Chunks not yet written; while `writing`, the first is the one in flight. */
  private queue: Buffer[] = [];
  private writing = false;
  private failure: NodeJS.ErrnoException | undefined;
  private drainWaiters: ((error?: Error) => void)[] = [];

  constructor(
    private readonly fd: number,
    /** Called once, with the error that ended the writer. */
    private readonly onFailure: (error: NodeJS.ErrnoException) => void,
  ) {}

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Queues `text` (dropped once the writer has failed). */
  write(text: string): void {
    if (this.failure) return;
    this.queue.push(Buffer.from(text, 'utf8'));
    if (!this.writing) this.writeNext();
  }

  /** Calls back when everything queued so far is written, or with the error that ended the writer. */
  flush(callback: (error?: Error) => void): void {
    if (this.failure) callback(this.failure);
    else if (!this.writing) callback();
    else this.drainWaiters.push(callback);
  }

  /**
   * Writes what waits behind the write in flight, synchronously: the process is ending and no callback will run.
   * Stops at the first error (a full pipe is retried a bounded number of times). `last` goes out after the rest,
   * written here rather than handed to an asynchronous write that the ending process would not wait for. A write
   * already in flight is in the thread pool and cannot be waited for either: it may land before or after these (a
   * line out of place at exit; none lost, none doubled).
   */
  flushSync(last?: string): void {
    if (this.failure) return;
    if (last) this.queue.push(Buffer.from(last, 'utf8'));
    let index = this.writing ? 1 : 0;
    for (; index < this.queue.length && !this.failure; index++) {
      let chunk = this.queue[index]!;
      let retries = 0;
      while (chunk.length > 0) {
        try {
          chunk = chunk.subarray(writeSync(this.fd, chunk));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || ++retries > EXIT_RETRIES) return;
          nap(RETRY_WAIT_MS);
        }
      }
    }
    this.queue.length = this.writing ? 1 : 0;
  }

  private writeNext(): void {
    const chunk = this.queue[0];
    if (chunk === undefined) {
      this.writing = false;
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const waiter of waiters) waiter();
      return;
    }
    this.writing = true;
    write(this.fd, chunk, 0, chunk.length, null, (error, written) => {
      if (this.failure) return;
      if (error) {
        if (error.code === 'EAGAIN') setTimeout(() => this.writeNext(), RETRY_WAIT_MS);
        else this.fail(error);
        return;
      }
      if (written < chunk.length) this.queue[0] = chunk.subarray(written);
      else this.queue.shift();
      this.writeNext();
    });
  }

  private fail(error: NodeJS.ErrnoException): void {
    this.failure = error;
    this.queue = [];
    this.writing = false;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const waiter of waiters) waiter(error);
    this.onFailure(error);
  }
}
