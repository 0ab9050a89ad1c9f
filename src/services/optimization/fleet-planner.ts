/**
 * Re-planning of live fleets: the fleet actor's problem (vehicles where they
 * are now, pending stops, the current plan) → the routing engine's travel-time
 * matrix → parallel VRP searches warm-started from the current plan, tier
 * `fast` → routes by stop id. Completed stops never reach this point (they are
 * locked in the actor).
 */
import type { FleetProblem, FleetSolution } from '../../actors/fleet/fleet-actor.js';
import type { InitialRoute, VrpProblem } from '../../solvers/vrp/model.js';
import { parallelSearch, type VrpTaskRunner } from './parallel-search.js';
import { describePlan, unreachableStops, type PlanLayout } from './route-plans.js';
import type { TravelMatrixSource } from './travel-matrix.js';

export class FleetPlanner {
  constructor(
    private readonly matrices: TravelMatrixSource,
    private readonly runner: VrpTaskRunner,
    /** Independent searches per re-plan (one per worker thread). */
    private readonly searches: number,
  ) {}

  async plan(problem: FleetProblem, signal?: AbortSignal): Promise<FleetSolution> {
    if (problem.stops.length === 0) {
      return { feasible: true, routes: problem.vehicles.map((vehicle) => ({ vehicleId: vehicle.id, stopIds: [], arrivalSeconds: [], durationSeconds: 0, distanceMeters: 0 })), unassignedStopIds: [] };
    }
    // locations: the stops (job j is at j), then each vehicle's start, then the ends of vehicles that return
    const points = [...problem.stops, ...problem.vehicles.map((vehicle) => vehicle.start)];
    const endOf = problem.vehicles.map((vehicle) => (vehicle.end ? points.push(vehicle.end) - 1 : null));
    const matrix = await this.matrices.matrix(points, problem.costing, signal);
    const durations = Float64Array.from(matrix.durationsSeconds);
    if (matrix.reachable) for (let k = 0; k < durations.length; k++) if (!matrix.reachable[k]) durations[k] = Infinity;
    const stopCount = problem.stops.length;
    const vrp: VrpProblem = {
      size: points.length,
      durations,
      costs: durations,
      jobs: problem.stops.map((stop, j) => ({ location: j, demand: stop.demand, serviceSec: stop.serviceSeconds })),
      vehicles: problem.vehicles.map((vehicle, v) => ({ start: stopCount + v, end: endOf[v]!, capacity: vehicle.capacity ?? Number.POSITIVE_INFINITY })),
    };
    const layout: PlanLayout = { stopOfJob: (job) => job, startStop: () => null, endStop: () => null, points: problem.stops, locationOfStop: (stop) => stop };
    const result = await parallelSearch(this.runner, vrp, { tier: 'fast', searches: this.searches, initialRoutes: warmStartOf(problem), ...(signal ? { signal } : {}) });
    const plan = describePlan(result, vrp, matrix, layout, unreachableStops(vrp, layout));
    const idOf = (stop: number) => problem.stops[stop]!.id;
    const byVehicle = new Map(plan.routes.map((route) => [route.vehicle, route]));
    return {
      feasible: plan.feasible,
      routes: problem.vehicles.map((vehicle, v) => {
        const route = byVehicle.get(v);
        return {
          vehicleId: vehicle.id,
          stopIds: route?.order.map(idOf) ?? [],
          arrivalSeconds: route?.times ?? [],
          durationSeconds: route?.durationSec ?? 0,
          distanceMeters: route?.distanceMeters ?? 0,
        };
      }),
      unassignedStopIds: plan.dropped.map(idOf),
      ...(plan.reasons ? { reasons: plan.reasons.map((reason) => ({ code: reason.code, stopIds: reason.stops.map(idOf), message: reason.message })) } : {}),
    };
  }
}

/** The current plan's routes by solver indices (stops that are gone are skipped by the solver's seeding). */
function warmStartOf(problem: FleetProblem): InitialRoute[] {
  const jobOf = new Map(problem.stops.map((stop, j) => [stop.id, j]));
  const vehicleOf = new Map(problem.vehicles.map((vehicle, v) => [vehicle.id, v]));
  return problem.warmStart.flatMap((route) => {
    const vehicle = vehicleOf.get(route.vehicleId);
    if (vehicle === undefined) return [];
    return [{ vehicle, jobs: route.stopIds.map((stopId) => jobOf.get(stopId)).filter((job): job is number => job !== undefined) }];
  });
}
