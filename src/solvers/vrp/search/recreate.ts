import type { Random } from '../../random.js';
import type { Instance } from '../structures/instance.js';
import type { RouteChecker } from '../structures/route-check.js';
import type { Solution } from '../structures/solution.js';
import { applyInsertion, bestInsertion, noInsertion } from './insertion.js';

/** SISR's recreate: greedy insertion with blinks, in one of several job orders (weights from the paper, plus windows). */
export function recreate(inst: Instance, checker: RouteChecker, solution: Solution, jobs: number[], random: Random, blink: number, options: { profitableOnly?: boolean } = {}): void {
  const order = orderJobs(inst, jobs, random);
  const unserved: number[] = [];
  // With a drop penalty, half the time only jobs that pay for themselves go in (finds plans that drop a group of
  // jobs each kept alive by the other); otherwise every job goes in and the unprofitable ones are dropped after.
  // A warm start always takes the first way, so completing a given plan never makes it dearer.
  const profitableOnly = !inst.mandatory && (options.profitableOnly || random.next() < 0.5);
  for (const job of order) {
    if (inst.partner[job]! >= 0 && !inst.isPickup[job]) continue;
    const insertion = bestInsertion(inst, checker, solution, job, random, blink, noInsertion());
    const penalty = inst.unassignedPenalty * (inst.partner[job]! >= 0 ? 2 : 1);
    if (insertion.route < 0 || (profitableOnly && insertion.delta >= penalty)) {
      unserved.push(job);
      if (inst.partner[job]! >= 0) unserved.push(inst.partner[job]!);
      continue;
    }
    applyInsertion(inst, solution, job, insertion);
  }
  solution.unassigned = unserved;
  if (!inst.mandatory) dropUnprofitable(inst, solution);
}

/**
 * With a drop penalty, inserting every job first and then dropping those whose
 * removal saves more than the penalty lets jobs that only pay off together
 * (two stops at one remote place) be served; applied after every recreate.
 */
export function dropUnprofitable(inst: Instance, solution: Solution): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (let r = 0; r < solution.routes.length; r++) {
      const route = solution.routes[r]!;
      for (let k = 0; k < route.length; k++) {
        const job = route.jobs[k]!;
        const partner = inst.partner[job]!;
        const remaining = route.jobs.filter((other) => other !== job && other !== partner);
        const saving = route.cost - routeCostOf(inst, r, remaining);
        if (saving > inst.unassignedPenalty * (partner >= 0 ? 2 : 1) + 1e-9) {
          solution.setJobs(inst, r, remaining);
          solution.jobRoute[job] = -1;
          solution.unassigned.push(job);
          if (partner >= 0) {
            solution.jobRoute[partner] = -1;
            solution.unassigned.push(partner);
          }
          changed = true;
          break;
        }
      }
    }
  }
}

/** Arc cost of a sequence (removing jobs never breaks windows, capacity or pairs, so no check is needed). */
function routeCostOf(inst: Instance, vehicle: number, jobs: readonly number[]): number {
  if (!jobs.length) return 0;
  let previous = inst.vehicleStart[vehicle]!;
  let cost = 0;
  for (const job of jobs) {
    cost += inst.cost(previous, inst.location[job]!);
    previous = inst.location[job]!;
  }
  return cost + inst.cost(previous, inst.vehicleEnd[vehicle]!);
}

function orderJobs(inst: Instance, jobs: number[], random: Random): number[] {
  random.shuffle(jobs);
  const pick = random.next() * 13;
  const depot = inst.vehicleStart[0] ?? 0;
  const distance = (job: number): number => inst.cost(depot, inst.location[job]!);
  const demand = (job: number): number => inst.startLoad[job]! + Math.abs(inst.loadChange[job]!);
  if (pick < 4) return jobs;
  if (pick < 8) return jobs.sort((a, b) => demand(b) - demand(a));
  if (pick < 10) return jobs.sort((a, b) => distance(b) - distance(a));
  if (pick < 11) return jobs.sort((a, b) => distance(a) - distance(b));
  return jobs.sort((a, b) => inst.early[a]! - inst.early[b]! || inst.late[a]! - inst.late[b]!);
}
