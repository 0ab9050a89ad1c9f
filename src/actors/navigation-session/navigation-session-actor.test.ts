import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/errors.js';
import type { NavigationRoute } from '../../domain/navigation-route.js';
import type { SessionWrite } from '../../store/pg/navigation-sessions.js';
import { CHECKPOINT_INTERVAL_MS, NavigationSessionActor, SessionFencedError, type SessionActorDeps } from './navigation-session-actor.js';
import { newTracking } from './session-machine.js';
import { SESSION_IDLE_TTL_MS } from './session-model.js';
import type { SessionRecord } from '../../domain/navigation-session.js';
import type { FeedFrame } from './session-protocol.js';

/** A 1 km street due north with a turn halfway: departure, turn, arrival. */
function northboundRoute(fromLat = 30, lng = 31.3): NavigationRoute {
  const points: [number, number][] = Array.from({ length: 11 }, (_, index) => [fromLat + index * 0.0009, lng]);
  const maneuver = (index: number, type: number, at: number, meters: number, seconds: number) => ({
    index,
    type,
    instruction: `step ${index}`,
    verbalAlert: `alert ${index}`,
    verbalPre: `pre ${index}`,
    verbalPost: '',
    streetNames: [],
    roundaboutExit: null,
    exitSign: null,
    distanceMeters: meters,
    timeSeconds: seconds,
    lat: points[at]![0],
    lng: points[at]![1],
    cumulativeMeters: at * 100.07,
    beginShapeIndex: at,
    endShapeIndex: at,
    legIndex: 0,
  });
  return {
    shape: polyline.encode(points, 6),
    maneuvers: [maneuver(0, 1, 0, 500, 50), maneuver(1, 10, 5, 500, 50), maneuver(2, 4, 10, 0, 0)],
    distanceMeters: 1000.7,
    etaSeconds: 100,
  };
}

const owner = { kind: 'key' as const, id: 'key-1' };

function harness(options: { persist?: (write: SessionWrite) => Promise<boolean>; planFailures?: ApiError[] } = {}) {
  let now = Date.parse('2026-11-23T10:00:00Z');
  const writes: SessionWrite[] = [];
  const published: FeedFrame[][] = [];
  const plans: { lat: number; lng: number; heading?: number }[] = [];
  const route = northboundRoute();
  const record: SessionRecord = {
    id: '7d1f3a52-8c1e-4f59-9a4e-1b2c3d4e5f60',
    owner,
    status: 'active',
    plan: {
      origin: { lat: 30, lng: 31.3 },
      destination: { lat: 30.009, lng: 31.3 },
      arrivalPoint: { lat: 30.009, lng: 31.3, source: 'destination' },
      costing: 'auto',
      language: 'en-US',
      preference: 'balanced',
      avoid: [],
      corridorMeters: 40,
      arrivalRadiusMeters: 35,
    },
    route,
    tracking: newTracking(),
    eventSeq: 0,
    events: [],
    webhookUrl: null,
    revision: 1,
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
    expiresAtMs: now + SESSION_IDLE_TTL_MS,
  };
  const deps: SessionActorDeps = {
    planRoute: async (from) => {
      plans.push(from);
      const failure = options.planFailures?.shift();
      if (failure) throw failure;
      return northboundRoute(from.lat, from.lng);
    },
    persist: async (write) => {
      const ok = options.persist ? await options.persist(write) : true;
      if (ok) writes.push(write);
      return ok;
    },
    publish: (_id, frames) => published.push(frames),
    now: () => now,
  };
  const actor = new NavigationSessionActor(record, deps);
  return { actor, writes, published, plans, advance: (ms: number) => (now += ms) };
}

const fixesNorth = (fromLat: number, toLat: number, stepDegrees = 0.0001) => {
  const fixes = [];
  for (let lat = fromLat; lat <= toLat + 1e-9; lat += stepDegrees) fixes.push({ lat, lng: 31.3, speed: 10 });
  return fixes;
};

describe('NavigationSessionActor', () => {
  it('applies fixes in order, numbers events from 1, and persists before publishing', async () => {
    const { actor, writes, published } = harness();
    const answer = (await actor.handle({ op: 'fixes', fixes: fixesNorth(30, 30.006), caller: owner, commandId: 'c1' })) as { accepted: number; newEvents: { seq: number; type: string }[]; eventSeq: number };
    expect(answer.accepted).toBe(61);
    expect(answer.newEvents.map((event) => event.type)).toEqual(['maneuver_approaching', 'maneuver_completed']);
    expect(answer.newEvents.map((event) => event.seq)).toEqual([1, 2]);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ expectedRevision: 1, eventSeq: 2, status: 'active' });
    expect(published).toHaveLength(1);
    expect(published[0]!.filter((frame) => frame.type === 'progress')).toHaveLength(61);
  });

  it('writes a fix that raises an event at once, progress alone at most every checkpoint interval', async () => {
    const { actor, writes, published, advance } = harness();
    type Answer = { accepted: number; newEvents: unknown[] };
    const quiet = (await actor.handle({ op: 'fixes', fixes: fixesNorth(30, 30.0003), caller: owner, commandId: 'q1' })) as Answer;
    expect(quiet.newEvents).toEqual([]);
    // answered and streamed, not written yet
    expect(writes).toHaveLength(0);
    expect(published).toHaveLength(1);
    expect(actor.hasUnsavedProgress()).toBe(true);
    advance(CHECKPOINT_INTERVAL_MS);
    await actor.handle({ op: 'fixes', fixes: fixesNorth(30.0004, 30.0005), caller: owner, commandId: 'q2' });
    expect(writes).toHaveLength(1);
    expect(writes[0]!.tracking.fixCount).toBe(6);
    expect(writes[0]!.events).toEqual([]);
    expect(actor.hasUnsavedProgress()).toBe(false);
    // the next quiet fix waits again; a checkpoint (idle sweep, shutdown) writes it
    await actor.handle({ op: 'fixes', fixes: fixesNorth(30.0006, 30.0006), caller: owner, commandId: 'q3' });
    expect(writes).toHaveLength(1);
    await actor.checkpoint();
    expect(writes).toHaveLength(2);
    expect(writes[1]).toMatchObject({ expectedRevision: 2, events: [] });
    expect(writes[1]!.tracking.fixCount).toBe(7);
    // events are never held back
    const loud = (await actor.handle({ op: 'fixes', fixes: fixesNorth(30.0007, 30.006), caller: owner, commandId: 'e1' })) as Answer;
    expect(loud.newEvents.length).toBeGreaterThan(0);
    expect(writes).toHaveLength(3);
    expect(writes[2]!.events).toEqual(loud.newEvents);
  });

  it('answers a retried command from memory instead of applying it twice', async () => {
    const { actor, writes } = harness();
    const command = { op: 'fixes' as const, fixes: fixesNorth(30, 30.006), caller: owner, commandId: 'same' };
    const first = await actor.handle(command);
    const again = await actor.handle(command);
    expect(again).toEqual(first);
    expect(writes).toHaveLength(1);
  });

  it("answers the stream's three-field ack, the same frames published, and a retried ack from memory", async () => {
    const full = harness();
    const stream = harness();
    const fixes = fixesNorth(30, 30.006);
    const answer = (await full.actor.handle({ op: 'fixes', fixes, caller: owner, commandId: 'f' })) as { accepted: number; eventSeq: number; status: string };
    const command = { op: 'fixes' as const, fixes, answer: 'ack' as const, caller: owner, commandId: 's' };
    const ack = await stream.actor.handle(command);
    expect(ack).toStrictEqual({ accepted: answer.accepted, eventSeq: answer.eventSeq, status: answer.status });
    expect(stream.published).toEqual(full.published);
    expect(stream.writes.map((write) => write.events)).toEqual(full.writes.map((write) => write.events));
    expect(await stream.actor.handle(command)).toStrictEqual(ack);
    expect(stream.writes).toHaveLength(1);
  });

  it('leaves the session unchanged when the write fails, and retires when the write is fenced', async () => {
    let mode: 'fail' | 'fence' | 'ok' = 'fail';
    const { actor, published } = harness({
      persist: async () => {
        if (mode === 'fail') throw new Error('database down');
        return mode === 'ok';
      },
    });
    await expect(actor.handle({ op: 'fixes', fixes: fixesNorth(30, 30.006), caller: owner, commandId: 'a' })).rejects.toThrow('database down');
    expect((actor.snapshot() as { eventSeq: number }).eventSeq).toBe(0);
    expect(published).toHaveLength(0);
    mode = 'fence';
    await expect(actor.handle({ op: 'fixes', fixes: fixesNorth(30, 30.006), caller: owner, commandId: 'b' })).rejects.toBeInstanceOf(SessionFencedError);
    expect(actor.isLive).toBe(false);
    await expect(actor.handle({ op: 'get', caller: owner, commandId: 'c' })).rejects.toBeInstanceOf(SessionFencedError);
  });

  it('refuses another caller and fixes after the session ended', async () => {
    const { actor } = harness();
    await expect(actor.handle({ op: 'get', caller: { kind: 'user', id: 'key-1' }, commandId: 'x' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await actor.handle({ op: 'fixes', fixes: fixesNorth(30, 30.009, 0.0003), caller: owner, commandId: 'drive' });
    expect(actor.snapshot().status).toBe('arrived');
    const late = actor.handle({ op: 'fixes', fixes: [{ lat: 30.009, lng: 31.3 }], caller: owner, commandId: 'late' });
    await expect(late).rejects.toBeInstanceOf(ApiError);
    await expect(late).rejects.toMatchObject({ code: 'SESSION_ENDED' });
  });

  it('re-plans once when the traveller leaves the corridor, from the position and direction of travel', async () => {
    const { actor, plans } = harness();
    await actor.handle({ op: 'fixes', fixes: fixesNorth(30, 30.003), caller: owner, commandId: 'on' });
    // heading east, away from the street
    const away = [1, 2, 3].map((step) => ({ lat: 30.003, lng: 31.3 + step * 0.0006, speed: 10 }));
    const answer = (await actor.handle({ op: 'fixes', fixes: away, caller: owner, commandId: 'off' })) as { newEvents: { type: string }[]; reroute: unknown };
    const types = answer.newEvents.map((event) => event.type);
    expect(types.filter((type) => type === 'off_route')).toHaveLength(1);
    expect(types.filter((type) => type === 'rerouted')).toHaveLength(1);
    expect(answer.reroute).not.toBeNull();
    expect(plans).toHaveLength(1);
    expect(plans[0]!.heading).toBeGreaterThan(80);
    expect(plans[0]!.heading).toBeLessThan(100);
    expect(actor.snapshot().reroutes).toBe(1);
  });

  it('keeps the fixes and stays off route when the engine is busy, and re-plans on a later fix', async () => {
    const busy = new ApiError('SERVER_BUSY', { headers: { 'retry-after': '1' } });
    const { actor, plans, advance } = harness({ planFailures: [busy] });
    await actor.handle({ op: 'fixes', fixes: fixesNorth(30, 30.003), caller: owner, commandId: 'on' });
    const away = [1, 2, 3].map((step) => ({ lat: 30.003, lng: 31.3 + step * 0.0006, speed: 10 }));
    const first = (await actor.handle({ op: 'fixes', fixes: away, caller: owner, commandId: 'off' })) as { accepted: number; newEvents: { type: string }[] };
    expect(first.accepted).toBe(3);
    expect(first.newEvents.map((event) => event.type)).toContain('off_route');
    expect(first.newEvents.map((event) => event.type)).not.toContain('rerouted');
    expect(plans).toHaveLength(1);
    advance(11_000);
    const later = (await actor.handle({ op: 'fixes', fixes: [{ lat: 30.003, lng: 31.3024, speed: 10 }], caller: owner, commandId: 'later' })) as { accepted: number; newEvents: { type: string }[] };
    expect(later.accepted).toBe(1);
    expect(later.newEvents.map((event) => event.type)).toContain('rerouted');
    expect(plans).toHaveLength(2);
    expect(actor.snapshot().reroutes).toBe(1);
  });

  it('expires after six idle hours', async () => {
    const { actor, advance } = harness();
    advance(SESSION_IDLE_TTL_MS + 1);
    await actor.expireIfDue();
    expect(actor.snapshot().status).toBe('expired');
  });
});
