/**
 * The routing time budget: a task that runs past it is cancelled in its
 * worker and answered as COMPUTATION_TIMEOUT; the pool keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../src/datapack/map-pack.js';
import { runWithBudget } from '../src/services/routing/solver-call.js';
import { ApiError } from '../src/shared/errors.js';
import { SolverPool } from '../src/solvers/solver-pool.js';
import { routingPack } from './support/routing-packs.js';

let pool: SolverPool;
let monaco: MapPack;

beforeAll(async () => {
  monaco = await routingPack('monaco');
  pool = new SolverPool({ threads: 1, shared: { mapPack: monaco.buffer as SharedArrayBuffer } });
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

  it('cancels a computation the caller gave up on (a client gone away) without calling it a timeout', async () => {
    const caller = new AbortController();
    const pending = runWithBudget(pool, 'contractMetric', { metric: { costing: 'bicycle', preference: 'balanced', avoid: [] } }, 10_000, caller.signal).catch((caught: unknown) => caught);
    setTimeout(() => caller.abort(), 20);
    const error = await pending;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('CLIENT_CLOSED_REQUEST');
    expect((error as ApiError).statusCode).toBe(499);
    const next = await runWithBudget(pool, 'mapPackSummary', undefined, 10_000, new AbortController().signal);
    expect(next).toMatchObject({ ok: true, value: { nodes: monaco.nodeCount } });
  });
});
