import type { BinPackRequest, RosterRequest } from './optimization-requests.js';
import type { BinPackResult } from '../../solvers/binpack/model.js';
import type { RosterResult } from '../../solvers/roster/model.js';
import type { SolverPool } from '../../solvers/solver-pool.js';
import type { TaskResult } from '../../solvers/task-result.js';
import { unlessClientLeft } from '../client-closed.js';
import { PROVIDER } from './route-plans.js';
import type { RouteOptimizer } from './route-optimizer.js';
import type { ReoptimizeRequest, RoutesRequest } from './optimization-requests.js';
import { SearchAdmission } from './search-admission.js';

const HEALTH_TIMEOUT_MS = 2_000;

export interface OptimizationHealth {
  provider: typeof PROVIDER;
  available: boolean;
  ok: boolean;
  service: 'optimization';
  solvers: string[];
}

/** Bin packing, rostering and the health of the optimization family; solvers run on the worker threads. */
export class OptimizationService {
  constructor(
    private readonly pool: SolverPool,
    /** Present once a travel-matrix source (the routing engine) is wired. */
    readonly routes: RouteOptimizer | undefined,
    private readonly admission = new SearchAdmission(),
  ) {}

  /** `POST /optimize/routes`: within the process's bound on synchronous searches (SearchAdmission). */
  optimizeRoutesNow(routes: RouteOptimizer, request: RoutesRequest, signal?: AbortSignal) {
    return this.admission.run(request.tier, () => routes.optimize(request, signal));
  }

  /** `POST /optimize/reoptimize`: as `optimizeRoutesNow`. */
  reoptimizeNow(routes: RouteOptimizer, request: ReoptimizeRequest, signal?: AbortSignal) {
    return this.admission.run(request.tier, () => routes.reoptimize(request, signal));
  }

  /** `available`: the worker threads answer a trivial task within 2 s (a long search on every thread makes it false). */
  async health(): Promise<OptimizationHealth> {
    const signal = AbortSignal.timeout(HEALTH_TIMEOUT_MS);
    const available = await this.pool.run('describeSharedData', undefined, signal).then(
      () => true,
      () => false,
    );
    return {
      provider: PROVIDER,
      available,
      ok: available,
      service: 'optimization',
      solvers: [...(this.routes ? ['routing'] : []), 'binpack', 'roster'],
    };
  }

  async binPack(request: BinPackRequest, signal?: AbortSignal) {
    const result = unwrap(await unlessClientLeft(this.pool.run('solveBinPack', request, signal), signal, 'bin packing'));
    return binPackResponse(result, request);
  }

  async roster(request: RosterRequest, signal?: AbortSignal) {
    const result = unwrap(await unlessClientLeft(this.pool.run('solveRoster', request, signal), signal, 'rostering'));
    return rosterResponse(result);
  }
}

function unwrap<T>(result: TaskResult<T>): T {
  if (!result.ok) throw new Error(`solver task failed: ${result.code}`);
  return result.value;
}

/** `{ feasible, assignment, binsUsed }` plus the proof (`optimal`, `lowerBound`) and, when infeasible, why. */
export function binPackResponse(result: BinPackResult, request: BinPackRequest) {
  if (!result.feasible) {
    return {
      feasible: false,
      assignment: [] as number[],
      binsUsed: 0,
      optimal: result.optimal,
      lowerBound: result.lowerBound,
      reason: result.oversized.length ? 'items heavier than every bin' : `the items do not fit into the ${request.binCapacities.length} bins together`,
      oversizedItems: result.oversized,
    };
  }
  return { feasible: true, assignment: result.assignment, binsUsed: result.binsUsed, optimal: result.optimal, lowerBound: result.lowerBound };
}

/** `{ feasible, shifts, perDriver, peakLoad }` plus, when infeasible, the shifts left short and why. */
export function rosterResponse(result: RosterResult) {
  if (!result.feasible) return { feasible: false, shifts: [], perDriver: result.perDriver, peakLoad: null, unmet: result.unmet, reasons: result.reasons };
  return { feasible: true, shifts: result.shifts, perDriver: result.perDriver, peakLoad: result.peakLoad };
}
