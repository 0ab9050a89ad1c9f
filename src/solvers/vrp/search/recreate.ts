import type { Random } from '../random.js';
import type { Instance } from '../structures/instance.js';
import type { RouteChecker } from '../structures/route-check.js';
import type { Solution } from '../structures/solution.js';
import { applyInsertion, bestInsertion, noInsertion } from './insertion.js';

/** SISR's recreate: greedy insertion with blinks, in one of several job orders (weights from the paper, plus windows). */
export function recreate(inst: Instance, checker: RouteChecker, solution: Solution, jobs: number[], random: Random, blink: number): void {
  const order = orderJobs(inst, jobs, random);
  const unserved: number[] = [];
  for (const job of order) {
    if (inst.partner[job]! >= 0 && !inst.isPickup[job]) continue;
    const insertion = bestInsertion(inst, checker, solution, job, random, blink, noInsertion());
    if (insertion.route < 0) {
      unserved.push(job);
      if (inst.partner[job]! >= 0) unserved.push(inst.partner[job]!);
      continue;
    }
    applyInsertion(inst, solution, job, insertion);
  }
  solution.unassigned = unserved;
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
