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
 * Solves one VRP: a greedy construction (or the given initial routes, completed greedily), then SISR ruin-and-recreate under
 * simulated annealing with local search on each new best, within the time
 * budget (or iteration cap). Infeasible problems are answered, not thrown.
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
