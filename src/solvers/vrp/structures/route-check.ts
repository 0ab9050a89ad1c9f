import type { Instance } from './instance.js';

/**
 * Full O(m) check of one candidate sequence for a vehicle: windows (with
 * waiting), capacity along the route, pairs on this route (pickup first), and
 * the route duration limit. Returns the cost, or −1 when infeasible. The
 * operators filter by cost delta first and call this only for improving moves.
 */
export class RouteChecker {
  private readonly seen: Int32Array;
  private stamp = 0;

  constructor(private readonly inst: Instance) {
    this.seen = new Int32Array(inst.jobCount);
  }

  cost(vehicle: number, jobs: readonly number[]): number {
    const inst = this.inst;
    const m = jobs.length;
    if (m === 0) return 0;
    const stamp = ++this.stamp;
    let load = 0;
    for (let k = 0; k < m; k++) load += inst.startLoad[jobs[k]!]!;
    const capacity = inst.capacity[vehicle]!;
    if (load > capacity) return -1;
    let previous = inst.vehicleStart[vehicle]!;
    const departure = inst.vehicleEarly[vehicle]!;
    let time = departure;
    let cost = 0;
    let waited = 0;
    let delay = Infinity;
    let openPairs = 0;
    for (let k = 0; k < m; k++) {
      const job = jobs[k]!;
      const partner = inst.partner[job]!;
      if (partner >= 0) {
        if (inst.isPickup[job]) {
          openPairs++;
        } else {
          if (this.seen[partner] !== stamp) return -1;
          openPairs--;
        }
        this.seen[job] = stamp;
      }
      const here = inst.location[job]!;
      cost += inst.cost(previous, here);
      const arrival = time + inst.travel(previous, here);
      const begin = arrival > inst.early[job]! ? arrival : inst.early[job]!;
      if (begin > inst.late[job]!) return -1;
      waited += begin - arrival;
      const slack = waited + inst.late[job]! - begin;
      if (slack < delay) delay = slack;
      time = begin + inst.service[job]!;
      load += inst.loadChange[job]!;
      if (load > capacity) return -1;
      previous = here;
    }
    if (openPairs !== 0) return -1;
    const end = inst.vehicleEnd[vehicle]!;
    if (end >= 0) {
      cost += inst.cost(previous, end);
      time += inst.travel(previous, end);
    }
    if (time > inst.vehicleLate[vehicle]!) return -1;
    if (inst.hasDurationLimit) {
      const duration = time - departure - Math.min(waited, delay);
      if (duration > inst.maxDuration[vehicle]!) return -1;
    }
    return cost;
  }
}
