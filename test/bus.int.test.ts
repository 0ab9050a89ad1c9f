import { afterAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { BusError, decodeJson, encodeJson, type Bus, type BusMessage } from '../src/actors/runtime/bus/bus.js';
import { MemoryBus } from '../src/actors/runtime/bus/memory-bus.js';
import { NatsBus } from '../src/actors/runtime/bus/nats-bus.js';
import { createSubjects } from '../src/actors/runtime/subjects.js';
import { realServices, uniqueName } from './support/services.js';

const logger = pino({ level: 'silent' });
const buses: Bus[] = [];

afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.close()));
});

/** Two clients on the same bus, as two processes would have. */
async function natsPair(): Promise<[Bus, Bus]> {
  const make = async () => {
    const bus = new NatsBus({ servers: [realServices.natsUrl], name: 'test', logger });
    // Fails (not skips) when NATS is missing.
    expect(await bus.waitUntilConnected(5_000)).toBe(true);
    buses.push(bus);
    return bus;
  };
  return [await make(), await make()];
}

async function memoryPair(): Promise<[Bus, Bus]> {
  const bus = new MemoryBus();
  buses.push(bus);
  return [bus, bus];
}

const waitFor = async (condition: () => boolean, timeoutMs = 3_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe.each([
  ['memory', memoryPair],
  ['nats', natsPair],
])('Bus on %s', (_, makePair) => {
  it('delivers publishes to every matching subscriber, with wildcards', async () => {
    const [a, b] = await makePair();
    const root = uniqueName('t');
    const seen: string[] = [];
    b.subscribe(`${root}.orders.*`, (message) => void seen.push(`star:${message.subject}`));
    b.subscribe(`${root}.>`, (message) => void seen.push(`tail:${message.subject}`));
    b.subscribe(`${root}.orders.created`, (message) => void seen.push(`exact:${decodeJson<{ id: number }>(message.data).id}`));
    await b.flush();
    a.publish(`${root}.orders.created`, encodeJson({ id: 7 }));
    a.publish(`${root}.orders.created.late`, encodeJson({ id: 8 }));
    await waitFor(() => seen.length === 4);
    expect(seen.sort()).toEqual(
      [`exact:7`, `star:${root}.orders.created`, `tail:${root}.orders.created`, `tail:${root}.orders.created.late`].sort(),
    );
  });

  it('answers requests and reports missing responders and time-outs as typed errors', async () => {
    const [a, b] = await makePair();
    const root = uniqueName('t');
    b.subscribe(`${root}.double`, (message: BusMessage) => {
      message.respond(encodeJson(decodeJson<number>(message.data) * 2));
    });
    b.subscribe(`${root}.silent`, () => {});
    await b.flush();
    const reply = await a.request(`${root}.double`, encodeJson(21), { timeoutMs: 2_000 });
    expect(decodeJson(reply.data)).toBe(42);
    await expect(a.request(`${root}.nobody`, encodeJson(1), { timeoutMs: 2_000 })).rejects.toMatchObject({ code: 'NO_RESPONDERS' });
    const error = await a.request(`${root}.silent`, encodeJson(1), { timeoutMs: 200 }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(BusError);
    expect((error as BusError).code).toBe('TIMEOUT');
  });

  it('hands each message to one member of a queue group', async () => {
    const [a, b] = await makePair();
    const root = uniqueName('t');
    const counts = [0, 0, 0];
    const extra: number[] = [];
    counts.forEach((_, index) => b.subscribe(`${root}.work`, () => void counts[index]!++, { queue: 'workers' }));
    b.subscribe(`${root}.work`, () => void extra.push(1));
    await b.flush();
    for (let index = 0; index < 30; index++) a.publish(`${root}.work`, encodeJson(index));
    await waitFor(() => counts.reduce((sum, count) => sum + count, 0) === 30 && extra.length === 30);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(30);
    expect(extra).toHaveLength(30);
  });

  it('stops delivering after unsubscribe', async () => {
    const [a, b] = await makePair();
    const root = uniqueName('t');
    const seen: number[] = [];
    const subscription = b.subscribe(`${root}.once`, (message) => void seen.push(decodeJson<number>(message.data)));
    await b.flush();
    a.publish(`${root}.once`, encodeJson(1));
    await waitFor(() => seen.length === 1);
    subscription.unsubscribe();
    await b.flush();
    a.publish(`${root}.once`, encodeJson(2));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([1]);
  });

  it('rejects malformed subjects', async () => {
    const [a] = await makePair();
    expect(() => a.publish('bad subject', encodeJson(1))).toThrow();
    expect(() => a.publish('a.*.b', encodeJson(1))).toThrow();
    expect(() => a.subscribe('a.>.b', () => {})).toThrow();
  });
});

describe('subjects', () => {
  it('builds namespaced subjects and refuses tokens that would change their meaning', () => {
    const subjects = createSubjects('svc');
    expect(subjects.cacheInvalidation('api-keys')).toBe('svc.cache.invalidate.api-keys');
    expect(() => subjects.cacheInvalidation('a.b')).toThrow();
    expect(() => subjects.cacheInvalidation('>')).toThrow();
  });
});

describe('NatsBus without NATS', () => {
  it('reports unavailability at once and attaches subscriptions later', async () => {
    const bus = new NatsBus({ servers: ['nats://127.0.0.1:1'], name: 'test', logger });
    expect(await bus.waitUntilConnected(200)).toBe(false);
    expect(() => bus.publish('a.b', encodeJson(1))).toThrow(BusError);
    await expect(bus.ping()).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    bus.subscribe('a.b', () => {});
    await bus.close();
  });
});
