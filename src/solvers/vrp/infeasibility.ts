import type { VrpInfeasibility, VrpProblem } from './model.js';
import { Instance } from './structures/instance.js';
import { RouteChecker } from './structures/route-check.js';

/**
 * Explains why mandatory jobs stayed unserved: a job (or pair) that no vehicle
 * can serve even alone is named with its cause; the rest did not fit together
 * into the available vehicles.
 */
export function findInfeasibility(problem: VrpProblem, inst: Instance, unserved: readonly number[]): VrpInfeasibility[] {
  const checker = new RouteChecker(inst);
  const alone = new Map<VrpInfeasibility['code'], number[]>();
  const together: number[] = [];
  const add = (code: VrpInfeasibility['code'], job: number): void => {
    const list = alone.get(code) ?? [];
    list.push(job);
    alone.set(code, list);
  };
  for (const job of unserved) {
    const partner = inst.partner[job]!;
    if (partner >= 0 && !inst.isPickup[job]) continue;
    const sequence = partner >= 0 ? [job, partner] : [job];
    let servable = false;
    for (let v = 0; v < inst.vehicleCount && !servable; v++) servable = checker.cost(v, sequence) >= 0;
    if (servable) {
      together.push(...sequence);
      continue;
    }
    const demand = partner >= 0 ? inst.loadChange[job]! : inst.startLoad[job]!;
    const maxCapacity = Math.max(...inst.capacity);
    if (demand > maxCapacity) add('demand_exceeds_capacity', job);
    else if (partner >= 0) add('pair_unservable', job);
    else if (servableWithoutDurationLimit(problem, job)) add('route_duration_exceeded', job);
    else add('time_window_unreachable', job);
  }
  const reasons: VrpInfeasibility[] = [...alone].map(([code, jobs]) => ({ code, jobs }));
  if (together.length) reasons.push({ code: 'not_enough_vehicles', jobs: together.sort((a, b) => a - b) });
  return reasons;
}

function servableWithoutDurationLimit(problem: VrpProblem, job: number): boolean {
  const relaxed = new Instance({ ...problem, vehicles: problem.vehicles.map(({ maxDurationSec: _limit, ...vehicle }) => vehicle) });
  const checker = new RouteChecker(relaxed);
  for (let v = 0; v < relaxed.vehicleCount; v++) if (checker.cost(v, [job]) >= 0) return true;
  return false;
}
