import { ApiError } from '../shared/errors.js';
import { SlotQueueFullError } from '../solvers/fifo-slots.js';

/**
 * Awaits a solver task; a failure after `signal` (the request's) aborted is the client's leaving, not a fault:
 * CLIENT_CLOSED_REQUEST, logged and counted as 499 instead of a 500 with a stack (nobody is left to read it).
 * A task refused because the workers' waiting line is full is SERVER_BUSY (503, Retry-After: 1).
 */
export async function unlessClientLeft<T>(work: Promise<T>, signal: AbortSignal | undefined, computation: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (signal?.aborted) throw new ApiError('CLIENT_CLOSED_REQUEST', { message: `The client closed the request while its ${computation} computation ran` });
    if (error instanceof SlotQueueFullError) {
      throw new ApiError('SERVER_BUSY', {
        message: `The ${computation} computation was refused: ${error.message}; retry shortly`,
        details: { maxQueued: error.maxWaiting },
        headers: { 'retry-after': '1' },
      });
    }
    throw error;
  }
}
