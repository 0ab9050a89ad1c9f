/**
 * A counting semaphore bounding concurrent deliveries across all sessions, so
 * many sessions with slow receivers cannot open unbounded sockets. Waiters
 * are served first come, first served; a cancelled waiter leaves the queue.
 */
export class DeliverySlots {
  private available: number;
  private readonly waiters: (() => void)[] = [];

  constructor(readonly capacity: number) {
    this.available = capacity;
  }

  /** Runs `work` holding one slot; resolves `undefined` without running it when `signal` aborts first. */
  async run<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T | undefined> {
    if (!(await this.acquire(signal))) return undefined;
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (this.available > 0) {
      this.available--;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const grant = () => {
        signal.removeEventListener('abort', cancel);
        resolve(true);
      };
      const cancel = () => {
        const index = this.waiters.indexOf(grant);
        if (index >= 0) this.waiters.splice(index, 1);
        resolve(false);
      };
      this.waiters.push(grant);
      signal.addEventListener('abort', cancel, { once: true });
    });
  }

  private release(): void {
    const next = this.waiters.shift();
    // The slot passes straight to the next waiter, so `available` never over-counts.
    if (next) next();
    else this.available++;
  }
}
