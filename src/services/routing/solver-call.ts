/**
 * Runs a solver task under the routing time budget: cancelled when the client
 * goes away (CLIENT_CLOSED_REQUEST, 499 in the request log) or the budget runs
 * out (COMPUTATION_TIMEOUT); a task that fails in its worker is an EngineFailure.
 * The routing endpoints answer the engine's failures with the availability
 * envelope (engine-envelope.ts); other callers see them as 503 and 500.
 */
import { ApiError } from '../../shared/errors.js';
import { unlessClientLeft } from '../client-closed.js';
import { EngineFailure } from './engine-envelope.js';
import type { SolverPool, SolverTaskName, SolverTasks, TaskAnswer } from '../../solvers/solver-pool.js';

type TaskInput<N extends SolverTaskName> = Parameters<SolverTasks[N]>[0];

export async function runWithBudget<N extends SolverTaskName>(
  solvers: SolverPool,
  name: N,
  input: TaskInput<N>,
  budgetMs: number,
  signal?: AbortSignal,
  /** Never refused for a full line (work already accepted, such as an optimization job's matrix). */
  { unbounded = false }: { unbounded?: boolean } = {},
): Promise<TaskAnswer<N>> {
  // The budget ends the task's worker (only a new thread stops a runaway computation); the caller's leaving only
  // stops the waiting, and a running task finishes on its own (the routing pool's runningTaskOnAbort: 'finish').
  // Plain controllers and one timer: AbortSignal.timeout plus AbortSignal.any cost about four times the CPU (and
  // weak references for the collector) on every route request.
  const budget = new AbortController();
  const waiting = new AbortController();
  let overBudget = false;
  const timer = setTimeout(() => {
    overBudget = true;
    const reason = new DOMException(`over the ${budgetMs} ms budget`, 'TimeoutError');
    budget.abort(reason);
    waiting.abort(reason);
  }, budgetMs);
  timer.unref();
  const forwardAbort = () => waiting.abort(signal!.reason);
  if (signal?.aborted) forwardAbort();
  else signal?.addEventListener('abort', forwardAbort, { once: true });
  try {
    // a failure after the client left is its leaving (CLIENT_CLOSED_REQUEST), not a fault
    // the budget holds until the task has ended in its worker, even after its caller left (a caller that sends an
    // expensive request and hangs up must not leave a worker computing past the budget)
    return await unlessClientLeft(solvers.run(name, input, waiting.signal, { unbounded, stop: budget.signal, onSettled: () => clearTimeout(timer) }), signal, name);
  } catch (error) {
    if (overBudget) {
      throw new ApiError('COMPUTATION_TIMEOUT', {
        message: `The ${name} computation exceeded its ${budgetMs} ms budget and was cancelled`,
        details: { budgetMs },
        headers: { 'retry-after': '1' },
      });
    }
    // CLIENT_CLOSED_REQUEST and SERVER_BUSY; anything else came from the pool: the task threw, or its worker died
    if (error instanceof ApiError) throw error;
    throw new EngineFailure(`The ${name} computation failed in its worker`, 'worker_failed', { cause: error });
  } finally {
    signal?.removeEventListener('abort', forwardAbort);
  }
}
