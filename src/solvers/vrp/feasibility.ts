import type { VrpProblem, VrpResult } from './model.js';

export interface FeasibilityReport {
  /** Every rule holds (a result that says it is infeasible may still be a valid partial plan). */
  valid: boolean;
  violations: string[];
  /** Route costs recomputed from the matrices plus drop penalties. */
  cost: number;
}

/**
 * An independent check of a VRP result against its problem, written from the
 * rules rather than the solver's data structures: every job served once or
 * dropped (dropping only with a drop penalty, unless the result says it is
 * infeasible), capacity at every point of every route, time windows with
 * waiting, service times, shift ends, pickups before their deliveries on the
 * same vehicle, route duration limits, open-ended routes, and the reported costs.
 */
export function checkVrpResult(problem: VrpProblem, result: VrpResult): FeasibilityReport {
  const violations: string[] = [];
  const n = problem.size;
  const servedBy = new Map<number, { vehicle: number; position: number }>();
  let total = 0;
  const usedVehicles = new Set<number>();
  for (const route of result.routes) {
    const vehicle = problem.vehicles[route.vehicle];
    if (!vehicle) {
      violations.push(`route of unknown vehicle ${route.vehicle}`);
      continue;
    }
    if (usedVehicles.has(route.vehicle)) violations.push(`vehicle ${route.vehicle} has two routes`);
    usedVehicles.add(route.vehicle);
    route.jobs.forEach((job, position) => {
      if (servedBy.has(job)) violations.push(`job ${job} served twice`);
      servedBy.set(job, { vehicle: route.vehicle, position });
    });
    const pairsOnRoute = new Map<number, number>();
    for (const [pickup, delivery] of problem.pairs ?? []) {
      pairsOnRoute.set(pickup, problem.jobs[pickup]!.demand);
      pairsOnRoute.set(delivery, -problem.jobs[pickup]!.demand);
    }
    let load = route.jobs.reduce((sum, job) => sum + (pairsOnRoute.has(job) ? 0 : problem.jobs[job]!.demand), 0);
    if (load > vehicle.capacity + 1e-9) violations.push(`vehicle ${route.vehicle} leaves with ${load} > capacity ${vehicle.capacity}`);
    const shiftStart = vehicle.window?.[0] ?? 0;
    const shiftEnd = vehicle.window?.[1] ?? Infinity;
    let at = vehicle.start;
    let time = route.departureSec;
    if (time < shiftStart - 1e-6) violations.push(`vehicle ${route.vehicle} departs at ${time} before its shift`);
    const departure = time;
    let cost = 0;
    route.jobs.forEach((job, k) => {
      const spec = problem.jobs[job]!;
      cost += problem.costs[at * n + spec.location]!;
      const arrival = time + problem.durations[at * n + spec.location]!;
      const begin = Math.max(arrival, spec.window?.[0] ?? 0);
      if (begin > (spec.window?.[1] ?? Infinity) + 1e-6) violations.push(`job ${job} starts at ${begin} after its window ${spec.window?.[1]}`);
      if (Math.abs(begin - (route.serviceStarts[k] ?? NaN)) > 1e-6) violations.push(`job ${job}: reported start ${route.serviceStarts[k]} but the schedule gives ${begin}`);
      time = begin + spec.serviceSec;
      load += pairsOnRoute.get(job) ?? -spec.demand;
      if (load > vehicle.capacity + 1e-9) violations.push(`vehicle ${route.vehicle} carries ${load} after job ${job}`);
      at = spec.location;
    });
    if (vehicle.end !== null) {
      cost += problem.costs[at * n + vehicle.end]!;
      time += problem.durations[at * n + vehicle.end]!;
    }
    if (time > shiftEnd + 1e-6) violations.push(`vehicle ${route.vehicle} ends at ${time} after its shift ${shiftEnd}`);
    const duration = time - departure;
    if (Math.abs(duration - route.durationSec) > 1e-6) violations.push(`vehicle ${route.vehicle}: reported duration ${route.durationSec}, schedule gives ${duration}`);
    if (vehicle.maxDurationSec !== undefined && duration > vehicle.maxDurationSec + 1e-6) violations.push(`vehicle ${route.vehicle} works ${duration} s > ${vehicle.maxDurationSec}`);
    if (Math.abs(cost - route.cost) > 1e-6 * Math.max(1, cost)) violations.push(`vehicle ${route.vehicle}: reported cost ${route.cost}, arcs sum to ${cost}`);
    total += cost;
  }
  for (const [pickup, delivery] of problem.pairs ?? []) {
    const p = servedBy.get(pickup);
    const d = servedBy.get(delivery);
    if (!p !== !d) violations.push(`pair ${pickup}→${delivery} only half served`);
    if (p && d && (p.vehicle !== d.vehicle || p.position >= d.position)) violations.push(`pair ${pickup}→${delivery} not on one vehicle pickup first`);
  }
  const dropped = new Set(result.dropped);
  for (let job = 0; job < problem.jobs.length; job++) {
    const served = servedBy.has(job);
    if (served && dropped.has(job)) violations.push(`job ${job} both served and dropped`);
    if (!served && !dropped.has(job)) violations.push(`job ${job} neither served nor dropped`);
  }
  if (problem.dropPenalty === undefined && dropped.size && result.feasible) violations.push('mandatory jobs dropped in a result marked feasible');
  if (!result.feasible && !result.reasons.length) violations.push('infeasible result without reasons');
  total += dropped.size * (problem.dropPenalty ?? 0);
  return { valid: violations.length === 0, violations, cost: total };
}
