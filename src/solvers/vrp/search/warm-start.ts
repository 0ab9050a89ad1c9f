import type { InitialRoute } from '../model.js';
import type { Instance } from '../structures/instance.js';
import type { RouteChecker } from '../structures/route-check.js';
import type { Solution } from '../structures/solution.js';

/**
 * Seeds an empty solution with the routes of an earlier plan (live
 * re-optimization: the plan before a stop was added or cancelled). Whatever no
 * longer fits is left for the recreate step: jobs out of range or named twice,
 * a pair not on one route pickup first, and — when the sequence as given breaks
 * a window or a capacity — the jobs that cannot be appended in order. Answers
 * the jobs still unassigned.
 */
export function seedSolution(inst: Instance, checker: RouteChecker, solution: Solution, routes: readonly InitialRoute[]): number[] {
  const used = new Uint8Array(inst.jobCount);
  const seededVehicles = new Uint8Array(inst.vehicleCount);
  for (const initial of routes) {
    const vehicle = initial.vehicle;
    if (!Number.isInteger(vehicle) || vehicle < 0 || vehicle >= inst.vehicleCount || seededVehicles[vehicle]) continue;
    seededVehicles[vehicle] = 1;
    const candidate = usableJobs(inst, initial.jobs, used);
    let sequence = candidate;
    if (checker.cost(vehicle, sequence) < 0) {
      // Keep the order, drop what breaks it; pairs go back to the recreate step, which places both together.
      sequence = [];
      for (const job of candidate) {
        if (inst.partner[job]! >= 0) continue;
        if (checker.cost(vehicle, [...sequence, job]) >= 0) sequence.push(job);
      }
    }
    if (sequence.length === 0) continue;
    for (const job of sequence) used[job] = 1;
    solution.setJobs(inst, vehicle, sequence);
  }
  const unassigned: number[] = [];
  for (let job = 0; job < inst.jobCount; job++) if (!used[job]) unassigned.push(job);
  solution.unassigned = unassigned;
  return unassigned;
}

/** The jobs of one given route that can stay on it: known, not already placed, and pairs complete in order. */
function usableJobs(inst: Instance, jobs: readonly number[], used: Uint8Array): number[] {
  const inRoute = new Map<number, number>();
  jobs.forEach((job, position) => {
    if (Number.isInteger(job) && job >= 0 && job < inst.jobCount && !used[job] && !inRoute.has(job)) inRoute.set(job, position);
  });
  const out: number[] = [];
  for (const [job, position] of inRoute) {
    const partner = inst.partner[job]!;
    if (partner >= 0) {
      const partnerPosition = inRoute.get(partner);
      if (partnerPosition === undefined) continue;
      if (inst.isPickup[job] ? partnerPosition < position : partnerPosition > position) continue;
    }
    out.push(job);
  }
  return out;
}
