import type { VrpRoute } from '../model.js';
import type { Instance } from './instance.js';
import type { Solution } from './solution.js';

/**
 * The routes that serve jobs, each scheduled with its departure delayed as far
 * as possible without ending later (Savelsbergh's forward time slack: the delay
 * is absorbed by waiting and bounded by every later window), so `durationSec`
 * counts no avoidable waiting at the start.
 */
export function describeRoutes(inst: Instance, solution: Solution): VrpRoute[] {
  const routes: VrpRoute[] = [];
  for (const route of solution.routes) {
    if (!route.length) continue;
    const v = route.vehicle;
    const early = inst.vehicleEarly[v]!;
    const first = simulate(inst, v, route.jobs, early);
    const departure = early + Math.min(first.waited, first.slack);
    const delayed = simulate(inst, v, route.jobs, departure);
    routes.push({
      vehicle: v,
      jobs: route.jobs.slice(),
      cost: route.cost,
      serviceStarts: delayed.starts,
      durationSec: delayed.end - departure,
      departureSec: departure,
    });
  }
  return routes;
}

function simulate(inst: Instance, vehicle: number, jobs: readonly number[], departure: number) {
  let previous = inst.vehicleStart[vehicle]!;
  let time = departure;
  let waited = 0;
  let slack = Infinity;
  const starts: number[] = [];
  for (const job of jobs) {
    const here = inst.location[job]!;
    const arrival = time + inst.travel(previous, here);
    const begin = Math.max(arrival, inst.early[job]!);
    starts.push(begin);
    waited += begin - arrival;
    slack = Math.min(slack, waited + inst.late[job]! - begin);
    time = begin + inst.service[job]!;
    previous = here;
  }
  const end = inst.vehicleEnd[vehicle]!;
  if (end >= 0) time += inst.travel(previous, end);
  return { starts, waited, slack, end: time };
}
