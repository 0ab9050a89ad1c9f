import type { VrpProblem, VrpResult, VrpSearchOptions } from './model.js';
import { Instance } from './structures/instance.js';
import { RouteChecker } from './structures/route-check.js';
import { Solution } from './structures/solution.js';
import { recreate } from './search/recreate.js';
import { annealStrings } from './search/sisr.js';
import { seedSolution } from './search/warm-start.js';
import { Random } from '../random.js';
import { describeRoutes } from './structures/schedule.js';
import { findInfeasibility } from './infeasibility.js';
import { LocalSearch } from './local-search.js';

/**
 * Iterations without a new best after which a search ends before its time budget: 10 000 + 500 n² for n jobs.
 * A plan of a few stops is optimal within milliseconds (the tests' tiny instances reach the exhaustive optimum in
 * 400 iterations) and used to search for the tier's whole budget (2 s of a worker per `fast` search, on every
 * worker); from ~100 jobs the limit (5 million) lies beyond any budget, so larger plans search as before.
 */
export function stagnationLimitFor(jobCount: number): number {
  return 10_000 + 500 * jobCount * jobCount;
}

/**
 * Solves one VRP: a greedy construction (or the given initial routes, completed greedily), then SISR ruin-and-recreate under
 * simulated annealing with local search on each new best, within the time
 * budget (or iteration cap), or sooner once the best stops improving (stagnationLimitFor). Infeasible problems are answered, not thrown.
 */
export function solveVrp(problem: VrpProblem, options: VrpSearchOptions): VrpResult {
  const began = performance.now();
  const inst = new Instance(problem);
  const checker = new RouteChecker(inst);
  const local = new LocalSearch(inst, checker);
  const random = new Random(options.seed ^ 0x5bd1e995);
  const initial = Solution.empty(inst);
  if (options.initialRoutes) recreate(inst, checker, initial, seedSolution(inst, checker, initial, options.initialRoutes), random, 0, { profitableOnly: true });
  else recreate(inst, checker, initial, initial.unassigned.slice(), random, 0);
  const deadline = began + options.timeLimitMs;
  local.improve(initial, began + options.timeLimitMs / 4);
  const { best, iterations } = annealStrings(inst, checker, initial, {
    seed: options.seed,
    timeLimitMs: Math.max(0, options.timeLimitMs - (performance.now() - began)),
    ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
    stagnationLimit: stagnationLimitFor(inst.jobCount),
    improve: (solution) => local.improve(solution, deadline),
  });
  const routes = describeRoutes(inst, best);
  const dropped = best.unassigned.slice().sort((a, b) => a - b);
  const reasons = inst.mandatory && dropped.length ? findInfeasibility(problem, inst, dropped) : [];
  return {
    feasible: reasons.length === 0,
    reasons,
    routes,
    dropped,
    cost: best.cost(inst),
    iterations,
    seed: options.seed,
  };
}
