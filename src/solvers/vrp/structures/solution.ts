import type { Instance } from './instance.js';
import { Route } from './route.js';

/**
 * Routes of every vehicle (possibly empty) and the unserved jobs. Copies share
 * routes until one is changed (`mutable(r)` copies it first), so a
 * ruin-and-recreate iteration costs what it touches, not the whole plan.
 */
export class Solution {
  private owned: Uint8Array;

  constructor(
    readonly routes: Route[],
    readonly jobRoute: Int32Array,
    public unassigned: number[],
    /** Position of each served job in its route (stale for unserved jobs). */
    readonly position: Int32Array = new Int32Array(jobRoute.length),
  ) {
    this.owned = new Uint8Array(routes.length).fill(1);
  }

  static empty(inst: Instance): Solution {
    const routes = Array.from({ length: inst.vehicleCount }, (_, v) => new Route(v));
    for (const route of routes) route.update(inst);
    const unassigned = Array.from({ length: inst.jobCount }, (_, j) => j);
    return new Solution(routes, new Int32Array(inst.jobCount).fill(-1), unassigned);
  }

  copy(): Solution {
    this.owned.fill(0);
    const copy = new Solution(this.routes.slice(), this.jobRoute.slice(), this.unassigned.slice(), this.position.slice());
    copy.owned.fill(0);
    return copy;
  }

  /** The route of vehicle r, safe to change. */
  mutable(r: number): Route {
    if (!this.owned[r]) {
      this.routes[r] = this.routes[r]!.clone();
      this.owned[r] = 1;
    }
    return this.routes[r]!;
  }

  /** Replaces route r's sequence and refreshes its data and the job index. */
  setJobs(inst: Instance, r: number, jobs: number[]): void {
    const route = this.mutable(r);
    route.jobs = jobs;
    route.update(inst);
    for (let k = 0; k < jobs.length; k++) {
      this.jobRoute[jobs[k]!] = r;
      this.position[jobs[k]!] = k;
    }
  }

  cost(inst: Instance): number {
    let total = this.unassigned.length * inst.unassignedPenalty;
    for (const route of this.routes) total += route.cost;
    return total;
  }

  routeCost(): number {
    let total = 0;
    for (const route of this.routes) total += route.cost;
    return total;
  }
}
