/**
 * The routing time budget: a task that runs past it is cancelled in its
 * worker and answered as COMPUTATION_TIMEOUT; the pool keeps serving. A caller
 * that leaves is answered at once, but its running task finishes on the same
 * worker (no thread restart stalling everyone queued behind it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../src/datapack/map-pack.js';
import { EngineFailure } from '../src/services/routing/engine-envelope.js';
import { runWithBudget } from '../src/services/routing/solver-call.js';
import { ApiError } from '../src/shared/errors.js';
import { SolverPool } from '../src/solvers/solver-pool.js';
import { routingPack } from './support/routing-packs.js';

let pool: SolverPool;
let monaco: MapPack;

beforeAll(async () => {
  monaco = await routingPack('monaco');
  pool = new SolverPool({ threads: 1, runningTaskOnAbort: 'finish', shared: { mapPack: monaco.buffer as SharedArrayBuffer } });
}, 60_000);

afterAll(async () => {
  await pool.close();
});

describe('routing time budget', () => {
  it('cancels a computation past its budget with COMPUTATION_TIMEOUT, and the pool answers the next task', async () => {
    // contracting Monaco's pedestrian graph takes about a second: far beyond 20 ms
    const error = await runWithBudget(pool, 'contractMetric', { metric: { costing: 'pedestrian', preference: 'balanced', avoid: [] } }, 20).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('COMPUTATION_TIMEOUT');
    expect((error as ApiError).details).toEqual({ budgetMs: 20 });
    const next = await runWithBudget(pool, 'mapPackSummary', undefined, 10_000);
    expect(next).toMatchObject({ ok: true, value: { nodes: monaco.nodeCount } });
  });

  it('answers a task that fails in its worker as an EngineFailure (the engine\'s, not the request\'s), and the pool answers the next task', async () => {
    // a metric no profile knows: the task throws in the worker
    const error = await runWithBudget(pool, 'contractMetric', { metric: { costing: 'hovercraft' as never, preference: 'balanced', avoid: [] } }, 10_000).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineFailure);
    expect((error as EngineFailure).failure).toBe('worker_failed');
    expect((error as EngineFailure).cause).toBeInstanceOf(Error);
    const next = await runWithBudget(pool, 'mapPackSummary', undefined, 10_000);
    expect(next).toMatchObject({ ok: true, value: { nodes: monaco.nodeCount } });
  });

  it('answers a caller that gave up (a client gone away) at once, without calling it a timeout or restarting the worker', async () => {
    await runWithBudget(pool, 'mapPackSummary', undefined, 10_000);
    const threadsBefore = pool.threadIds;
    const caller = new AbortController();
    const startedAt = performance.now();
    const pending = runWithBudget(pool, 'contractMetric', { metric: { costing: 'bicycle', preference: 'balanced', avoid: [] } }, 10_000, caller.signal).catch((caught: unknown) => caught);
    setTimeout(() => caller.abort(), 20);
    const error = await pending;
    const answeredAfterMs = performance.now() - startedAt;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('CLIENT_CLOSED_REQUEST');
    expect((error as ApiError).statusCode).toBe(499);
    const next = await runWithBudget(pool, 'mapPackSummary', undefined, 10_000, new AbortController().signal);
    const nextAfterMs = performance.now() - startedAt;
    expect(next).toMatchObject({ ok: true, value: { nodes: monaco.nodeCount } });
    // the same thread ran the abandoned contraction to its end (well after its caller was answered), then the
    // next task (first come, first served)
    expect(pool.threadIds).toEqual(threadsBefore);
    expect(nextAfterMs - answeredAfterMs).toBeGreaterThan(100);
  });

  it('still ends the worker when a task whose caller left runs past the budget', async () => {
    await runWithBudget(pool, 'mapPackSummary', undefined, 10_000);
    const threadsBefore = pool.threadIds;
    const caller = new AbortController();
    const startedAt = performance.now();
    // contracting Monaco's pedestrian graph takes about a second; the budget is 250 ms
    const pending = runWithBudget(pool, 'contractMetric', { metric: { costing: 'pedestrian', preference: 'balanced', avoid: [] } }, 250, caller.signal).catch((caught: unknown) => caught);
    setTimeout(() => caller.abort(), 20);
    expect(((await pending) as ApiError).code).toBe('CLIENT_CLOSED_REQUEST');
    const next = await runWithBudget(pool, 'mapPackSummary', undefined, 10_000);
    expect(next.ok).toBe(true);
    // the budget, not the contraction's end, freed the worker: a new thread answered
    expect(pool.threadIds).not.toEqual(threadsBefore);
    expect(performance.now() - startedAt).toBeLessThan(5_000);
  });

  it('ends the worker of a task past its budget and starts a new one', async () => {
    await runWithBudget(pool, 'mapPackSummary', undefined, 10_000);
    const threadsBefore = pool.threadIds;
    const error = await runWithBudget(pool, 'contractMetric', { metric: { costing: 'motor_scooter', preference: 'balanced', avoid: [] } }, 20, new AbortController().signal).catch((caught: unknown) => caught);
    expect((error as ApiError).code).toBe('COMPUTATION_TIMEOUT');
    const next = await runWithBudget(pool, 'mapPackSummary', undefined, 10_000);
    expect(next.ok).toBe(true);
    expect(pool.threadIds).not.toEqual(threadsBefore);
  });
});
