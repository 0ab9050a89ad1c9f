import type { VrpProblem } from '../model.js';

/** Stands in for "no path": far beyond any horizon, yet finite so cost deltas never become NaN. */
export const UNREACHABLE = 1e10;
/** Latest time when none is given (about 31 years): any unreachable arc breaks it. */
export const HORIZON = 1e9;
/** Number of nearest jobs kept per job (string removal adjacency, granular local search). */
const NEIGHBOURS = 30;

/**
 * The problem compiled into flat typed arrays for the search: job attributes by
 * job index, vehicle attributes by vehicle index, matrices with unreachable arcs
 * made finite, nearest-neighbour lists, and the load model (plain jobs are
 * deliveries loaded at the start; a pair loads at its pickup, unloads at its delivery).
 */
export class Instance {
  readonly size: number;
  readonly jobCount: number;
  readonly vehicleCount: number;
  readonly durations: Float64Array;
  readonly costs: Float64Array;
  readonly location: Int32Array;
  readonly service: Float64Array;
  readonly early: Float64Array;
  readonly late: Float64Array;
  /** Load the job adds to the vehicle at the start of the route (plain jobs). */
  readonly startLoad: Float64Array;
  /** Load change at the job (−demand for plain jobs, +amount at a pickup, −amount at its delivery). */
  readonly loadChange: Float64Array;
  /** Partner job of a pair, −1 for plain jobs. */
  readonly partner: Int32Array;
  readonly isPickup: Uint8Array;
  readonly vehicleStart: Int32Array;
  /** −1: open-ended. */
  readonly vehicleEnd: Int32Array;
  readonly capacity: Float64Array;
  readonly vehicleEarly: Float64Array;
  readonly vehicleLate: Float64Array;
  readonly maxDuration: Float64Array;
  readonly hasDurationLimit: boolean;
  /** Penalty for an unserved job: the drop penalty, or a prohibitive one when every job is mandatory. */
  readonly unassignedPenalty: number;
  readonly mandatory: boolean;
  /** neighbours[j * neighbourCount + k]: k-th nearest job to job j. */
  readonly neighbours: Int32Array;
  readonly neighbourCount: number;
  /** Typical arc cost, the scale for the annealing temperature. */
  readonly costScale: number;
  /** One representative vehicle per class of identical vehicles (used for opening a new route). */
  readonly vehicleClass: Int32Array;

  constructor(problem: VrpProblem) {
    const n = problem.size;
    this.size = n;
    this.jobCount = problem.jobs.length;
    this.vehicleCount = problem.vehicles.length;
    this.durations = finite(problem.durations);
    this.costs = finite(problem.costs);
    const jobs = problem.jobs;
    const J = this.jobCount;
    this.location = Int32Array.from(jobs, (job) => job.location);
    this.service = Float64Array.from(jobs, (job) => job.serviceSec);
    this.early = Float64Array.from(jobs, (job) => job.window?.[0] ?? 0);
    this.late = Float64Array.from(jobs, (job) => Math.min(job.window?.[1] ?? HORIZON, HORIZON));
    this.startLoad = Float64Array.from(jobs, (job) => job.demand);
    this.loadChange = Float64Array.from(jobs, (job) => -job.demand);
    this.partner = new Int32Array(J).fill(-1);
    this.isPickup = new Uint8Array(J);
    for (const [pickup, delivery] of problem.pairs ?? []) {
      const amount = jobs[pickup]!.demand;
      this.partner[pickup] = delivery;
      this.partner[delivery] = pickup;
      this.isPickup[pickup] = 1;
      this.startLoad[pickup] = 0;
      this.startLoad[delivery] = 0;
      this.loadChange[pickup] = amount;
      this.loadChange[delivery] = -amount;
    }
    const vehicles = problem.vehicles;
    this.vehicleStart = Int32Array.from(vehicles, (v) => v.start);
    this.vehicleEnd = Int32Array.from(vehicles, (v) => (v.end === null ? -1 : v.end));
    this.capacity = Float64Array.from(vehicles, (v) => v.capacity);
    this.vehicleEarly = Float64Array.from(vehicles, (v) => v.window?.[0] ?? 0);
    this.vehicleLate = Float64Array.from(vehicles, (v) => Math.min(v.window?.[1] ?? HORIZON, HORIZON));
    this.maxDuration = Float64Array.from(vehicles, (v) => v.maxDurationSec ?? Infinity);
    this.hasDurationLimit = vehicles.some((v) => v.maxDurationSec !== undefined);
    this.mandatory = problem.dropPenalty === undefined;

    let total = 0;
    let count = 0;
    for (let j = 0; j < J; j++) {
      const from = this.location[j]!;
      for (let v = 0; v < this.vehicleCount; v++) {
        const c = this.costs[this.vehicleStart[v]! * n + from]!;
        if (c < UNREACHABLE) {
          total += c;
          count++;
        }
      }
    }
    this.costScale = count ? Math.max(total / count, 1e-9) : 1;
    this.unassignedPenalty = this.mandatory ? 1e6 * this.costScale + 1e6 : problem.dropPenalty!;

    this.neighbourCount = Math.min(NEIGHBOURS, Math.max(J - 1, 0));
    this.neighbours = new Int32Array(J * this.neighbourCount);
    const order = Array.from({ length: J }, (_, k) => k);
    for (let j = 0; j < J; j++) {
      const row = this.location[j]! * n;
      const byCost = order
        .filter((k) => k !== j)
        .sort((a, b) => this.costs[row + this.location[a]!]! - this.costs[row + this.location[b]!]!);
      for (let k = 0; k < this.neighbourCount; k++) this.neighbours[j * this.neighbourCount + k] = byCost[k]!;
    }

    this.vehicleClass = new Int32Array(this.vehicleCount);
    const classes = new Map<string, number>();
    for (let v = 0; v < this.vehicleCount; v++) {
      const key = `${this.vehicleStart[v]}|${this.vehicleEnd[v]}|${this.capacity[v]}|${this.vehicleEarly[v]}|${this.vehicleLate[v]}|${this.maxDuration[v]}`;
      const known = classes.get(key);
      if (known === undefined) classes.set(key, v);
      this.vehicleClass[v] = known ?? v;
    }
  }

  travel(from: number, to: number): number {
    return this.durations[from * this.size + to]!;
  }

  cost(from: number, to: number): number {
    return to < 0 ? 0 : this.costs[from * this.size + to]!;
  }
}

function finite(matrix: Float64Array): Float64Array {
  const copy = new Float64Array(matrix.length);
  for (let i = 0; i < matrix.length; i++) {
    const value = matrix[i]!;
    copy[i] = Number.isFinite(value) && value < UNREACHABLE ? value : UNREACHABLE;
  }
  return copy;
}
