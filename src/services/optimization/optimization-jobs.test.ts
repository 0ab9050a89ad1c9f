import { describe, expect, it } from 'vitest';
import type { OptimizationJobHost } from '../../actors/optimization-job/job-host.js';
import type { JobRecord } from '../../domain/optimization-job.js';
import { ApiError } from '../../shared/errors.js';
import type { InsertOutcome } from '../../store/pg/optimization-jobs.js';
import { OptimizationJobs, UNKNOWN_JOB } from './optimization-jobs.js';
import type { Principal } from '../../domain/principal.js';

const user: Principal = { kind: 'user', userId: 'u1', sessionId: 's1', roles: [] };
const key: Principal = { kind: 'key', keyId: 'u1' };
const binpack = { kind: 'binpack' as const, itemWeights: [1], binCapacities: [2] };

/** A host that stores jobs in a map, with the outcome of the open-job caps chosen by the test. */
function fakeHost(outcome: InsertOutcome = { inserted: true }) {
  const stored = new Map<string, JobRecord>();
  const host = {
    submit: async (record: JobRecord) => {
      if (outcome.inserted) stored.set(record.id, record);
      return outcome;
    },
    read: async (id: string) => stored.get(id),
  } as unknown as OptimizationJobHost;
  return { host, stored };
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('optimization jobs service', () => {
  it('stores the body without its kind as the job input and answers running at once', async () => {
    const { host, stored } = fakeHost();
    const jobs = new OptimizationJobs(host, new Set(['binpack']));
    const accepted = await jobs.submit(user, binpack);
    expect(accepted).toEqual({ jobId: expect.any(String), status: 'running', kind: 'binpack' });
    expect(stored.get(accepted.jobId)).toMatchObject({ owner: { kind: 'user', id: 'u1' }, kind: 'binpack', input: { itemWeights: [1], binCapacities: [2] }, state: { status: 'queued' } });
  });

  it('answers 429 when the caller has too many open jobs, 503 with Retry-After when the deployment has', async () => {
    const mine = await refusal(new OptimizationJobs(fakeHost({ inserted: false, ownerOpen: 10, totalOpen: 40 }).host, new Set(['binpack'])).submit(user, binpack));
    expect(mine).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', details: { reason: 'too_many_open_jobs', limit: 10 } });
    const everyone = await refusal(new OptimizationJobs(fakeHost({ inserted: false, ownerOpen: 1, totalOpen: 500 }).host, new Set(['binpack'])).submit(user, binpack));
    expect(everyone).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', details: { reason: 'job_queue_full' }, headers: { 'retry-after': '30' } });
  });

  it('refuses a kind this deployment does not serve with a 400', async () => {
    const error = await refusal(new OptimizationJobs(fakeHost().host, new Set(['binpack'])).submit(user, { kind: 'roster', numDrivers: 1, numDays: 1, shiftsPerDay: 1, demand: [[1]] }));
    expect(error).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
  });

  it('shows a job only to its creator: a key with the same id string as the user is someone else', async () => {
    const jobs = new OptimizationJobs(fakeHost().host, new Set(['binpack']));
    const { jobId } = await jobs.submit(user, binpack);
    expect(await jobs.get(user, jobId)).toMatchObject({ id: jobId, kind: 'binpack', status: 'running', startedAt: null, finishedAt: null });
    expect(await jobs.get(user, jobId.toUpperCase())).toMatchObject({ id: jobId });
    expect(await jobs.get(key, jobId)).toEqual(UNKNOWN_JOB);
    expect(await jobs.get({ ...user, userId: 'u2' }, jobId)).toEqual(UNKNOWN_JOB);
  });
});
