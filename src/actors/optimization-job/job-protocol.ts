/**
 * What travels on the bus about optimization jobs. A job's actor answers at
 * `optimize.job.<id>` while its process runs it; a request there that finds
 * nobody (NO_RESPONDERS) means the owner is gone and the job may be claimed.
 */
import type { JobStatus } from '../../domain/optimization-job.js';
import type { ReplyTo } from '../runtime/actor-protocol.js';

export interface JobStatusRequest {
  op: 'status';
}

export interface JobStatusReply {
  id: string;
  status: JobStatus;
  attempts: number;
  owner: string;
}

/** Every request a job's actor answers, paired with its reply. */
export type JobExchange = { command: JobStatusRequest; reply: JobStatusReply };

export type JobReply<B extends JobStatusRequest> = ReplyTo<JobExchange, B>;

/** Published when a job is queued, so idle processes claim it at once rather than at their next poll. */
export interface JobsQueued {
  origin: string;
}
