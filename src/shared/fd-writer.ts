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
/** Queued bytes beyond which new text is dropped (a reader that stopped reading must not grow the heap without end). */
const DEFAULT_MAX_QUEUED_BYTES = 16 * 1024 * 1024;

const napCell = new Int32Array(new SharedArrayBuffer(4));
/** Blocks the thread for `ms` (only at exit, when nothing else can run anyway). */
const nap = (ms: number) => Atomics.wait(napCell, 0, 0, ms);

/** Calls each function; one that throws does not keep the others from being called (its error is rethrown later). */
function callEach(callbacks: ((error?: Error) => void)[], error?: Error): void {
  for (const callback of callbacks) {
    try {
      callback(error);
    } catch (thrown) {
      queueMicrotask(() => {
        throw thrown;
      });
    }
  }
}

export class FdWriter {
  /** Chunks not yet written; while `inFlight`, the first is the one the thread pool is writing. */
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  /** A write chain is running: a write in flight, or a retry waiting for its timer. */
  private writing = false;
  /** `fs.write` has the first chunk and has not called back yet. */
  private inFlight = false;
  /** The descriptor is non-blocking (it answered EAGAIN once): written synchronously from then on. */
  private direct = false;
  private failure: NodeJS.ErrnoException | undefined;
  private drainWaiters: ((error?: Error) => void)[] = [];
  /** Texts dropped because the queue was full. */
  dropped = 0;

  constructor(
    private readonly fd: number,
    /** Called once, with the error that ended the writer. */
    private readonly onFailure: (error: NodeJS.ErrnoException) => void,
    private readonly maxQueuedBytes = DEFAULT_MAX_QUEUED_BYTES,
  ) {}

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Queues `text` (dropped once the writer has failed, or while the queue is full). */
  write(text: string): void {
    if (this.failure) return;
    const chunk = Buffer.from(text, 'utf8');
    if (this.queuedBytes + chunk.length > this.maxQueuedBytes) {
      this.dropped++;
      return;
    }
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (!this.writing) this.writeNext();
  }

  /** Calls back when everything queued so far is written, or with the error that ended the writer. */
  flush(callback: (error?: Error) => void): void {
    if (this.failure) callback(this.failure);
    else if (!this.writing) callback();
    else this.drainWaiters.push(callback);
  }

  /**
   * Writes what is queued, synchronously: the process is ending and no callback will run. Stops at the first error
   * (a full pipe is retried a bounded number of times). `last` goes out after the rest, written here rather than
   * handed to an asynchronous write that the ending process would not wait for. A chunk waiting for its retry timer
   * is written here; one really in flight is in the thread pool and cannot be waited for: it may land before or
   * after these, and if the kernel took only part of it, its tail is lost. Both are rare (a write takes
   * microseconds) and cost at most the lines of that one chunk.
   */
  flushSync(last?: string): void {
    if (this.failure) return;
    if (last) this.queue.push(Buffer.from(last, 'utf8'));
    const skip = this.inFlight ? 1 : 0;
    for (let index = skip; index < this.queue.length && !this.failure; index++) {
      let chunk = this.queue[index]!;
      let retries = 0;
      while (chunk.length > 0) {
        let written = 0;
        try {
          written = writeSync(this.fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        }
        if (written > 0) chunk = chunk.subarray(written);
        else if (++retries > EXIT_RETRIES) return;
        else nap(RETRY_WAIT_MS);
      }
    }
    this.queue.length = skip;
    this.queuedBytes = skip ? this.queue[0]!.length : 0;
  }

  private writeNext(): void {
    if (this.direct) return this.writeDirect();
    const chunk = this.queue[0];
    if (chunk === undefined) return this.drained();
    this.writing = true;
    this.inFlight = true;
    write(this.fd, chunk, 0, chunk.length, null, (error, written) => {
      this.inFlight = false;
      if (this.failure) return;
      // flushSync (at exit) may have written and dropped the queue meanwhile
      if (this.queue[0] !== chunk) return this.writeNext();
      if (error) {
        if (error.code !== 'EAGAIN') return this.fail(error);
        // only a non-blocking descriptor answers EAGAIN: from now on it is written on this thread (see writeDirect)
        this.direct = true;
        setTimeout(() => this.writeNext(), RETRY_WAIT_MS);
        return;
      }
      this.wrote(chunk, written);
      this.writeNext();
    });
  }

  /**
   * Writes a non-blocking descriptor (a pipe libuv opened, as `process.stdout` does) on this thread: such a write
   * never blocks, costs no thread-pool round trip, and leaves nothing in flight, so the exit drain is exact. A full
   * pipe (EAGAIN) is tried again on a timer.
   */
  private writeDirect(): void {
    while (this.queue.length > 0) {
      const chunk = this.queue[0]!;
      let written: number;
      try {
        written = writeSync(this.fd, chunk);
      } catch (error) {
        this.writing = true;
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') setTimeout(() => this.writeNext(), RETRY_WAIT_MS);
        // told from a callback of its own, as the asynchronous path would: not thrown into the line's caller
        else setImmediate(() => this.fail(error as NodeJS.ErrnoException));
        return;
      }
      this.wrote(chunk, written);
    }
    this.drained();
  }

  private wrote(chunk: Buffer, written: number): void {
    this.queuedBytes -= written;
    if (written < chunk.length) this.queue[0] = chunk.subarray(written);
    else this.queue.shift();
  }

  private drained(): void {
    this.writing = false;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    callEach(waiters);
  }

  private fail(error: NodeJS.ErrnoException): void {
    if (this.failure) return;
    this.failure = error;
    this.queue = [];
    this.queuedBytes = 0;
    this.writing = false;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    callEach(waiters, error);
    this.onFailure(error);
  }
}
