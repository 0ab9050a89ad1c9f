/**
 * Asynchronous optimization jobs (spec part 3 §4.5, scope `optimize`): submit
 * a problem, then poll its record. Lifecycle, durability, retention and limits:
 * docs/optimization.md ("Jobs").
 */
import type { OptimizationJobs } from '../../services/optimization/optimization-jobs.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { JOB_BODY_LIMIT_BYTES, jobIdParams, jobRequest } from '../../services/optimization/job-request.js';

const route = { tags: ['optimization'] };

export function optimizationJobRoutes(jobs: OptimizationJobs): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/optimize/jobs',
      summary: 'Queue an optimization (routes, reoptimize, binpack or roster) and answer its job id at once',
      description:
        '`kind` (default `routes`) plus the body of `POST /optimize/<kind>`, validated the same way. Answers `{ jobId, status: "running", kind }`; poll `GET /optimize/jobs/{id}`. The job survives a restart of the process that accepted it. At most 10 open jobs per caller (429) and 500 per deployment (503 with Retry-After).',
      body: jobRequest,
      bodyLimitBytes: JOB_BODY_LIMIT_BYTES,
      errors: ['RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
      handler: ({ principal, body }) => jobs.submit(principal, body),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/optimize/jobs/{id}',
      summary: 'The job: `running`, then `completed` with `result` or `failed` with `error`',
      description:
        'Readable from any process. Finished jobs are kept 24 h after `finishedAt` (see `expiresAt`), then deleted. An unknown id — or a job of another caller — answers 200 `{ error: "job not found", status: "unknown" }`.',
      params: jobIdParams,
      handler: ({ principal, params }) => jobs.get(principal, params.id),
    }),
  ];
}
