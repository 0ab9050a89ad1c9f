import { describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/transport-node';
import { JetStreamWorkQueue } from './jetstream-work-queue.js';
import type { Logger } from '../../../shared/logger.js';

const quiet = { warn: () => undefined, info: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Logger;

describe('JetStreamWorkQueue while NATS is unreachable', () => {
  it('refuses an enqueue within its bound and closes at once, though the first connection never comes', async () => {
    // the bus's first connection to an unreachable server: never settles
    const queue = new JetStreamWorkQueue({ name: 'test', subject: 'test.work', ackWaitMs: 60_000, logger: quiet, connection: () => new Promise<NatsConnection>(() => undefined) });
    queue.consume(async (item) => item.ack(), { concurrency: 2 });
    const startedAt = Date.now();
    await expect(queue.enqueue('trip-1')).rejects.toThrow(/did not take the item/);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    const closingAt = Date.now();
    await queue.close();
    expect(Date.now() - closingAt).toBeLessThan(1_000);
  });
});
