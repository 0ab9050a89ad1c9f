/**
 * The job actor's own rule on retries. The job record it holds and the store
 * keeps is domain vocabulary (src/domain/optimization-job.ts).
 */

/** A process may start a job at most this many times; a job that keeps killing its process then fails. */
export const MAX_JOB_ATTEMPTS = 3;
