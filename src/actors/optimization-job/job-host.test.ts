/**
 * The job host over the embedded store (PGlite, the same SQL as Postgres) and
 * in-process buses: claims, completion once, takeover from an owner that stops
 * answering, release on a graceful stop, abandonment, retention.
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryBus } from '../runtime/bus/memory-bus.js';
import { createSubjects } from '../runtime/subjects.js';
import { createPgliteClient } from '../../store/sql/pglite-client.js';
import { createPostgresClient } from '../../store/sql/postgres-client.js';
import { applyMigrations } from '../../store/sql/migrate.js';
import { migrations } from '../../store/sql/migrations/index.js';
import type { SqlClient } from '../../store/sql/sql-client.js';
import { OptimizationJobRepository } from '../../store/pg/optimization-jobs.js';
import { OptimizationJobHost, type JobHostOptions } from './job-host.js';
import { MAX_JOB_ATTEMPTS } from './job-model.js';
import type { JobRecord } from '../../domain/optimization-job.js';
import type { JobSolver } from './optimization-job-actor.js';
import { solveUntilAborted } from '../../../test/support/optimization-job-solvers.js';

const logger = pino({ level: 'silent' });
const subjects = createSubjects('jobs_test');
const LIMITS = { perOwner: 10, total: 100 };
let sql: SqlClient;
const hosts: OptimizationJobHost[] = [];

/** With DATABASE_URL set (CI, the real-services run) the same tests run on Postgres in a schema of their own. */
const databaseUrl = process.env.DATABASE_URL;
const schema = databaseUrl ? `jobs_test_${process.pid}_${Date.now().toString(36)}` : 'jobs_test';

beforeAll(async () => {
  sql = databaseUrl ? createPostgresClient({ url: databaseUrl, schema }) : await createPgliteClient({ dataDir: 'memory://', schema });
  await applyMigrations(sql, schema, migrations);
}, 30_000);
afterAll(async () => {
  for (const host of hosts.splice(0)) await host.close();
  if (databaseUrl) await sql.exec(`drop schema if exists "${schema}" cascade`);
  await sql.close();
});
beforeEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  await sql.query('delete from optimization_jobs');
});

function repository(options: { leaseMs?: number; retentionMs?: number } = {}) {
  return new OptimizationJobRepository(sql, { leaseMs: options.leaseMs ?? 30_000, retentionMs: options.retentionMs ?? 86_400_000 });
}

function host(bus: MemoryBus, solve: JobSolver, options: Partial<JobHostOptions> = {}): OptimizationJobHost {
  const created = new OptimizationJobHost({
    bus,
    subjects,
    repository: repository(),
    solve,
    describeError: () => ({ code: 'INTERNAL_ERROR', message: 'failed' }),
    logger,
    concurrency: 1,
    leaseMs: 30_000,
    runTimeoutMs: 10_000,
    pollIntervalMs: 50,
    probeGraceMs: 0,
    ...options,
  });
  hosts.push(created);
  created.start();
  return created;
}

function newJob(input: unknown = { n: 1 }): JobRecord {
  return {
    id: randomUUID(),
    owner: { kind: 'user', id: 'u1' },
    kind: 'binpack',
    input,
    state: { status: 'queued', attempts: 0 },
    revision: 0,
    createdAt: new Date().toISOString(),
    startedAt: null,
    expiresAt: null,
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const never = solveUntilAborted();

describe('optimization job host', () => {
  it('runs every job exactly once with two processes competing for them', async () => {
    const bus = new MemoryBus();
    const runs: unknown[] = [];
    const solve: JobSolver = async (_kind, input) => {
      runs.push(input);
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { echoed: input };
    };
    const a = host(bus, solve);
    host(bus, solve);
    const jobs = Array.from({ length: 6 }, (_, index) => newJob({ n: index }));
    for (const job of jobs) expect(await a.submit(job, LIMITS)).toEqual({ inserted: true });
    for (const job of jobs) {
      const record = await until(() => a.read(job.id), (value) => value?.state.status === 'completed');
      expect(record?.state).toMatchObject({ status: 'completed', attempts: 1, result: { echoed: job.input } });
    }
    expect(runs).toHaveLength(6);
  });

  it('takes over a job whose owner stopped answering on the bus; the old owner drops it at its next lease renewal', async () => {
    const busA = new MemoryBus();
    const busB = new MemoryBus();
    let aborted = false;
    const a = host(
      busA,
      solveUntilAborted(() => (aborted = true)),
      { leaseMs: 150 },
    );
    const job = newJob();
    await a.submit(job, LIMITS);
    await until(() => a.read(job.id), (value) => value?.state.status === 'running');
    expect(a.runningCount).toBe(1);
    // B shares the store but not A's bus: to B, nobody answers for the job
    const b = host(busB, async () => ({ done: 'by b' }));
    const record = await until(() => b.read(job.id), (value) => value?.state.status === 'completed');
    expect(record?.state).toMatchObject({ status: 'completed', attempts: 2, result: { done: 'by b' } });
    await until(async () => a.runningCount, (count) => count === 0);
    expect(aborted).toBe(true);
  });

  it('claims a job whose lease ran out, and fails one interrupted too often instead of running it again', async () => {
    const store = repository({ leaseMs: 1 });
    const stale = newJob();
    const worn = newJob();
    for (const [job, attempts] of [
      [stale, 1],
      [worn, MAX_JOB_ATTEMPTS],
    ] as const) {
      await store.insertWithinLimits(job, LIMITS);
      expect(await store.write(job.id, 0, { status: 'running', attempts, owner: 'dead-process' })).toBe(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    let runs = 0;
    const b = host(new MemoryBus(), async () => ++runs);
    expect((await until(() => b.read(stale.id), (value) => value?.state.status === 'completed'))?.state).toMatchObject({ status: 'completed', attempts: 2 });
    expect((await until(() => b.read(worn.id), (value) => value?.state.status === 'failed'))?.state).toMatchObject({ status: 'failed', error: { details: { reason: 'abandoned' } } });
    expect(runs).toBe(1);
  });

  it('hands running jobs back on a graceful stop, without counting the attempt, and another process finishes them', async () => {
    const bus = new MemoryBus();
    const a = host(bus, never);
    const job = newJob();
    await a.submit(job, LIMITS);
    await until(() => a.read(job.id), (value) => value?.state.status === 'running');
    await a.close();
    expect((await repository().load(job.id))?.state).toEqual({ status: 'queued', attempts: 0 });
    const b = host(bus, async () => 'finished');
    expect((await until(() => b.read(job.id), (value) => value?.state.status === 'completed'))?.state).toMatchObject({ attempts: 1, result: 'finished' });
  });

  it('refuses jobs beyond the per-owner and total caps of open jobs', async () => {
    const a = host(new MemoryBus(), never, { concurrency: 0 });
    expect(await a.submit(newJob(), { perOwner: 2, total: 3 })).toEqual({ inserted: true });
    expect(await a.submit(newJob(), { perOwner: 2, total: 3 })).toEqual({ inserted: true });
    expect(await a.submit(newJob(), { perOwner: 2, total: 3 })).toEqual({ inserted: false, ownerOpen: 2, totalOpen: 2 });
    expect(await a.submit({ ...newJob(), owner: { kind: 'key', id: 'k1' } }, { perOwner: 2, total: 3 })).toEqual({ inserted: true });
    expect(await a.submit({ ...newJob(), owner: { kind: 'key', id: 'k2' } }, { perOwner: 2, total: 3 })).toEqual({ inserted: false, ownerOpen: 0, totalOpen: 3 });
  });

  it('deletes finished jobs once their retention has passed, and only those', async () => {
    const store = repository({ retentionMs: 1 });
    const finished = newJob();
    const open = newJob();
    await store.insertWithinLimits(finished, LIMITS);
    await store.insertWithinLimits(open, LIMITS);
    await store.write(finished.id, 0, { status: 'completed', attempts: 1, result: 1, finishedAt: new Date().toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await store.deleteExpired()).toBe(1);
    expect(await store.load(finished.id)).toBeUndefined();
    expect(await store.load(open.id)).toBeDefined();
  });
});
