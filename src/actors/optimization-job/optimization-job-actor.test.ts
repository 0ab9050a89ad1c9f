import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/errors.js';
import type { JobRecord, JobState } from '../../domain/optimization-job.js';
import { solveUntilAborted } from '../../../test/support/optimization-job-solvers.js';
import { OptimizationJobActor, type JobActorDeps, type JobSolver } from './optimization-job-actor.js';

function claimedJob(): JobRecord {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    owner: { kind: 'user', id: 'u1' },
    kind: 'binpack',
    input: { itemWeights: [1], binCapacities: [2] },
    state: { status: 'running', attempts: 1, owner: 'p1' },
    revision: 1,
    createdAt: '2026-11-23T04:00:00.000Z',
    startedAt: '2026-11-23T04:00:00.000Z',
    expiresAt: null,
  };
}

/** An actor over an in-memory row with a revision fence, like the repository's. */
function harness(solve: JobSolver, options: { runTimeoutMs?: number; failingWrites?: number } = {}) {
  const row = { revision: 1, state: claimedJob().state as JobState };
  const writes: JobState[] = [];
  const writeFailures: unknown[] = [];
  let failingWrites = options.failingWrites ?? 0;
  let retired = 0;
  const deps: JobActorDeps = {
    solve,
    persist: async (_id, expected, state) => {
      if (failingWrites-- > 0) throw new Error('connection refused');
      if (row.revision !== expected) return undefined;
      row.revision++;
      row.state = state;
      writes.push(state);
      return row.revision;
    },
    describeError: (error) => (error instanceof ApiError ? { code: error.code, message: error.message } : { code: 'INTERNAL_ERROR', message: 'failed' }),
    onRetired: () => retired++,
    onWriteFailed: (_id, error) => writeFailures.push(error),
    writeRetryDelayMs: 5,
    runTimeoutMs: options.runTimeoutMs ?? 10_000,
    now: () => Date.parse('2026-11-23T04:00:05.000Z'),
  };
  const actor = new OptimizationJobActor(claimedJob(), deps);
  return { actor, row, writes, writeFailures, retired: () => retired };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('optimization job actor', () => {
  it('writes the solver answer as the completed job and retires', async () => {
    const { actor, row, retired } = harness(async () => ({ feasible: true, binsUsed: 1 }));
    actor.start();
    await settle();
    expect(row.state).toEqual({ status: 'completed', attempts: 1, result: { feasible: true, binsUsed: 1 }, finishedAt: '2026-11-23T04:00:05.000Z' });
    expect(retired()).toBe(1);
    expect(actor.isLive).toBe(false);
  });

  it('records an API error of the solver as the job error', async () => {
    const { actor, row } = harness(async () => {
      throw new ApiError('COSTING_UNAVAILABLE', { message: 'no truck data' });
    });
    actor.start();
    await settle();
    expect(row.state).toMatchObject({ status: 'failed', error: { code: 'COSTING_UNAVAILABLE', message: 'no truck data' } });
  });

  it('fails the job with COMPUTATION_TIMEOUT when the run outlasts its budget, stopping the solver', async () => {
    let aborted = false;
    const { actor, row } = harness(
      solveUntilAborted(() => (aborted = true)),
      { runTimeoutMs: 30 },
    );
    actor.start();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(aborted).toBe(true);
    expect(row.state).toMatchObject({ status: 'failed', error: { code: 'COMPUTATION_TIMEOUT' } });
  });

  it('drops its answer when another process claimed the job meanwhile (the fence fails)', async () => {
    let finish: (value: unknown) => void = () => {};
    const { actor, row, writes, retired } = harness(() => new Promise((resolve) => (finish = resolve)));
    actor.start();
    // another process took the job over: the row moved on
    row.revision = 7;
    row.state = { status: 'running', attempts: 2, owner: 'p2' };
    finish({ feasible: true });
    await settle();
    expect(writes).toEqual([]);
    expect(row.state).toEqual({ status: 'running', attempts: 2, owner: 'p2' });
    expect(retired()).toBe(1);
  });

  it('hands the job back to the queue on release and stops its solver', async () => {
    let aborted = false;
    const { actor, row } = harness(solveUntilAborted(() => (aborted = true)));
    actor.start();
    await actor.release();
    await settle();
    expect(aborted).toBe(true);
    expect(row.state).toEqual({ status: 'queued', attempts: 0 });
    expect(actor.isLive).toBe(false);
  });

  it('retries a write the store refuses for a moment', async () => {
    const { actor, row, writeFailures } = harness(async () => 'packed', { failingWrites: 2 });
    actor.start();
    await settle();
    expect(row.state).toMatchObject({ status: 'completed', result: 'packed' });
    expect(writeFailures).toEqual([]);
  });

  it('leaves the job to its lease when the store stays away, so another claim runs it again', async () => {
    const { actor, row, writeFailures, retired } = harness(async () => 'packed', { failingWrites: 10 });
    actor.start();
    await settle();
    expect(row.state).toEqual({ status: 'running', attempts: 1, owner: 'p1' });
    expect(writeFailures).toHaveLength(1);
    expect(retired()).toBe(1);
  });
});
