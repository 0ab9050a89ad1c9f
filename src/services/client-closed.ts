import { ApiError } from '../shared/errors.js';

/**
 * A solver task cancelled because its client went away (the request's signal aborted): an outcome, not a fault.
 * Logged and counted as 499 instead of a 500 with a stack; nobody is left to read the answer.
 */
export function clientClosedRequest(computation: string): ApiError {
  return new ApiError('CLIENT_CLOSED_REQUEST', { message: `The client closed the request while its ${computation} computation ran` });
}

/** Awaits `work`; a failure after `signal` aborted is the client's leaving, reported as such. */
export async function unlessClientLeft<T>(work: Promise<T>, signal: AbortSignal | undefined, computation: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (signal?.aborted) throw clientClosedRequest(computation);
    throw error;
  }
}
