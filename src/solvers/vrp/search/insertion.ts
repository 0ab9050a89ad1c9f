import type { Instance } from '../structures/instance.js';
import type { Route } from '../structures/route.js';
import type { RouteChecker } from '../structures/route-check.js';
import type { Solution } from '../structures/solution.js';
import type { Random } from '../../random.js';

/** The cheapest place found for a job (or a pickup with its delivery). */
export interface Insertion {
  delta: number;
  route: number;
  /** Position of the job (the pickup) in the route before insertion. */
  position: number;
  /** Position of the delivery in the route before insertion (≥ position); −1 for a plain job. */
  deliveryPosition: number;
}

export function noInsertion(): Insertion {
  return { delta: Infinity, route: -1, position: -1, deliveryPosition: -1 };
}

/** The sequence after an insertion (used for the full check and to apply it). */
export function insertedJobs(route: Route, job: number, position: number, delivery: number, deliveryPosition: number): number[] {
  const jobs = route.jobs;
  if (deliveryPosition < 0) return [...jobs.slice(0, position), job, ...jobs.slice(position)];
  return [
    ...jobs.slice(0, position),
    job,
    ...jobs.slice(position, deliveryPosition),
    delivery,
    ...jobs.slice(deliveryPosition),
  ];
}

/**
 * Best insertion of `job` over all routes that serve jobs, plus one empty route
 * per class of identical vehicles. `blink`: probability of skipping a position
 * (SISR's blinks diversify the recreate step).
 */
export function bestInsertion(
  inst: Instance,
  checker: RouteChecker,
  solution: Solution,
  job: number,
  random: Random | undefined,
  blink: number,
  best: Insertion = noInsertion(),
): Insertion {
  const triedClass = new Uint8Array(inst.vehicleCount);
  const partner = inst.partner[job]!;
  for (let r = 0; r < solution.routes.length; r++) {
    const route = solution.routes[r]!;
    if (route.length === 0) {
      const vehicleClass = inst.vehicleClass[r]!;
      if (triedClass[vehicleClass]) continue;
      triedClass[vehicleClass] = 1;
    }
    if (partner >= 0) pairInsertion(inst, checker, route, job, partner, random, blink, best);
    else if (route.length > GRANULAR_FROM) granularInsertion(inst, checker, solution, route, job, random, blink, best);
    else plainInsertion(inst, checker, route, job, random, blink, best);
  }
  return best;
}

/** Routes longer than this are searched only next to the job's nearest neighbours (and at both ends). */
const GRANULAR_FROM = 40;

function granularInsertion(
  inst: Instance,
  checker: RouteChecker,
  solution: Solution,
  route: Route,
  job: number,
  random: Random | undefined,
  blink: number,
  best: Insertion,
): void {
  const r = route.vehicle;
  tryPosition(inst, checker, route, job, 0, best);
  tryPosition(inst, checker, route, job, route.length, best);
  const base = job * inst.neighbourCount;
  for (let k = 0; k < inst.neighbourCount; k++) {
    const other = inst.neighbours[base + k]!;
    if (solution.jobRoute[other] !== r) continue;
    if (random && blink > 0 && random.next() < blink) continue;
    const at = solution.position[other]!;
    tryPosition(inst, checker, route, job, at, best);
    tryPosition(inst, checker, route, job, at + 1, best);
  }
}

function plainInsertion(inst: Instance, checker: RouteChecker, route: Route, job: number, random: Random | undefined, blink: number, best: Insertion): void {
  const room = inst.capacity[route.vehicle]! - inst.startLoad[job]!;
  for (let p = 0; p <= route.length; p++) {
    if (route.maxLoadBefore[p]! > room) break;
    if (random && blink > 0 && random.next() < blink) continue;
    tryPosition(inst, checker, route, job, p, best);
  }
}

/** Checks one position (0..length) for a plain job and records it when cheaper. */
function tryPosition(inst: Instance, checker: RouteChecker, route: Route, job: number, p: number, best: Insertion): void {
  const v = route.vehicle;
  if (route.maxLoadBefore[p]! + inst.startLoad[job]! > inst.capacity[v]!) return;
  const here = inst.location[job]!;
  const previous = route.locationBefore(inst, p);
  const next = route.locationAt(inst, p);
  const delta = inst.cost(previous, here) + inst.cost(here, next) - inst.cost(previous, next);
  if (delta >= best.delta) return;
  const arrival = route.departureBefore(inst, p) + inst.travel(previous, here);
  const begin = arrival > inst.early[job]! ? arrival : inst.early[job]!;
  if (begin > inst.late[job]!) return;
  const done = begin + inst.service[job]!;
  if (next >= 0 ? done + inst.travel(here, next) > route.latestAt(inst, p) : done > inst.vehicleLate[v]!) return;
  if (inst.hasDurationLimit && checker.cost(v, insertedJobs(route, job, p, -1, -1)) < 0) return;
  best.delta = delta;
  best.route = v;
  best.position = p;
  best.deliveryPosition = -1;
}

function pairInsertion(
  inst: Instance,
  checker: RouteChecker,
  route: Route,
  pickup: number,
  delivery: number,
  random: Random | undefined,
  blink: number,
  best: Insertion,
): void {
  const v = route.vehicle;
  const m = route.length;
  const amount = inst.loadChange[pickup]!;
  const capacity = inst.capacity[v]!;
  const pickupAt = inst.location[pickup]!;
  const deliveryAt = inst.location[delivery]!;
  for (let p = 0; p <= m; p++) {
    if (random && blink > 0 && random.next() < blink) continue;
    const loadBefore = p === 0 ? route.maxLoadBefore[0]! : route.loadAfter[p - 1]!;
    if (loadBefore + amount > capacity) continue;
    const previous = route.locationBefore(inst, p);
    const next = route.locationAt(inst, p);
    const arrival = route.departureBefore(inst, p) + inst.travel(previous, pickupAt);
    const begin = Math.max(arrival, inst.early[pickup]!);
    if (begin > inst.late[pickup]!) continue;
    const pickupDelta = inst.cost(previous, pickupAt) + inst.cost(pickupAt, next) - inst.cost(previous, next);
    if (pickupDelta >= best.delta) continue;
    let lastAt = pickupAt;
    let lastDone = begin + inst.service[pickup]!;
    for (let q = p; q <= m; q++) {
      const following = route.locationAt(inst, q);
      const deliveryArrival = lastDone + inst.travel(lastAt, deliveryAt);
      const deliveryBegin = Math.max(deliveryArrival, inst.early[delivery]!);
      if (deliveryBegin <= inst.late[delivery]!) {
        const deliveryDone = deliveryBegin + inst.service[delivery]!;
        const fits = following >= 0 ? deliveryDone + inst.travel(deliveryAt, following) <= route.latestAt(inst, q) : deliveryDone <= inst.vehicleLate[v]!;
        if (fits) {
          const delta =
            q === p
              ? inst.cost(previous, pickupAt) + inst.cost(pickupAt, deliveryAt) + inst.cost(deliveryAt, next) - inst.cost(previous, next)
              : pickupDelta + inst.cost(lastAt, deliveryAt) + inst.cost(deliveryAt, following) - inst.cost(lastAt, following);
          if (delta < best.delta && (!inst.hasDurationLimit || checker.cost(v, insertedJobs(route, pickup, p, delivery, q)) >= 0)) {
            best.delta = delta;
            best.route = v;
            best.position = p;
            best.deliveryPosition = q;
          }
        }
      }
      if (q === m) break;
      const job = route.jobs[q]!;
      if (route.loadAfter[q]! + amount > capacity) break;
      const shifted = Math.max(lastDone + inst.travel(lastAt, following), inst.early[job]!);
      if (shifted > inst.late[job]!) break;
      lastAt = following;
      lastDone = shifted + inst.service[job]!;
    }
  }
}

/** Applies an insertion found by bestInsertion. */
export function applyInsertion(inst: Instance, solution: Solution, job: number, insertion: Insertion): void {
  const route = solution.routes[insertion.route]!;
  const jobs = insertedJobs(route, job, insertion.position, inst.partner[job]!, insertion.deliveryPosition);
  solution.setJobs(inst, insertion.route, jobs);
}
