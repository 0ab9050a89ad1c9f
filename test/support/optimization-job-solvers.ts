import type { JobSolver } from '../../src/actors/optimization-job/optimization-job-actor.js';

/** A solver that runs until its signal aborts it (then rejects); `onAbort` sees the abort. For tests. */
export function solveUntilAborted(onAbort: () => void = () => {}): JobSolver {
  return (_kind, _input, signal) =>
    new Promise((_, reject) =>
      signal.addEventListener('abort', () => {
        onAbort();
        reject(signal.reason);
      }),
    );
}
