/**
 * Group commit: callers each submit one item and wait for it to be durable;
 * items arriving while a batch is being written go into the next batch. At
 * low load a batch is one item and nothing waits; at high load one round
 * trip carries hundreds of items, so throughput grows with load while a
 * caller waits at most for the batch in flight plus its own.
 */
export class GroupCommit<Item, Result> {
  private queue: { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = [];
  private flushing = false;

  constructor(
    /** Writes a batch; answers one result per item, in order. */
    private readonly writeBatch: (items: Item[]) => Promise<Result[]>,
    private readonly maxBatch = 500,
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const results = await this.writeBatch(batch.map((entry) => entry.item));
          batch.forEach((entry, index) => entry.resolve(results[index]!));
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
