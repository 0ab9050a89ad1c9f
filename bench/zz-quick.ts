import { readSolomon, solomonProblem } from './solomon.js';
import { solveVrp } from '../src/solvers/vrp/solve.js';
import { checkVrpResult } from '../src/solvers/vrp/feasibility.js';
const bks: Record<string, { best_known_cost: number }> = JSON.parse((await import('node:fs')).readFileSync('/work/shared/data/benchmarks/vrptw-solomon/BKS.json', 'utf8'));
const ms = Number(process.argv[2] ?? 2000);
const names = (process.argv[3] ?? 'C101,R101,RC101').split(',');
if (names[0] === 'TSP') {
  const insts = ['C101', 'R101', 'RC101'].map((n) => readSolomon(`/work/shared/data/benchmarks/vrptw-solomon/${n}.txt`));
  const points = [insts[0]!.customers[0]!, ...insts.flatMap((i) => i.customers.slice(1))].slice(0, 201);
  const n = points.length;
  const m = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) m[a * n + b] = Math.hypot(points[a]!.x - points[b]!.x, points[a]!.y - points[b]!.y);
  const t = performance.now();
  const r = solveVrp({ size: n, durations: m, costs: m, jobs: points.slice(1).map((_, k) => ({ location: k + 1, demand: 0, serviceSec: 0 })), vehicles: [{ start: 0, end: 0, capacity: 1 }] }, { seed: Number(process.argv[4] ?? 1), timeLimitMs: ms });
  console.log('TSP', r.cost.toFixed(2), r.iterations, (performance.now() - t).toFixed(0));
} else for (const name of names) {
  const inst = readSolomon(`/work/shared/data/benchmarks/vrptw-solomon/${name}.txt`);
  const t = performance.now();
  const p = solomonProblem(inst);
  const r = solveVrp(p, { seed: Number(process.argv[4] ?? 1), timeLimitMs: ms });
  const best = bks[`${name}_distance`]!.best_known_cost;
  console.log(name, r.feasible, checkVrpResult(p, r).valid, r.routes.length, r.cost.toFixed(2), (((r.cost - best) / best) * 100).toFixed(2) + '%', r.iterations, (performance.now() - t).toFixed(0));
}
