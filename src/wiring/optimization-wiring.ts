import { availableParallelism } from 'node:os';
import type { Backends } from './backends.js';
import { OptimizationJobHost } from '../actors/optimization-job/job-host.js';
import { JOB_KINDS, type JobKind } from '../domain/optimization-job.js';
import { createSubjects } from '../actors/runtime/subjects.js';
import type { RouteDefinition } from '../edge/route.js';
import { optimizationRoutes } from '../edge/routes/optimization.js';
import { optimizationJobRoutes } from '../edge/routes/optimization-jobs.js';
import { describeJobError, JOB_DEFAULTS, jobSolverFor, OptimizationJobs } from '../services/optimization/optimization-jobs.js';
import { OptimizationService } from '../services/optimization/optimization-service.js';
import { RouteOptimizer } from '../services/optimization/route-optimizer.js';
import type { TravelMatrixSource } from '../services/optimization/travel-matrix.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import type { SolverPool } from '../solvers/solver-pool.js';
import { OptimizationJobRepository } from '../store/pg/optimization-jobs.js';

export interface OptimizationWiring {
  routes: RouteDefinition[];
  /** Hands this process's running jobs back to the queue; call before the backends close. */
  stop(): Promise<void>;
}

/**
 * Route optimization, bin packing, rostering and their asynchronous jobs (spec
 * part 3 §4.5). Without a travel-matrix source (the routing engine) the
 * routes/reoptimize endpoints and job kinds are not served: optimization never
 * falls back to straight-line distances. Jobs live in SQL and run as actors
 * addressed over the bus, so any process finishes what another accepted.
 */
export function wireOptimization(config: Config, solvers: SolverPool, backends: Backends, logger: Logger, matrices?: TravelMatrixSource): OptimizationWiring {
  const threads = config.WORKER_THREADS > 0 ? config.WORKER_THREADS : availableParallelism();
  const optimizer = matrices ? new RouteOptimizer(matrices, solvers, threads) : undefined;
  const service = new OptimizationService(solvers, optimizer);
  const jobLogger = logger.child({ component: 'optimization-jobs' });
  const host = new OptimizationJobHost({
    bus: backends.bus,
    subjects: createSubjects(config.BUS_NAMESPACE),
    repository: new OptimizationJobRepository(backends.sql, { retentionMs: JOB_DEFAULTS.retentionMs, leaseMs: JOB_DEFAULTS.leaseMs }),
    solve: jobSolverFor(service),
    describeError: (error, jobId) => {
      const described = describeJobError(error);
      if (described.code === 'INTERNAL_ERROR') jobLogger.error({ err: error, jobId }, 'optimization job failed');
      return described;
    },
    logger: jobLogger,
    concurrency: JOB_DEFAULTS.concurrency,
    leaseMs: JOB_DEFAULTS.leaseMs,
    runTimeoutMs: JOB_DEFAULTS.runTimeoutMs,
  });
  const served = new Set<JobKind>(JOB_KINDS.filter((kind) => optimizer || (kind !== 'routes' && kind !== 'reoptimize')));
  const jobs = new OptimizationJobs(host, served);
  // claims the jobs that processes which died left unfinished
  host.start();
  return {
    routes: [...optimizationRoutes(service), ...optimizationJobRoutes(jobs)],
    stop: () => host.close(),
  };
}
