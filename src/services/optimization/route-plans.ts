import type { ReoptimizeRequest, RoutesRequest } from './optimization-requests.js';
import type { VrpInfeasibility, VrpProblem, VrpResult } from '../../solvers/vrp/model.js';
import type { TravelMatrix } from './travel-matrix.js';
import { roundTo } from '../../shared/rounding.js';

export const PROVIDER = 'svc-optimize';

interface LatLng {
  lat: number;
  lng: number;
}

export interface PlannedRoute {
  vehicle: number;
  durationSec: number;
  distanceMeters: number;
  /** Indexes into the request's stops (routes: the depot 0 first, and last unless open-ended). */
  order: number[];
  /** The coordinates of `order`, in that sequence. */
  stops: LatLng[];
  /** Seconds from the plan's time origin at each entry of `order`: departure, service starts, arrival back. */
  times: number[];
}

export interface RoutePlan {
  provider: typeof PROVIDER;
  feasible: boolean;
  objective: { totalDurationSec: number; totalDistanceMeters: number; vehiclesUsed: number };
  /** Stops left out (only with dropPenalty, or listed as the reason of an infeasible plan). */
  dropped: number[];
  routes: PlannedRoute[];
  /** Why the plan is infeasible, by stop index. */
  reasons?: { code: VrpInfeasibility['code'] | 'unreachable'; stops: number[]; message: string }[];
}

/** Durations with unreachable pairs made infinite (the solver treats them as no path). */
function durationsOf(matrix: TravelMatrix): Float64Array {
  const durations = Float64Array.from(matrix.durationsSeconds);
  if (matrix.reachable) for (let k = 0; k < durations.length; k++) if (!matrix.reachable[k]) durations[k] = Infinity;
  return durations;
}

/** POST /optimize/routes as a solver problem: stop 0 is the depot (its window is the vehicles' shift), stop s is job s − 1. */
export function routesProblem(request: RoutesRequest, matrix: TravelMatrix): VrpProblem {
  const durations = durationsOf(matrix);
  const n = request.stops.length;
  const unlimited = Number.POSITIVE_INFINITY;
  return {
    size: n,
    durations,
    costs: durations,
    jobs: Array.from({ length: n - 1 }, (_, j) => ({
      location: j + 1,
      demand: request.demands?.[j + 1] ?? 0,
      serviceSec: request.serviceTimes?.[j + 1] ?? 0,
      ...(request.timeWindows ? { window: request.timeWindows[j + 1]! } : {}),
    })),
    vehicles: Array.from({ length: request.numVehicles }, (_, v) => ({
      start: 0,
      end: request.openEnded ? null : 0,
      capacity: request.vehicleCapacities?.[v] ?? unlimited,
      ...(request.timeWindows ? { window: request.timeWindows[0]! } : {}),
      ...(request.maxRouteDuration !== undefined ? { maxDurationSec: request.maxRouteDuration } : {}),
    })),
    pairs: (request.pickupsDeliveries ?? []).map(([pickup, delivery]) => [pickup - 1, delivery - 1] as const),
    ...(request.dropPenalty !== undefined ? { dropPenalty: request.dropPenalty } : {}),
  };
}

/** POST /optimize/reoptimize as a solver problem: locations are the vehicles' positions, then the remaining stops; routes are open-ended. */
export function reoptimizeProblem(request: ReoptimizeRequest, matrix: TravelMatrix): VrpProblem {
  const durations = durationsOf(matrix);
  const vehicles = request.vehiclePositions.length;
  return {
    size: vehicles + request.remainingStops.length,
    durations,
    costs: durations,
    jobs: request.remainingStops.map((_, k) => ({ location: vehicles + k, demand: request.demands?.[k] ?? 0, serviceSec: 0 })),
    vehicles: request.vehiclePositions.map((_, v) => ({ start: v, end: null, capacity: request.vehicleCapacities?.[v] ?? Number.POSITIVE_INFINITY })),
    ...(request.dropPenalty !== undefined ? { dropPenalty: request.dropPenalty } : {}),
  };
}

export interface PlanLayout {
  /** The request's stop index of solver job j. */
  stopOfJob: (job: number) => number;
  /** The request's stop index of a vehicle's start and end (null: not shown, as the reoptimize positions). */
  startStop: (vehicle: number) => number | null;
  endStop: (vehicle: number) => number | null;
  points: readonly LatLng[];
  /** Matrix index of a request stop. */
  locationOfStop: (stop: number) => number;
}

export function routesLayout(request: RoutesRequest): PlanLayout {
  return {
    stopOfJob: (job) => job + 1,
    startStop: () => 0,
    endStop: () => (request.openEnded ? null : 0),
    points: request.stops,
    locationOfStop: (stop) => stop,
  };
}

export function reoptimizeLayout(request: ReoptimizeRequest): PlanLayout {
  const offset = request.vehiclePositions.length;
  return { stopOfJob: (job) => job, startStop: () => null, endStop: () => null, points: request.remainingStops, locationOfStop: (stop) => offset + stop };
}

const REASON_TEXT: Record<VrpInfeasibility['code'], string> = {
  demand_exceeds_capacity: 'demand larger than every vehicle capacity',
  time_window_unreachable: 'cannot be reached within its time window (or the shift) by any vehicle',
  route_duration_exceeded: 'even alone it makes a route longer than maxRouteDuration',
  pair_unservable: 'this pickup and its delivery cannot be served together by any vehicle',
  not_enough_vehicles: 'each can be served alone, but not all together with the vehicles given',
};

/** Request stops that no vehicle can reach and come back from (or, open-ended, reach): named as such when infeasible. */
export function unreachableStops(problem: VrpProblem, layout: PlanLayout): number[] {
  const n = problem.size;
  const out: number[] = [];
  problem.jobs.forEach((job, j) => {
    const ok = problem.vehicles.some(
      (vehicle) => Number.isFinite(problem.durations[vehicle.start * n + job.location]!) && (vehicle.end === null || Number.isFinite(problem.durations[job.location * n + vehicle.end]!)),
    );
    if (!ok) out.push(layout.stopOfJob(j));
  });
  return out;
}

/** The solver's answer in the spec's shape (part 3 §2.6). */
export function describePlan(result: VrpResult, problem: VrpProblem, matrix: TravelMatrix, layout: PlanLayout, unreachable: number[] = []): RoutePlan {
  const n = matrix.size;
  const routes = result.routes.map((route): PlannedRoute => {
    const start = layout.startStop(route.vehicle);
    const end = layout.endStop(route.vehicle);
    const order = [...(start === null ? [] : [start]), ...route.jobs.map(layout.stopOfJob), ...(end === null ? [] : [end])];
    const times = [...(start === null ? [] : [route.departureSec]), ...route.serviceStarts, ...(end === null ? [] : [route.departureSec + route.durationSec])];
    let distance = 0;
    let previous = problem.vehicles[route.vehicle]!.start;
    for (const job of route.jobs) {
      distance += matrix.distancesMeters[previous * n + problem.jobs[job]!.location]!;
      previous = problem.jobs[job]!.location;
    }
    const last = problem.vehicles[route.vehicle]!.end;
    if (last !== null) distance += matrix.distancesMeters[previous * n + last]!;
    return {
      vehicle: route.vehicle,
      durationSec: roundTo(route.durationSec, 1),
      distanceMeters: roundTo(distance, 1),
      order,
      stops: order.map((stop) => ({ lat: layout.points[stop]!.lat, lng: layout.points[stop]!.lng })),
      times: times.map((time) => roundTo(time, 1)),
    };
  });
  const plan: RoutePlan = {
    provider: PROVIDER,
    feasible: result.feasible,
    objective: {
      totalDurationSec: roundTo(routes.reduce((sum, route) => sum + route.durationSec, 0), 1),
      totalDistanceMeters: roundTo(routes.reduce((sum, route) => sum + route.distanceMeters, 0), 1),
      vehiclesUsed: routes.length,
    },
    dropped: result.dropped.map(layout.stopOfJob).sort((a, b) => a - b),
    routes,
  };
  if (!plan.feasible) {
    const cut = new Set(unreachable);
    plan.reasons = [
      ...(unreachable.length ? [{ code: 'unreachable' as const, stops: unreachable, message: 'no road path between these stops and the vehicles' }] : []),
      ...result.reasons
        .map((reason) => ({ code: reason.code, stops: reason.jobs.map(layout.stopOfJob).filter((stop) => !cut.has(stop)), message: REASON_TEXT[reason.code] }))
        .filter((reason) => reason.stops.length),
    ];
  }
  return plan;
}
