import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/errors.js';
import { FleetActor, FleetFencedError, POSITION_FLUSH_MS, type FleetProblem, type FleetSolution } from './fleet-actor.js';
import type { FleetWrite } from '../../store/pg/fleets.js';
import type { FleetRecord } from '../../domain/fleet.js';
import type { FleetEvent, PlanFrame } from './fleet-protocol.js';
import { DEBOUNCE_MS, MAX_WAIT_MS, RETRY_MS } from './planning-machine.js';

/** Nasr City, Cairo: a depot on Abbas El Akkad and stops on the streets around it. */
const DEPOT = { lat: 30.0561, lng: 31.3302 };
const STOPS = {
  s1: { lat: 30.0626, lng: 31.3219 },
  s2: { lat: 30.0589, lng: 31.3401 },
  s3: { lat: 30.0512, lng: 31.3355 },
  s4: { lat: 30.0667, lng: 31.3457 },
  s5: { lat: 30.0483, lng: 31.3189 },
};
const owner = { kind: 'key' as const, id: 'key-1' };

/** A stand-in search: keeps the warm start, gives each new stop to the vehicle nearest to it. Answers when released. */
function fakeOptimizer() {
  const problems: FleetProblem[] = [];
  const pending: (() => void)[] = [];
  let autoRelease = true;
  const optimize = (problem: FleetProblem) =>
    new Promise<FleetSolution>((resolve) => {
      problems.push(problem);
      const answer = () => {
        const pendingIds = new Set(problem.stops.map((stop) => stop.id));
        const routes = new Map(problem.vehicles.map((vehicle) => [vehicle.id, [] as string[]]));
        for (const warm of problem.warmStart) for (const stopId of warm.stopIds) if (pendingIds.has(stopId)) routes.get(warm.vehicleId)?.push(stopId);
        const placed = new Set([...routes.values()].flat());
        for (const stop of problem.stops) {
          if (placed.has(stop.id)) continue;
          const nearest = [...problem.vehicles].sort((a, b) => distance(a.start, stop) - distance(b.start, stop))[0]!;
          routes.get(nearest.id)!.push(stop.id);
        }
        resolve({
          feasible: true,
          routes: [...routes].map(([vehicleId, stopIds]) => ({ vehicleId, stopIds, arrivalSeconds: stopIds.map((_, k) => 300 * (k + 1)), durationSeconds: 300 * stopIds.length, distanceMeters: 1000 * stopIds.length })),
          unassignedStopIds: [],
        });
      };
      if (autoRelease) answer();
      else pending.push(answer);
    });
  return {
    optimize,
    problems,
    hold: () => (autoRelease = false),
    release: () => {
      autoRelease = true;
      for (const answer of pending.splice(0)) answer();
    },
  };
}

function distance(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  return Math.hypot(a.lat - b.lat, a.lng - b.lng);
}

function harness(options: { persist?: (write: FleetWrite) => Promise<boolean> } = {}) {
  const optimizer = fakeOptimizer();
  const frames: PlanFrame[] = [];
  const writes: FleetWrite[] = [];
  let stopNumber = 0;
  const record: FleetRecord = {
    id: '5f0c2a8e-1b7d-4c3e-9f21-6a4b8d0e2c11',
    owner,
    definition: {
      name: 'Nasr City morning',
      costing: 'auto',
      vehicles: [
        { id: 'van-west', start: { lat: 30.06, lng: 31.32 }, end: null, capacity: null, position: null },
        { id: 'van-east', start: { lat: 30.06, lng: 31.345 }, end: DEPOT, capacity: null, position: null },
      ],
      stops: [],
    },
    plan: null,
    changeSeq: 0,
    revision: 1,
    createdAt: '2026-11-23T08:00:00.000Z',
    updatedAt: '2026-11-23T08:00:00.000Z',
  };
  const actor = new FleetActor(record, {
    optimize: (problem) => optimizer.optimize(problem),
    persist: async (write) => {
      writes.push(write);
      return options.persist ? options.persist(write) : true;
    },
    publish: (frame) => frames.push(frame),
    newStopId: () => `auto-${++stopNumber}`,
    now: () => Date.now(),
    logger: pino({ level: 'silent' }),
  });
  let commandNumber = 0;
  const send = (...events: FleetEvent[]) => actor.handle({ op: 'apply', events, caller: owner, commandId: `c${++commandNumber}` });
  const add = (id: keyof typeof STOPS) => send({ type: 'add_stops', stops: [{ id, ...STOPS[id] }] });
  return { actor, optimizer, frames, writes, send, add };
}

describe('fleet actor', () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.parse('2026-11-23T09:00:00Z') }));
  afterEach(() => vi.useRealTimers());

  it('debounces: changes close together lead to one search after the quiet time, and one plan with all of them', async () => {
    const { add, optimizer, frames } = harness();
    await add('s1');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS - 100);
    await add('s2');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS - 100);
    await add('s4');
    expect(optimizer.problems).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(optimizer.problems).toHaveLength(1);
    expect(optimizer.problems[0]!.stops.map((stop) => stop.id)).toEqual(['s1', 's2', 's4']);
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ type: 'plan', planVersion: 1, previousPlanVersion: 0, plan: { changeSeq: 3 } });
    expect(frames[0]!.diff.added.sort()).toEqual(['s1', 's2', 's4']);
    // nearest vehicle: s1 to the west van, s2 and s4 to the east van
    expect(frames[0]!.plan.routes).toMatchObject([
      { vehicleId: 'van-west', stopIds: ['s1'] },
      { vehicleId: 'van-east', stopIds: ['s2', 's4'] },
    ]);
  });

  it('re-plans within the longest wait while changes keep coming', async () => {
    const { add, send, optimizer } = harness();
    await add('s1');
    for (let elapsed = 0; elapsed < MAX_WAIT_MS + 1_000; elapsed += DEBOUNCE_MS / 2) {
      await send({ type: 'add_stops', stops: [{ lat: 30.05 + elapsed / 1e7, lng: 31.33 }] });
      await vi.advanceTimersByTimeAsync(DEBOUNCE_MS / 2);
      if (optimizer.problems.length > 0) break;
    }
    expect(optimizer.problems.length).toBeGreaterThan(0);
    expect(Date.now() - Date.parse('2026-11-23T09:00:00Z')).toBeLessThanOrEqual(MAX_WAIT_MS + DEBOUNCE_MS);
  });

  it('runs one search at a time: changes during a search lead to exactly one more, and plan versions go up by one', async () => {
    const { add, optimizer, frames } = harness();
    optimizer.hold();
    await add('s1');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(optimizer.problems).toHaveLength(1);
    await add('s2');
    await add('s3');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS * 4);
    expect(optimizer.problems).toHaveLength(1);
    optimizer.release();
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS * 4);
    expect(optimizer.problems).toHaveLength(2);
    expect(optimizer.problems[1]!.stops.map((stop) => stop.id)).toEqual(['s1', 's2', 's3']);
    // the second search starts from the first plan
    expect(optimizer.problems[1]!.warmStart).toEqual([
      { vehicleId: 'van-west', stopIds: ['s1'] },
      { vehicleId: 'van-east', stopIds: [] },
    ]);
    expect(frames.map((frame) => [frame.previousPlanVersion, frame.planVersion])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(frames[1]!.diff.added.sort()).toEqual(['s2', 's3']);
  });

  it('locks a completed stop: never handed to the search again, kept on its vehicle, the vehicle starts there, and it cannot be cancelled', async () => {
    const { add, send, optimizer, frames, actor } = harness();
    await add('s1');
    await add('s5');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(frames[0]!.plan.routes[0]).toMatchObject({ vehicleId: 'van-west', stopIds: ['s1', 's5'] });
    await send({ type: 'complete_stop', stopId: 's1' });
    await add('s3');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    const problem = optimizer.problems.at(-1)!;
    expect(problem.stops.map((stop) => stop.id)).toEqual(['s5', 's3']);
    expect(problem.vehicles[0]).toMatchObject({ id: 'van-west', start: STOPS.s1 });
    const latest = frames.at(-1)!;
    expect(latest.plan.routes[0]).toMatchObject({ vehicleId: 'van-west', completedStopIds: ['s1'] });
    expect(latest.plan.routes[0]!.stopIds).not.toContain('s1');
    expect(latest.diff.removed).toEqual(['s1']);
    await expect(send({ type: 'cancel_stop', stopId: 's1' })).rejects.toMatchObject({ code: 'STOP_CLOSED', statusCode: 409 });
    // a resent completion is accepted as already done
    await expect(send({ type: 'complete_stop', stopId: 's1' })).resolves.toMatchObject({ changeSeq: 4 });
    expect(actor.view().stops.find((stop) => stop.id === 's1')).toMatchObject({ status: 'completed', completedBy: 'van-west' });
  });

  it('leaves out of the new plan a stop cancelled while the search ran, and lists it as removed', async () => {
    const { add, send, optimizer, frames } = harness();
    await add('s1');
    await add('s2');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    optimizer.hold();
    await add('s4');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    await send({ type: 'cancel_stop', stopId: 's2' });
    optimizer.release();
    await vi.advanceTimersByTimeAsync(1);
    const afterSearch = frames.at(-1)!;
    expect(afterSearch.plan.routes.flatMap((route) => route.stopIds).sort()).toEqual(['s1', 's4']);
    expect(afterSearch.diff).toMatchObject({ added: ['s4'], removed: ['s2'] });
  });

  it('refuses another caller, unknown stops and vehicles, and applies nothing of a refused message', async () => {
    const { actor, send, writes } = harness();
    await expect(actor.handle({ op: 'get', caller: { kind: 'user', id: 'someone' }, commandId: 'x' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(send({ type: 'add_stops', stops: [{ id: 'ok', ...STOPS.s1 }] }, { type: 'position', vehicleId: 'ghost', lat: 30.06, lng: 31.33 })).rejects.toBeInstanceOf(ApiError);
    await expect(send({ type: 'complete_stop', stopId: 'nope' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(actor.view().stops).toEqual([]);
    expect(writes).toHaveLength(0);
  });

  it('keeps positions in memory and writes them within a few seconds, or at once with the next change', async () => {
    const { send, add, writes, optimizer } = harness();
    await send({ type: 'position', vehicleId: 'van-west', lat: 30.0626, lng: 31.3219 });
    await send({ type: 'position', vehicleId: 'van-east', lat: 30.0589, lng: 31.3401 });
    expect(writes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(POSITION_FLUSH_MS);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.definition.vehicles.map((vehicle) => vehicle.position && { lat: vehicle.position.lat, lng: vehicle.position.lng })).toEqual([STOPS.s1, STOPS.s2]);
    await send({ type: 'position', vehicleId: 'van-west', lat: 30.0512, lng: 31.3355 });
    await add('s4');
    expect(writes).toHaveLength(2);
    expect(writes[1]!.definition.vehicles[0]!.position).toMatchObject(STOPS.s3);
    // positions alone never re-plan; the next plan starts from them
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(optimizer.problems).toHaveLength(1);
    expect(optimizer.problems[0]!.vehicles[0]!.start).toEqual(STOPS.s3);
    await vi.advanceTimersByTimeAsync(POSITION_FLUSH_MS);
    expect(writes).toHaveLength(3);
  });

  it('answers a retried command from memory instead of applying it twice', async () => {
    const { actor } = harness();
    const command = { op: 'apply' as const, events: [{ type: 'add_stops' as const, stops: [{ lat: 30.05, lng: 31.33 }] }], caller: owner, commandId: 'same' };
    const first = await actor.handle(command);
    expect(await actor.handle(command)).toEqual(first);
    expect(actor.view().stops).toHaveLength(1);
  });

  it('retries a failed search later, but not a refused problem (shown as planError until the next change)', async () => {
    const { add, optimizer, actor } = harness();
    let failure: Error | undefined = new Error('workers gone');
    const optimize = optimizer.optimize;
    optimizer.optimize = (problem) => (failure ? Promise.reject(failure) : optimize(problem));
    await add('s1');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(optimizer.problems).toHaveLength(0);
    failure = new ApiError('COSTING_UNAVAILABLE', { details: { costing: 'truck' } });
    await vi.advanceTimersByTimeAsync(RETRY_MS);
    expect(actor.view()).toMatchObject({ planVersion: 0, replanning: false, planError: { code: 'COSTING_UNAVAILABLE', details: { costing: 'truck' } } });
    failure = undefined;
    await vi.advanceTimersByTimeAsync(RETRY_MS * 3);
    expect(optimizer.problems).toHaveLength(0);
    await add('s2');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(actor.view()).toMatchObject({ planVersion: 1, planError: null });
  });

  it('retires when a write is fenced off (another process took the fleet over)', async () => {
    const { actor, add } = harness({ persist: async () => false });
    await expect(add('s1')).rejects.toBeInstanceOf(FleetFencedError);
    expect(actor.isLive).toBe(false);
  });
});
