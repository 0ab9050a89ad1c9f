/**
 * Runs a solver task under the routing time budget: cancelled when the client
 * goes away (CLIENT_CLOSED_REQUEST, 499 in the request log) or the budget runs
 * out (a clear 503).
 */
import { ApiError } from '../../shared/errors.js';
import { clientClosedRequest } from '../client-closed.js';
import type { SolverPool, SolverTaskName, SolverTasks, TaskOutput } from '../../solvers/solver-pool.js';
import type { TaskResult } from '../../solvers/task-result.js';

type TaskInput<N extends SolverTaskName> = Parameters<SolverTasks[N]>[0];

export async function runWithBudget<N extends SolverTaskName>(
  solvers: SolverPool,
  name: N,
  input: TaskInput<N>,
  budgetMs: number,
  signal?: AbortSignal,
): Promise<TaskResult<TaskOutput<N>>> {
  // One controller and one timer per call: AbortSignal.timeout plus AbortSignal.any cost about four
  // times the CPU (and weak references for the collector) on every route request.
  const controller = new AbortController();
  let overBudget = false;
  const timer = setTimeout(() => {
    overBudget = true;
    controller.abort(new DOMException(`over the ${budgetMs} ms budget`, 'TimeoutError'));
  }, budgetMs);
  timer.unref();
  const forwardAbort = () => controller.abort(signal!.reason);
  if (signal?.aborted) forwardAbort();
  else signal?.addEventListener('abort', forwardAbort, { once: true });
  try {
    return await solvers.run(name, input, controller.signal);
  } catch (error) {
    if (overBudget) {
      throw new ApiError('COMPUTATION_TIMEOUT', {
        message: `The ${name} computation exceeded its ${budgetMs} ms budget and was cancelled`,
        details: { budgetMs },
        headers: { 'retry-after': '1' },
      });
    }
    // the client went away and its task was cancelled: an outcome, not a server fault to log as one
    if (signal?.aborted) throw clientClosedRequest(name);
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
}
