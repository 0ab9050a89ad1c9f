/**
 * Runs a solver task under the routing time budget: cancelled when the client
 * goes away or the budget runs out; a budget overrun is a clear 503.
 */
import { ApiError } from '../../shared/errors.js';
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
  const budget = AbortSignal.timeout(budgetMs);
  const combined = signal ? AbortSignal.any([signal, budget]) : budget;
  try {
    return await solvers.run(name, input, combined);
  } catch (error) {
    if (budget.aborted) {
      throw new ApiError('COMPUTATION_TIMEOUT', {
        message: `The ${name} computation exceeded its ${budgetMs} ms budget and was cancelled`,
        details: { budgetMs },
        headers: { 'retry-after': '1' },
      });
    }
    throw error;
  }
}
