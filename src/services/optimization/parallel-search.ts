import type { InitialRoute, VrpProblem, VrpResult } from '../../solvers/vrp/model.js';
import type { TaskResult } from '../../solvers/task-result.js';

export type Tier = 'fast' | 'balanced' | 'best';

/** Wall time per tier (spec part 3 §4.5: about 2, 6 and 20 s). */
export const TIER_BUDGET_MS: Record<Tier, number> = { fast: 2_000, balanced: 6_000, best: 20_000 };

/** Share of the tier's time given to the search itself: the rest covers handing the matrices to the workers and building the instance. */
const SEARCH_SHARE = 0.92;

/** What the parallel search needs from the worker pool (SolverPool satisfies it). */
export interface VrpTaskRunner {
  run(name: 'solveVrp', input: { problem: VrpProblem; options: { seed: number; timeLimitMs: number; initialRoutes?: readonly InitialRoute[] } }, signal?: AbortSignal): Promise<TaskResult<VrpResult>>;
}

/**
 * Runs `searches` independently seeded searches side by side on the worker
 * threads (one per core: the main thread never searches) and keeps the best:
 * fewest unserved mandatory jobs, then lowest cost. Seeds derive from `seed`,
 * so a run is reproducible up to the time budget.
 */
export async function parallelSearch(
  runner: VrpTaskRunner,
  problem: VrpProblem,
  options: { tier: Tier; searches: number; seed?: number; signal?: AbortSignal; /** Warm start: every search begins from these routes. */ initialRoutes?: readonly InitialRoute[] },
): Promise<VrpResult> {
  const base = options.seed ?? 1;
  const timeLimitMs = Math.round(TIER_BUDGET_MS[options.tier] * SEARCH_SHARE);
  const runs = await Promise.all(
    Array.from({ length: Math.max(1, options.searches) }, (_, k) =>
      runner.run('solveVrp', { problem, options: { seed: base + 7919 * k, timeLimitMs, ...(options.initialRoutes ? { initialRoutes: options.initialRoutes } : {}) } }, options.signal),
    ),
  );
  let best: VrpResult | undefined;
  for (const run of runs) {
    if (!run.ok) throw new Error(`VRP search failed: ${run.code}`);
    if (!best || better(run.value, best)) best = run.value;
  }
  return best!;
}

function better(a: VrpResult, b: VrpResult): boolean {
  if (a.feasible !== b.feasible) return a.feasible;
  return a.cost < b.cost;
}
