/**
 * A fixed number of slots handed out strictly first come, first served. The solver pool takes a slot before it
 * gives piscina a task, so piscina's own queue never holds more than the free workers can take.
 *
 * Why not piscina's queue: a task with an AbortSignal that finds every worker busy goes to piscina's skip queue,
 * and every time a worker frees up the task behind the one dispatched is pushed back to the end of it (piscina
 * 5.3, `_returnUndistributedTask(task, !stricterFIFO)`); with `stricterFIFO` new tasks go to its front instead
 * (last in, first out). Route requests all carry a signal (the client may leave, the budget may run out): under
 * load at 32 connections on one worker the median wait was 30–45 ms and the 99th percentile 300–1 000 ms.
 */
export class FifoSlots {
  private free: number;
  /** Waiting acquirers in arrival order; `head` is the next one (shifting an array per release is O(n)). */
  private readonly waiting: Array<Waiter | undefined> = [];
  private head = 0;

  constructor(slots: number) {
    this.free = slots;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  /** Resolves when a slot is the caller's; rejects with the signal's reason if it aborts first (the slot is not taken). */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.free > 0 && this.queued === 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, abandoned: false };
      if (signal) {
        const onAbort = () => {
          waiter.abandoned = true;
          reject(abortReason(signal));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.resolve = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
      }
      this.waiting.push(waiter);
    });
  }

  /** Gives a slot back: to the longest waiting caller still waiting, else to the pool. */
  release(): void {
    while (this.head < this.waiting.length) {
      const next = this.waiting[this.head]!;
      this.waiting[this.head++] = undefined;
      if (next.abandoned) continue;
      this.compact();
      next.resolve();
      return;
    }
    this.compact();
    this.free++;
  }

  private compact(): void {
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
  }
}

interface Waiter {
  resolve: () => void;
  abandoned: boolean;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
