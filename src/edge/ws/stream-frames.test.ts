/**
 * The navigation stream's frames as typed (`ServerFrame`: the session actor's `FeedFrame` as the socket gets
 * it, and the stream's own frames) against `serverFrameSchema`, the description the OpenAPI document and the
 * docs show. At compile time: the same frame types and, in each, the same fields, both ways, and the same
 * enumerations. At run time: the schema's frame types are exactly the typed ones, and every frame a session
 * actor emits under random fixes and commands, sent through the stream's delivery, parses with the schema
 * unchanged.
 */
import polyline from '@mapbox/polyline';
import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { NavigationSessionActor, type SessionActorDeps } from '../../actors/navigation-session/navigation-session-actor.js';
import { newSessionRecord } from '../../actors/navigation-session/session-machine.js';
import { SESSION_IDLE_TTL_MS } from '../../actors/navigation-session/session-model.js';
import type { LatLng, SessionPlan } from '../../domain/navigation-session.js';
import type { SessionCommandBody } from '../../actors/navigation-session/session-protocol.js';
import type { FeedFrame } from '../../services/navigation/navigation-sessions.js';
import type { NavigationRoute } from '../../domain/navigation-route.js';
import { StreamDelivery, type FrameSocket } from './stream-delivery.js';
import { errorFrame, pongFrame } from './stream-handshake.js';
import { ackFrame, readyFrame, serverFrameSchema, type ServerFrame } from './stream-protocol.js';

type SchemaFrame = z.infer<typeof serverFrameSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Frame<U, T> = Extract<U, { type: T }>;

/**
 * Every frame type of the stream, each checked to have the same fields in `ServerFrame` and in the schema. A
 * type added to `ServerFrame` (or to the actor's `FeedFrame`) needs its entry here; `false` where the fields
 * differ does not compile.
 */
const FRAME_TYPES: { [T in ServerFrame['type']]: Same<keyof Frame<ServerFrame, T>, keyof Frame<SchemaFrame, T>> } = {
  ready: true,
  event: true,
  progress: true,
  route: true,
  status: true,
  ack: true,
  pong: true,
  gap: true,
  error: true,
};

/** Both ways: no frame type on one side only, and the enumerated fields allow the same values. */
const SAME_ENUMERATIONS: [
  Same<ServerFrame['type'], SchemaFrame['type']>,
  Same<Frame<ServerFrame, 'event'>['event']['type'], Frame<SchemaFrame, 'event'>['event']['type']>,
  Same<Frame<ServerFrame, 'progress'>['status'], Frame<SchemaFrame, 'progress'>['status']>,
  Same<Frame<ServerFrame, 'status'>['status'], Frame<SchemaFrame, 'status'>['status']>,
] = [true, true, true, true];

const log = pino({ level: 'silent' });
const owner = { kind: 'key' as const, id: 'key-1' };
const START: LatLng = { lat: 30, lng: 31.3 };
const DESTINATION: LatLng = { lat: 30.009, lng: 31.3 };

/** A straight route of ten stretches from `from` to `to`: departure, arrival. */
function straightRoute(from: LatLng, to: LatLng): NavigationRoute {
  const stretches = 10;
  const points = Array.from({ length: stretches + 1 }, (_, k): [number, number] => [from.lat + ((to.lat - from.lat) * k) / stretches, from.lng + ((to.lng - from.lng) * k) / stretches]);
  const meters = Math.hypot(to.lat - from.lat, (to.lng - from.lng) * Math.cos((from.lat * Math.PI) / 180)) * 111_195;
  const at = (index: number, type: number, point: number) => ({
    index,
    type,
    instruction: `maneuver ${index}`,
    verbalAlert: '',
    verbalPre: `maneuver ${index}`,
    verbalPost: '',
    streetNames: ['Main Street'],
    roundaboutExit: null,
    exitSign: null,
    distanceMeters: point === 0 ? meters : 0,
    timeSeconds: point === 0 ? meters / 10 : 0,
    lat: points[point]![0],
    lng: points[point]![1],
    cumulativeMeters: (meters * point) / stretches,
    beginShapeIndex: point,
    endShapeIndex: point,
    legIndex: 0,
  });
  return { shape: polyline.encode(points, 6), maneuvers: [at(0, 1, 0), at(1, 4, stretches)], distanceMeters: meters, etaSeconds: meters / 10 };
}

/** Where a fix is: `along` the first route (0 start, 1 destination), `aside` it by that many degrees of longitude. */
const position = fc.record({ along: fc.double({ min: -0.1, max: 1.1, noNaN: true }), aside: fc.oneof(fc.constant(0), fc.double({ min: -0.004, max: 0.004, noNaN: true })) });
const placed = ({ along, aside }: { along: number; aside: number }): LatLng => ({ lat: START.lat + (DESTINATION.lat - START.lat) * along, lng: START.lng + aside });

const step = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('fixes' as const), ack: fc.boolean(), fixes: fc.array(fc.record({ at: position, speed: fc.option(fc.double({ min: 0, max: 40, noNaN: true }), { nil: undefined }) }), { minLength: 1, maxLength: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('recalculate' as const), from: position }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 15_000 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'ping' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'cancel' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'idle' as const }) },
);

type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** Runs `steps` on a new session with a stream from its start; answers every text frame the stream sent. */
async function streamOf(steps: Step[]): Promise<string[]> {
  let now = Date.parse('2026-11-23T10:00:00Z');
  const texts: string[] = [];
  const socket: FrameSocket = { send: (text) => (texts.push(text), 1), bufferedAmount: () => 0, end: () => undefined };
  const plan: SessionPlan = { origin: START, destination: DESTINATION, arrivalPoint: { ...DESTINATION, source: 'destination' }, costing: 'auto', language: 'en-US', preference: 'balanced', avoid: [], corridorMeters: 40, arrivalRadiusMeters: 35 };
  const record = newSessionRecord({ id: '7d1f3a52-8c1e-4f59-9a4e-1b2c3d4e5f60', owner, plan, route: straightRoute(START, DESTINATION), webhookUrl: null, nowMs: now });
  let delivery: StreamDelivery | undefined;
  const deps: SessionActorDeps = {
    planRoute: async (from, plan) => straightRoute(from, plan.arrivalPoint),
    persist: async () => true,
    publish: (_id, frames: FeedFrame[]) => delivery!.offer(frames),
    now: () => now,
  };
  const actor = new NavigationSessionActor(record, deps);
  let commands = 0;
  const send = <B extends SessionCommandBody>(body: B) => actor.handle({ ...body, caller: owner, commandId: `c${++commands}` });
  const options = { highWaterBytes: 1 << 20, maxQueuedFrames: 1 << 20, eventsAfter: async (since: number) => (await send({ op: 'events', since })).events };
  delivery = new StreamDelivery(socket, 0, options);
  await delivery.start(readyFrame(await send({ op: 'get' }), 0));
  for (const each of steps) {
    const id = `m${commands}`;
    try {
      switch (each.kind) {
        case 'fixes': {
          const fixes = each.fixes.map((fix) => ({ ...placed(fix.at), ...(fix.speed === undefined ? {} : { speed: fix.speed }) }));
          if (each.ack) delivery.sendControl(ackFrame(id, await send({ op: 'fixes', fixes, answer: 'ack' })));
          else await send({ op: 'fixes', fixes });
          break;
        }
        case 'recalculate':
          await send({ op: 'recalculate', from: placed(each.from) });
          break;
        case 'wait':
          now += each.ms;
          break;
        case 'ping':
          delivery.sendControl(pongFrame(id));
          break;
        case 'cancel':
          await send({ op: 'cancel' });
          break;
        case 'idle':
          now += SESSION_IDLE_TTL_MS;
          await actor.expireIfDue();
          break;
      }
    } catch (error) {
      // fixes and re-plans of an ended session are refused: the stream answers with an error frame
      delivery.sendControl(errorFrame(error, log, id));
    }
  }
  // the catch-up reads the session's log through its mailbox: let them finish
  await send({ op: 'get' });
  await new Promise((resolve) => setImmediate(resolve));
  // a stream that resumes from before the retained log is told what is missing
  const events = (await send({ op: 'events', since: 0 })).events;
  const resumed = new StreamDelivery(socket, 0, { ...options, eventsAfter: async () => events.slice(1) });
  await resumed.start(readyFrame(await send({ op: 'get' }), 0));
  return texts;
}

describe('navigation stream frames', () => {
  it('are the same frame types in ServerFrame and in serverFrameSchema', () => {
    expect(SAME_ENUMERATIONS).toEqual([true, true, true, true]);
    const described = serverFrameSchema.options.map((option) => option.shape.type.value).sort();
    expect(described).toEqual(Object.keys(FRAME_TYPES).sort());
  });

  it('parse with serverFrameSchema unchanged, for every frame a session emits to a stream', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        for (const text of await streamOf(steps)) {
          const frame = JSON.parse(text) as { type: string };
          // parsing drops fields the schema does not know: a frame must come back as it went
          expect(serverFrameSchema.parse(frame)).toEqual(frame);
          seen.add(frame.type);
        }
      }),
      { numRuns: 150, seed: 20261123 },
    );
    // the random sessions reached every frame type, so each was checked
    expect([...seen].sort()).toEqual(Object.keys(FRAME_TYPES).sort());
  });
});
