/**
 * A serial mailbox: an actor's messages run one at a time, in arrival order,
 * each to completion (including its awaits) before the next starts. That is
 * what lets an actor keep plain mutable state without locks. Bounded, so a
 * client flooding one actor is refused instead of growing memory.
 */
export class MailboxFullError extends Error {
  constructor(readonly capacity: number) {
    super(`mailbox full (${capacity} messages waiting)`);
    this.name = 'MailboxFullError';
  }
}

export class Mailbox {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly capacity: number) {}

  /** Messages queued or running. */
  get depth(): number {
    return this.waiting;
  }

  /** Runs `work` after every message posted before it; rejects at once when the mailbox is full. */
  post<T>(work: () => Promise<T> | T): Promise<T> {
    if (this.waiting >= this.capacity) return Promise.reject(new MailboxFullError(this.capacity));
    this.waiting++;
    const run = this.tail.then(work);
    // the chain continues whatever this message's outcome
    this.tail = run.then(
      () => this.waiting--,
      () => this.waiting--,
    );
    return run;
  }
}
