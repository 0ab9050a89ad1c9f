import type { Instance } from './instance.js';

/**
 * One vehicle's sequence of jobs with the data that makes insertion checks O(1):
 * earliest service starts (forward), latest feasible service starts (backward),
 * the load when leaving each job and its running maximum.
 */
export class Route {
  jobs: number[];
  /** Earliest service start at each job. */
  start: number[] = [];
  /** Latest service start at each job that keeps the rest of the route feasible. */
  latest: number[] = [];
  /** Load when leaving job k. */
  loadAfter: number[] = [];
  /** maxLoadBefore[k]: the largest load on the arcs before job k (index m: the whole route). */
  maxLoadBefore: number[] = [];
  cost = 0;

  constructor(
    readonly vehicle: number,
    jobs: number[] = [],
  ) {
    this.jobs = jobs;
  }

  get length(): number {
    return this.jobs.length;
  }

  clone(): Route {
    const copy = new Route(this.vehicle, this.jobs.slice());
    copy.start = this.start.slice();
    copy.latest = this.latest.slice();
    copy.loadAfter = this.loadAfter.slice();
    copy.maxLoadBefore = this.maxLoadBefore.slice();
    copy.cost = this.cost;
    return copy;
  }

  /** Location before position p (the start location for p = 0). */
  locationBefore(inst: Instance, p: number): number {
    return p === 0 ? inst.vehicleStart[this.vehicle]! : inst.location[this.jobs[p - 1]!]!;
  }

  /** Location at position p (the end location, or −1 when open, for p = length). */
  locationAt(inst: Instance, p: number): number {
    return p === this.jobs.length ? inst.vehicleEnd[this.vehicle]! : inst.location[this.jobs[p]!]!;
  }

  /** Time the vehicle leaves the node before position p. */
  departureBefore(inst: Instance, p: number): number {
    return p === 0 ? inst.vehicleEarly[this.vehicle]! : this.start[p - 1]! + inst.service[this.jobs[p - 1]!]!;
  }

  /** Latest arrival allowed at position p (the end of the shift for p = length). */
  latestAt(inst: Instance, p: number): number {
    return p === this.jobs.length ? inst.vehicleLate[this.vehicle]! : this.latest[p]!;
  }

  /** Recomputes the schedule, loads and cost after the sequence changed. */
  update(inst: Instance): void {
    const jobs = this.jobs;
    const m = jobs.length;
    const v = this.vehicle;
    this.start.length = m;
    this.latest.length = m;
    this.loadAfter.length = m;
    this.maxLoadBefore.length = m + 1;
    let previous = inst.vehicleStart[v]!;
    let time = inst.vehicleEarly[v]!;
    let cost = 0;
    let load = 0;
    for (let k = 0; k < m; k++) load += inst.startLoad[jobs[k]!]!;
    let maxLoad = load;
    for (let k = 0; k < m; k++) {
      const job = jobs[k]!;
      const here = inst.location[job]!;
      cost += inst.cost(previous, here);
      const arrival = time + inst.travel(previous, here);
      const begin = arrival > inst.early[job]! ? arrival : inst.early[job]!;
      this.start[k] = begin;
      time = begin + inst.service[job]!;
      this.maxLoadBefore[k] = maxLoad;
      load += inst.loadChange[job]!;
      this.loadAfter[k] = load;
      if (load > maxLoad) maxLoad = load;
      previous = here;
    }
    this.maxLoadBefore[m] = maxLoad;
    const end = inst.vehicleEnd[v]!;
    if (m > 0 && end >= 0) cost += inst.cost(previous, end);
    this.cost = m > 0 ? cost : 0;
    let latestNext = inst.vehicleLate[v]!;
    let next = end;
    for (let k = m - 1; k >= 0; k--) {
      const job = jobs[k]!;
      const here = inst.location[job]!;
      const bound = latestNext - inst.service[job]! - (next >= 0 ? inst.travel(here, next) : 0);
      const latest = bound < inst.late[job]! ? bound : inst.late[job]!;
      this.latest[k] = latest;
      latestNext = latest;
      next = here;
    }
  }
}
