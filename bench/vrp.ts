/**
 * Route optimization quality: the Solomon VRPTW instances at every tier
 * (vehicles, distance, gap to the best-known distance-only result, wall time),
 * and 200 stops with one vehicle at `fast` (wall time ≤ 2 s target).
 * Each run is the service's parallel search: one seeded search per worker
 * thread, best kept. Targets: average gap `balanced` ≤ 1.5 %, `best` ≤ 1 %.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parallelSearch, TIER_BUDGET_MS, type Tier } from '../src/services/optimization/parallel-search.js';
import { SolverPool } from '../src/solvers/solver-pool.js';
import { checkVrpResult } from '../src/solvers/vrp/feasibility.js';
import type { VrpProblem } from '../src/solvers/vrp/model.js';
import { readSolomon, solomonProblem, type SolomonInstance } from './solomon.js';
import { conditions, round } from './support.js';

const DATA = fileURLToPath(new URL('../../../shared/data/benchmarks/vrptw-solomon/', import.meta.url));
const INSTANCES = (process.env.BENCH_VRP_INSTANCES ?? 'C101,R101,RC101').split(',');
const TIERS = (process.env.BENCH_VRP_TIERS ?? 'fast,balanced,best').split(',') as Tier[];
const workerFile = fileURLToPath(new URL('../../dist/solvers/worker.js', import.meta.url));

export async function runVrpBenchmark(): Promise<void> {
  const threads = availableParallelism();
  const pool = new SolverPool({ threads, workerFile });
  const bks = JSON.parse(readFileSync(`${DATA}BKS.json`, 'utf8')) as Record<string, { best_known_cost: number; solved_with_vehicles: number }>;
  console.log(
    conditions({
      benchmark: 'vrp (Solomon VRPTW, Euclidean unrounded, distance objective; 200 stops × 1 vehicle at fast)',
      searches: `${threads} seeded searches in parallel (one per worker thread, warmed up), best kept; time_s is wall time of the whole request`,
      tiers: TIERS.map((tier) => `${tier} ${TIER_BUDGET_MS[tier]} ms`).join(', '),
      note: 'machine shared with other engineers while measured; times and gaps may be pessimistic',
      'load average at start (1/5/15 min)': loadavg().map((value) => value.toFixed(1)).join(' / '),
    }),
  );
  console.log('instance,tier,vehicles,distance,best_known_distance,gap_pct,best_known_vehicles,time_s (every plan verified by the independent feasibility checker)');
  const gaps = new Map<Tier, number[]>();
  try {
    const instances = INSTANCES.map((name) => readSolomon(`${DATA}${name}.txt`));
    // Warm-up: start every worker thread and load the solver code, as in a running server.
    const tiny = manyStops(instances, 5);
    await Promise.all(Array.from({ length: threads }, (_, k) => pool.run('solveVrp', { problem: tiny, options: { seed: k + 1, timeLimitMs: 50 } })));
    for (const tier of TIERS) {
      for (const instance of instances) {
        const reference = bks[`${instance.name}_distance`]!;
        const began = performance.now();
        const problem = solomonProblem(instance);
        const result = await parallelSearch(pool, problem, { tier, searches: threads });
        const seconds = (performance.now() - began) / 1000;
        const check = checkVrpResult(problem, result);
        if (!result.feasible || !check.valid) throw new Error(`${instance.name}: no valid plan: ${check.violations.join('; ')}`);
        const gap = ((result.cost - reference.best_known_cost) / reference.best_known_cost) * 100;
        gaps.set(tier, [...(gaps.get(tier) ?? []), gap]);
        console.log([instance.name, tier, result.routes.length, round(result.cost), reference.best_known_cost, round(gap), reference.solved_with_vehicles, round(seconds)].join(','));
      }
    }
    for (const [tier, list] of gaps) console.log(`# average gap ${tier}: ${round(list.reduce((a, b) => a + b, 0) / list.length)} %`);
    const tsp = manyStops(instances, 200);
    const began = performance.now();
    const result = await parallelSearch(pool, tsp, { tier: 'fast', searches: threads });
    console.log('stops,vehicles,tier,distance,time_s');
    console.log(['200', '1', 'fast', round(result.cost), round((performance.now() - began) / 1000)].join(','));
  } finally {
    await pool.close();
  }
}

/** The first `count` customers of the Solomon instances together (real benchmark points), one uncapacitated vehicle, no windows. */
function manyStops(instances: SolomonInstance[], count: number): VrpProblem {
  const points = [instances[0]!.customers[0]!, ...instances.flatMap((instance) => instance.customers.slice(1))].slice(0, count + 1);
  const n = points.length;
  const matrix = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) matrix[a * n + b] = Math.hypot(points[a]!.x - points[b]!.x, points[a]!.y - points[b]!.y);
  return {
    size: n,
    durations: matrix,
    costs: matrix,
    jobs: points.slice(1).map((_, k) => ({ location: k + 1, demand: 0, serviceSec: 0 })),
    vehicles: [{ start: 0, end: 0, capacity: 1 }],
  };
}
