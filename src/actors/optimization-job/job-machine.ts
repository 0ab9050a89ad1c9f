/**
 * The pure transitions of an optimization job. No I/O and no clock of its own
 * (times come in): the host and the actor decide when to write and run the
 * effects; the tests drive it directly. An impossible transition is a bug in
 * the caller, so it throws instead of answering a user error.
 */
import { MAX_JOB_ATTEMPTS } from './job-model.js';
import type { JobError, JobState } from '../../domain/optimization-job.js';

export type JobMessage =
  /** A process takes the job: it is queued, or its owner is gone (lease expired, nobody answers its subject). */
  | { type: 'claim'; owner: string; at: string }
  | { type: 'solved'; result: unknown; at: string }
  | { type: 'solve-failed'; error: JobError; at: string }
  /** The owner stops gracefully: the job goes back to the queue without counting the attempt. */
  | { type: 'release' };

export type JobEffect =
  /** Make the new state durable with a fenced write before anything else happens. */
  | { type: 'persist' }
  /** Start the solver (the claim succeeded). */
  | { type: 'start-solver' }
  /** Stop the solver: its answer is no longer wanted. */
  | { type: 'stop-solver' }
  /** The job reached an end: drop the actor, keep the record until retention ends. */
  | { type: 'finished' };

export interface Transition {
  state: JobState;
  effects: JobEffect[];
}

export class InvalidJobTransitionError extends Error {
  constructor(from: JobState['status'], message: JobMessage['type']) {
    super(`optimization job: no transition from ${from} on ${message}`);
    this.name = 'InvalidJobTransitionError';
  }
}

export function transition(state: JobState, message: JobMessage): Transition {
  switch (message.type) {
    case 'claim': {
      if (state.status !== 'queued' && state.status !== 'running') break;
      if (state.attempts >= MAX_JOB_ATTEMPTS) {
        // each earlier attempt ended with its process: do not let this job take a third one down
        const error: JobError = {
          code: 'INTERNAL_ERROR',
          message: `The job was interrupted ${state.attempts} times (its process stopped while solving); it is not retried again`,
          details: { reason: 'abandoned', attempts: state.attempts },
        };
        return { state: { status: 'failed', attempts: state.attempts, error, finishedAt: message.at }, effects: [{ type: 'persist' }, { type: 'finished' }] };
      }
      return { state: { status: 'running', attempts: state.attempts + 1, owner: message.owner }, effects: [{ type: 'persist' }, { type: 'start-solver' }] };
    }
    case 'solved':
      if (state.status !== 'running') break;
      return { state: { status: 'completed', attempts: state.attempts, result: message.result, finishedAt: message.at }, effects: [{ type: 'persist' }, { type: 'finished' }] };
    case 'solve-failed':
      if (state.status !== 'running') break;
      return { state: { status: 'failed', attempts: state.attempts, error: message.error, finishedAt: message.at }, effects: [{ type: 'persist' }, { type: 'finished' }] };
    case 'release':
      if (state.status !== 'running') break;
      return { state: { status: 'queued', attempts: Math.max(0, state.attempts - 1) }, effects: [{ type: 'stop-solver' }, { type: 'persist' }, { type: 'finished' }] };
  }
  throw new InvalidJobTransitionError(state.status, message.type);
}

/** The status the API shows (spec §4.5: `running|completed|failed`): a job waiting for a worker is already `running` to its caller. */
export function publicStatus(state: JobState): 'running' | 'completed' | 'failed' {
  return state.status === 'queued' ? 'running' : state.status;
}
