/**
 * The vehicle-routing problem as the solver sees it: locations are indices into
 * dense row-major matrices, jobs and vehicles refer to locations. The solver is
 * pure: no I/O, no clock other than its time budget.
 */

/** One stop to serve. `window` bounds the start of service (seconds from the plan's time origin). */
export interface VrpJob {
  location: number;
  /** Goods this stop takes off the vehicle (plain stops are deliveries loaded at the start); pairs: see `VrpProblem.pairs`. */
  demand: number;
  serviceSec: number;
  window?: readonly [number, number];
}

export interface VrpVehicle {
  /** Location the vehicle starts from. */
  start: number;
  /** Location the vehicle must end at; null: the route ends at its last stop (open-ended). */
  end: number | null;
  capacity: number;
  /** Departure no earlier than window[0]; back at `end` (or done with the last stop when open) no later than window[1]. */
  window?: readonly [number, number];
  /** Longest route duration (end − departure, waiting included; departure is as late as the schedule allows). */
  maxDurationSec?: number;
}

export interface VrpProblem {
  /** Number of locations (matrix side). */
  size: number;
  /** Travel times in seconds, row-major size×size; non-finite = no path. */
  durations: Float64Array;
  /** What the search minimises (distance or duration), row-major size×size; non-finite = no path. */
  costs: Float64Array;
  jobs: readonly VrpJob[];
  vehicles: readonly VrpVehicle[];
  /**
   * [pickupJob, deliveryJob]: both on one vehicle, pickup first. The pair carries the pickup's
   * `demand` from pickup to delivery (the delivery job's own demand is not used).
   */
  pairs?: readonly (readonly [number, number])[];
  /** Cost of leaving a job unserved; undefined: every job must be served. */
  dropPenalty?: number;
}

export interface VrpSearchOptions {
  seed: number;
  /** Wall-clock budget of the search. */
  timeLimitMs: number;
  /** Stops earlier after this many ruin-and-recreate iterations (makes a run reproducible). */
  maxIterations?: number;
  /**
   * Warm start: routes of an earlier plan to begin from instead of a greedy construction
   * (jobs not named are inserted greedily; what no longer fits is re-inserted too).
   */
  initialRoutes?: readonly InitialRoute[];
}

/** A vehicle's jobs in visiting order, as the start of a search. */
export interface InitialRoute {
  vehicle: number;
  jobs: readonly number[];
}

export interface VrpRoute {
  vehicle: number;
  /** Job indices in visiting order. */
  jobs: number[];
  cost: number;
  /** Service start time at each job (earliest schedule). */
  serviceStarts: number[];
  /** End − departure, with the departure delayed as far as the schedule allows. */
  durationSec: number;
  /** Departure time from the start location in that schedule. */
  departureSec: number;
}

export interface VrpResult {
  feasible: boolean;
  /** Why not, when infeasible (each reason names the jobs involved). */
  reasons: VrpInfeasibility[];
  /** Routes of vehicles that serve at least one job. */
  routes: VrpRoute[];
  /** Jobs left unserved (only with dropPenalty, or when infeasible). */
  dropped: number[];
  /** Sum of route costs plus drop penalties. */
  cost: number;
  iterations: number;
  seed: number;
}

/** Why jobs could not be served: one of them alone is impossible, or they do not fit together. */
export interface VrpInfeasibility {
  code: 'demand_exceeds_capacity' | 'time_window_unreachable' | 'route_duration_exceeded' | 'pair_unservable' | 'not_enough_vehicles';
  jobs: number[];
}
