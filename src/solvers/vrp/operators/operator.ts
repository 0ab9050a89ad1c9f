import type { Instance } from '../structures/instance.js';
import type { Route } from '../structures/route.js';
import type { RouteChecker } from '../structures/route-check.js';
import type { Solution } from '../structures/solution.js';

/** What an operator works on. */
export interface MoveContext {
  readonly inst: Instance;
  readonly checker: RouteChecker;
  readonly solution: Solution;
  /** How many nearest neighbours of a job the granular neighbourhoods look at. */
  readonly breadth: number;
}

/**
 * A local-search neighbourhood. Moves are granular: each one makes job `u`
 * adjacent to one of its nearest neighbours. The cost delta (exact for
 * symmetric costs) filters; the full route check decides on the real costs.
 */
export interface Operator {
  readonly name: string;
  /** Applies the first improving move around job u, served at `place`; true if one was applied. */
  improveAround(context: MoveContext, u: number, place: Place): boolean;
}

const EPSILON = 1e-7;

/** Location at position p of a route: the start for p < 0, the end (−1 when open) for p ≥ length. */
export function nodeAt(inst: Instance, route: Route, p: number): number {
  if (p < 0) return inst.vehicleStart[route.vehicle]!;
  if (p >= route.length) return inst.vehicleEnd[route.vehicle]!;
  return inst.location[route.jobs[p]!]!;
}

export function arc(inst: Instance, from: number, to: number): number {
  return from < 0 ? 0 : inst.cost(from, to);
}

/** Where a job is served: route index, route and position. */
export interface Place {
  r: number;
  route: Route;
  i: number;
}

/** Where job u is served; null when unserved. */
export function placeOf(context: MoveContext, u: number): Place | null {
  const r = context.solution.jobRoute[u]!;
  return r < 0 ? null : { r, route: context.solution.routes[r]!, i: context.solution.position[u]! };
}

/** The neighbours of u that are served, with their route and position. */
export function* servedNeighbours(context: MoveContext, u: number): Generator<{ v: number; rv: number; j: number }> {
  const { inst, solution } = context;
  const base = u * inst.neighbourCount;
  const count = Math.min(context.breadth, inst.neighbourCount);
  for (let k = 0; k < count; k++) {
    const v = inst.neighbours[base + k]!;
    const rv = solution.jobRoute[v]!;
    if (rv >= 0) yield { v, rv, j: solution.position[v]! };
  }
}

/**
 * Applies new sequences for one or two routes if all are feasible and the
 * total cost really falls.
 */
export function commitIfBetter(context: MoveContext, changes: readonly (readonly [number, number[]])[]): boolean {
  const { inst, checker, solution } = context;
  let before = 0;
  let after = 0;
  for (const [r, jobs] of changes) {
    before += solution.routes[r]!.cost;
    const cost = checker.cost(r, jobs);
    if (cost < 0) return false;
    after += cost;
  }
  if (after >= before - EPSILON) return false;
  for (const [r, jobs] of changes) solution.setJobs(inst, r, jobs);
  return true;
}

export { EPSILON };
