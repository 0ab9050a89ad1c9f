/**
 * Asynchronous optimization jobs (spec part 3 §3, §4.5): submit answers at
 * once with the job's id; the job runs as an actor in some process (see
 * actors/optimization-job/job-host.ts) and its record is read from the store
 * by any process. A job is its creator's: another caller reading its id gets
 * the same answer as for an id that does not exist.
 */
import { randomUUID } from 'node:crypto';
import type { OptimizationJobHost } from '../../actors/optimization-job/job-host.js';
import { publicStatus } from '../../actors/optimization-job/job-machine.js';
import type { JobError, JobKind, JobOwner, JobRecord } from '../../domain/optimization-job.js';
import type { JobSolver } from '../../actors/optimization-job/optimization-job-actor.js';
import type { BinPackRequest, ReoptimizeRequest, RosterRequest, RoutesRequest } from './optimization-requests.js';
import type { JobRequest } from './job-request.js';
import { ApiError } from '../../shared/errors.js';
import type { OpenJobLimits } from '../../store/pg/optimization-jobs.js';
import type { OptimizationService } from './optimization-service.js';
import { isUuid } from '../../shared/uuid.js';
import type { Principal } from '../../domain/principal.js';

/** Defaults of the job limits and lifetimes, documented in docs/optimization.md ("Jobs"). */
export const JOB_DEFAULTS = {
  /** Jobs one key or user may have queued or running. */
  maxOpenPerOwner: 10,
  /** Jobs the deployment holds queued or running. */
  maxOpenTotal: 500,
  /** Finished jobs are readable this long, then deleted. */
  retentionMs: 24 * 60 * 60_000,
  /** A claim holds a job this long without renewal (renewed every third of it while it runs). */
  leaseMs: 30_000,
  /** One run of a job: the `best` tier's 20 s search, the travel matrix, and room for a queue of searches. */
  runTimeoutMs: 5 * 60_000,
  /** Jobs one process runs at once (each VRP job uses every worker thread). */
  concurrency: 2,
} as const;

/** The spec's answer for an unknown job (also for another caller's job). */
export const UNKNOWN_JOB = Object.freeze({ error: 'job not found', status: 'unknown' as const });

/** Seconds a caller refused for a full queue should wait before submitting again. */
const FULL_QUEUE_RETRY_SECONDS = 30;

export interface JobView {
  id: string;
  kind: JobKind;
  status: 'running' | 'completed' | 'failed';
  createdAt: string;
  /** When a worker first took the job; null while it waits for one. */
  startedAt: string | null;
  finishedAt: string | null;
  /** When a finished job is deleted (its result with it); null while it runs. */
  expiresAt: string | null;
  result?: unknown;
  error?: JobError;
}

export function jobOwnerOf(principal: Principal | undefined): JobOwner {
  if (principal?.kind === 'key') return { kind: 'key', id: principal.keyId };
  if (principal?.kind === 'user') return { kind: 'user', id: principal.userId };
  throw new ApiError('UNAUTHENTICATED', { message: 'Optimization jobs need an API key or a bearer token' });
}

export function jobViewOf(record: JobRecord): JobView {
  const { state } = record;
  const finishedAt = state.status === 'completed' || state.status === 'failed' ? state.finishedAt : null;
  return {
    id: record.id,
    kind: record.kind,
    status: publicStatus(state),
    createdAt: record.createdAt,
    startedAt: record.startedAt,
    finishedAt,
    expiresAt: record.expiresAt,
    ...(state.status === 'completed' ? { result: state.result } : {}),
    ...(state.status === 'failed' ? { error: state.error } : {}),
  };
}

export class OptimizationJobs {
  constructor(
    private readonly host: OptimizationJobHost,
    /** Kinds this deployment solves (routes and reoptimize need the routing engine). */
    private readonly servedKinds: ReadonlySet<JobKind>,
    private readonly limits: OpenJobLimits = { perOwner: JOB_DEFAULTS.maxOpenPerOwner, total: JOB_DEFAULTS.maxOpenTotal },
    private readonly now: () => number = Date.now,
  ) {}

  async submit(principal: Principal | undefined, request: JobRequest): Promise<{ jobId: string; status: 'running'; kind: JobKind }> {
    const owner = jobOwnerOf(principal);
    const { kind, ...input } = request;
    if (!this.servedKinds.has(kind)) {
      throw new ApiError('VALIDATION_ERROR', { message: `kind: ${kind} jobs are not served by this deployment`, details: { servedKinds: [...this.servedKinds] } });
    }
    const record: JobRecord = {
      id: randomUUID(),
      owner,
      kind,
      input,
      state: { status: 'queued', attempts: 0 },
      revision: 0,
      createdAt: new Date(this.now()).toISOString(),
      startedAt: null,
      expiresAt: null,
    };
    const outcome = await this.host.submit(record, this.limits);
    if (!outcome.inserted) {
      if (outcome.ownerOpen >= this.limits.perOwner) {
        throw new ApiError('RATE_LIMITED', {
          message: `You have ${outcome.ownerOpen} optimization jobs queued or running, the most allowed; submit more as they finish`,
          details: { reason: 'too_many_open_jobs', limit: this.limits.perOwner },
        });
      }
      throw new ApiError('SERVICE_UNAVAILABLE', {
        message: 'The optimization job queue is full; retry later',
        details: { reason: 'job_queue_full', limit: this.limits.total },
        headers: { 'retry-after': String(FULL_QUEUE_RETRY_SECONDS) },
      });
    }
    return { jobId: record.id, status: 'running', kind };
  }

  async get(principal: Principal | undefined, id: string): Promise<JobView | typeof UNKNOWN_JOB> {
    const owner = jobOwnerOf(principal);
    if (!isUuid(id)) return UNKNOWN_JOB;
    const record = await this.host.read(id.toLowerCase());
    if (!record || record.owner.kind !== owner.kind || record.owner.id !== owner.id) return UNKNOWN_JOB;
    return jobViewOf(record);
  }
}

/** Runs a job's problem through the same services as the synchronous endpoints, so both answer alike. */
export function jobSolverFor(service: OptimizationService): JobSolver {
  return async (kind, input, signal) => {
    switch (kind) {
      case 'binpack':
        return service.binPack(input as BinPackRequest, signal);
      case 'roster':
        return service.roster(input as RosterRequest, signal);
      case 'routes':
        return requireRoutes(service).optimize(input as RoutesRequest, signal);
      case 'reoptimize':
        return requireRoutes(service).reoptimize(input as ReoptimizeRequest, signal);
    }
  };
}

function requireRoutes(service: OptimizationService) {
  if (!service.routes) throw new ApiError('SERVICE_UNAVAILABLE', { message: 'Route optimization is not served by this process (no routing engine)' });
  return service.routes;
}

/** A solver failure as the job's error: an API error as it would have been answered, anything else as an internal error. */
export function describeJobError(error: unknown): JobError {
  if (error instanceof ApiError) {
    return { code: error.code, message: Array.isArray(error.messages) ? error.messages.join('; ') : error.messages, ...(error.details ? { details: error.details } : {}) };
  }
  return { code: 'INTERNAL_ERROR', message: 'The solver failed on this job' };
}
