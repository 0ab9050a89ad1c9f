/**
 * A serial mailbox: an actor's messages run one at a time, in arrival order,
 * each to completion (including its awaits) before the next starts. That is
 * what lets an actor keep plain mutable state without locks. Bounded, so a
 * client flooding one actor is refused instead of growing memory. Shared:
 * actors run their commands through one, and each stream socket its messages.
 */
export class MailboxFullError extends Error {
  constructor(readonly capacity: number) {
    super(`mailbox full (${capacity} messages waiting)`);
    this.name = 'MailboxFullError';
  }
}

/** The tail of an empty mailbox: shared, so an idle mailbox holds no promise of its own. */
const SETTLED: Promise<unknown> = Promise.resolve();

export class Mailbox {
  private tail: Promise<unknown> = SETTLED;
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
    // the chain continues whatever this message's outcome; once empty it lets go of its last
    // promises, which would otherwise live until the next message (a second for a navigation
    // session) and so be kept through young-generation collections
    const settle = () => {
      if (--this.waiting === 0 && this.tail === next) this.tail = SETTLED;
    };
    const next: Promise<unknown> = run.then(settle, settle);
    this.tail = next;
    return run;
  }
}
