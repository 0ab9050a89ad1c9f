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
  /** Waiters still waiting (the array also holds abandoned ones until their turn comes). */
  private live = 0;

  /**
   * @param maxWaiting how many callers may wait at once; one more is refused at once with {@link SlotQueueFullError}
   * (an overloaded server answers "busy, retry" in a millisecond instead of after the caller's whole time budget)
   */
  constructor(
    slots: number,
    private readonly maxWaiting = Infinity,
  ) {
    this.free = slots;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.live;
  }

  /**
   * Resolves when a slot is the caller's; rejects with the signal's reason if it aborts first (the slot is not
   * taken), or at once with {@link SlotQueueFullError} when `maxWaiting` callers already wait and `bounded` holds.
   */
  acquire(signal?: AbortSignal, bounded = true): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.free > 0 && this.live === 0) {
      this.free--;
      return Promise.resolve();
    }
    if (bounded && this.live >= this.maxWaiting) return Promise.reject(new SlotQueueFullError(this.maxWaiting));
    this.live++;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, abandoned: false };
      if (signal) {
        const onAbort = () => {
          waiter.abandoned = true;
          this.live--;
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
      this.live--;
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

/** A caller refused because the waiting line was full (the server is overloaded: retry later). */
export class SlotQueueFullError extends Error {
  constructor(readonly maxWaiting: number) {
    super(`${maxWaiting} tasks are already waiting for a worker`);
    this.name = 'SlotQueueFullError';
  }
}

interface Waiter {
  resolve: () => void;
  abandoned: boolean;
}

/** Why a signal aborted: its reason, or the platform's AbortError when it gave none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
