import { z } from 'zod';
import { binPackRequest, reoptimizeRequest, rosterRequest, routesRequest } from './optimization-requests.js';

/**
 * `POST /optimize/jobs` (spec part 3 §4.5): `kind` (default `routes`) plus the
 * body of the endpoint of that name, validated by that endpoint's own schema
 * (its limits and cross-field checks included).
 */
export const jobRequest = z.discriminatedUnion(
  'kind',
  [
    routesRequest.safeExtend({ kind: z.literal('routes').optional().default('routes') }),
    reoptimizeRequest.safeExtend({ kind: z.literal('reoptimize') }),
    binPackRequest.safeExtend({ kind: z.literal('binpack') }),
    rosterRequest.safeExtend({ kind: z.literal('roster') }),
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? 'kind must be one of routes (the default), reoptimize, binpack, roster' : undefined) },
);

export type JobRequest = z.infer<typeof jobRequest>;

/** Any text: an id that names no job gets the spec's "job not found" answer, not a 400. */
export const jobIdParams = z.object({ id: z.string().min(1).max(200) });

/**
 * Largest job body: the biggest valid problem (500 stops with every per-stop array, or a
 * roster with 20 000 forbidden pairs) is well under it.
 */
export const JOB_BODY_LIMIT_BYTES = 512 * 1024;
