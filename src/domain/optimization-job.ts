/**
 * An optimization job as its actor holds it and the store keeps it (spec part
 * 3 §3 "Optimization job", §4.5). Plain JSON-safe data: the row is these
 * fields, and the bus carries parts of them between processes.
 */

/** The problems a job can solve: the body of the endpoint of the same name. */
export type JobKind = 'routes' | 'reoptimize' | 'binpack' | 'roster';

export const JOB_KINDS: readonly JobKind[] = ['routes', 'reoptimize', 'binpack', 'roster'];

/** Who submitted the job: only the same key or user may read it. */
export interface JobOwner {
  kind: 'key' | 'user';
  id: string;
}

/** Why a job failed, in the spec's error vocabulary (an error-registry code). */
export interface JobError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * `queued → running → completed | failed`. A running job whose owner died goes
 * back through a claim (`running → running` under a new owner, attempt + 1);
 * a graceful stop hands it back (`running → queued`). The two ends are final.
 */
export type JobState =
  | { status: 'queued'; attempts: number }
  | { status: 'running'; attempts: number; owner: string }
  | { status: 'completed'; attempts: number; result: unknown; finishedAt: string }
  | { status: 'failed'; attempts: number; error: JobError; finishedAt: string };

export type JobStatus = JobState['status'];

export interface JobRecord {
  id: string;
  owner: JobOwner;
  kind: JobKind;
  /** The validated body of the matching endpoint (defaults applied). */
  input: unknown;
  state: JobState;
  /** Write fence: the row's revision this copy was read at or last wrote. */
  revision: number;
  createdAt: string;
  /** When the first attempt started; null while waiting for a worker. */
  startedAt: string | null;
  /** When a finished job is deleted; null until it finishes. */
  expiresAt: string | null;
}
