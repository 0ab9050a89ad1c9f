import type { VrpProblem } from '../../../src/solvers/vrp/model.js';

/**
 * Exhaustive optimum of a tiny VRP (every assignment of jobs to vehicles or to
 * "dropped", every order): the reference the solver is held to in tests.
 * Written from the rules, sharing no code with the solver.
 */
export function bruteForceOptimum(problem: VrpProblem): number {
  const jobs = problem.jobs.map((_, j) => j);
  const V = problem.vehicles.length;
  const slots = problem.dropPenalty === undefined ? V : V + 1;
  let best = Infinity;
  const assignment = new Array<number>(jobs.length).fill(0);
  const recurse = (k: number): void => {
    if (k === jobs.length) {
      let total = 0;
      for (let v = 0; v < V && total < best; v++) {
        const mine = jobs.filter((j) => assignment[j] === v);
        total += bestRouteCost(problem, v, mine);
      }
      total += assignment.filter((slot) => slot === V).length * (problem.dropPenalty ?? 0);
      if (total < best) best = total;
      return;
    }
    for (let slot = 0; slot < slots; slot++) {
      assignment[k] = slot;
      recurse(k + 1);
    }
  };
  recurse(0);
  return best;
}

function bestRouteCost(problem: VrpProblem, vehicle: number, jobs: number[]): number {
  if (!jobs.length) return 0;
  let best = Infinity;
  for (const order of permutations(jobs)) {
    const cost = routeCost(problem, vehicle, order);
    if (cost < best) best = cost;
  }
  return best;
}

function* permutations(items: number[]): Generator<number[]> {
  if (items.length <= 1) {
    yield items.slice();
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const tail of permutations(rest)) yield [items[i]!, ...tail];
  }
}

/** Cost of one route in this order, or Infinity when a rule breaks. */
export function routeCost(problem: VrpProblem, vehicleIndex: number, order: number[]): number {
  const n = problem.size;
  const vehicle = problem.vehicles[vehicleIndex]!;
  const partnerOf = new Map<number, [number, boolean, number]>();
  for (const [p, d] of problem.pairs ?? []) {
    partnerOf.set(p, [d, true, problem.jobs[p]!.demand]);
    partnerOf.set(d, [p, false, problem.jobs[p]!.demand]);
  }
  for (const job of order) {
    const pair = partnerOf.get(job);
    if (pair) {
      const other = order.indexOf(pair[0]);
      if (other < 0 || (pair[1] ? other < order.indexOf(job) : other > order.indexOf(job))) return Infinity;
    }
  }
  let load = order.reduce((sum, job) => sum + (partnerOf.has(job) ? 0 : problem.jobs[job]!.demand), 0);
  if (load > vehicle.capacity) return Infinity;
  for (const job of order) {
    const pair = partnerOf.get(job);
    load += pair ? (pair[1] ? pair[2] : -pair[2]) : -problem.jobs[job]!.demand;
    if (load > vehicle.capacity) return Infinity;
  }
  // Departure candidates: the shift start, or a time at which the vehicle, not waiting before, reaches some job exactly at its opening or closing.
  const shiftStart = vehicle.window?.[0] ?? 0;
  const candidates = [shiftStart];
  let offset = 0;
  let at = vehicle.start;
  for (const job of order) {
    const spec = problem.jobs[job]!;
    offset += problem.durations[at * n + spec.location]!;
    for (const bound of spec.window ?? []) if (bound - offset > shiftStart) candidates.push(bound - offset);
    offset += spec.serviceSec;
    at = spec.location;
  }
  let feasible = false;
  let cost = 0;
  for (const departure of candidates) {
    let time = departure;
    let here = vehicle.start;
    let ok = true;
    cost = 0;
    for (const job of order) {
      const spec = problem.jobs[job]!;
      cost += problem.costs[here * n + spec.location]!;
      time = Math.max(time + problem.durations[here * n + spec.location]!, spec.window?.[0] ?? 0);
      if (time > (spec.window?.[1] ?? Infinity)) ok = false;
      time += spec.serviceSec;
      here = spec.location;
    }
    if (vehicle.end !== null) {
      cost += problem.costs[here * n + vehicle.end]!;
      time += problem.durations[here * n + vehicle.end]!;
    }
    if (time > (vehicle.window?.[1] ?? Infinity)) ok = false;
    if (vehicle.maxDurationSec !== undefined && time - departure > vehicle.maxDurationSec + 1e-9) ok = false;
    if (ok) feasible = true;
  }
  return feasible ? cost : Infinity;
}
