/**
 * The orienteering problem of an automatic itinerary (spec part 3 §4.3 `/itinerary/auto`): from a start,
 * choose and order stops so that the summed value of the stops visited is as large as possible while travel
 * plus dwell stays within a time budget. The path ends at its last stop, or back at the start
 * (`returnToStart`). Travel times are a row-major matrix over node 0 (the start) and nodes 1..n (the
 * candidates), shortest-path times as the routing engine gives them (never quicker through another stop:
 * a candidate that does not fit alone fits in no tour); NaN or Infinity means no path.
 *
 * Exact (a dynamic programme over subsets) up to EXACT_CANDIDATE_LIMIT candidates that could be visited at
 * all; above that an iterated local search: greedy insertion by value per added minute, then 2-opt (shorter
 * travel frees time), insertion of what fits and swaps of a visited stop for a more valuable one, repeated
 * from the best tour after removing a random few of its stops (docs/itineraries.md, "Auto").
 */
import { Random } from '../random.js';

/** Candidates up to which the answer is provably the best (2^n · n² steps: 2^14 · 196 ≈ 3.2 M). */
export const EXACT_CANDIDATE_LIMIT = 14;
/** Restarts of the local search a default solve runs (the bench measures time and value at this count). */
export const DEFAULT_ITERATIONS = 400;
/** Slack for the budget comparison: sums of float minutes must not refuse a tour that fits exactly. */
const EPSILON = 1e-9;

export interface OrienteeringProblem {
  /** Nodes: 0 is the start, 1..size-1 the candidates. */
  size: number;
  /** Minutes from node i to node j at `i * size + j`; NaN or Infinity where there is no path. */
  travel: ArrayLike<number>;
  /** Value of visiting each node (node 0's is ignored); non-negative. */
  value: ArrayLike<number>;
  /** Minutes spent at each node (node 0's is ignored). */
  dwell: ArrayLike<number>;
  /** Travel plus dwell may not exceed this many minutes. */
  budget: number;
  /** The tour ends back at the start (its last leg counts) instead of at its last stop. */
  returnToStart: boolean;
}

export interface OrienteeringOptions {
  /** Local-search restarts (ignored when the exact programme runs). */
  iterations?: number;
  seed?: number;
  /** Use the heuristic even where the exact programme would run (tests, the bench). */
  heuristicOnly?: boolean;
}

export interface OrienteeringResult {
  /** Candidate nodes in visiting order (node 0 not included). */
  route: number[];
  value: number;
  travelMinutes: number;
  dwellMinutes: number;
  /** travelMinutes + dwellMinutes; never over the budget. */
  totalMinutes: number;
  /** Candidates no tour within the budget can visit even alone (or that cannot be reached at all). */
  outOfReach: number[];
  exact: boolean;
}

/** Travel minutes of a tour over the problem's matrix (Infinity when a leg has no path). */
export function travelOf(problem: OrienteeringProblem, route: readonly number[]): number {
  const { size, travel } = problem;
  let total = 0;
  let previous = 0;
  for (const node of route) {
    total += leg(travel, size, previous, node);
    previous = node;
  }
  if (problem.returnToStart && route.length) total += leg(travel, size, previous, 0);
  return total;
}

function leg(travel: ArrayLike<number>, size: number, from: number, to: number): number {
  const minutes = travel[from * size + to]!;
  return Number.isFinite(minutes) ? minutes : Number.POSITIVE_INFINITY;
}

function dwellOf(problem: OrienteeringProblem, route: readonly number[]): number {
  let total = 0;
  for (const node of route) total += problem.dwell[node]!;
  return total;
}

function valueOf(problem: OrienteeringProblem, route: readonly number[]): number {
  let total = 0;
  for (const node of route) total += problem.value[node]!;
  return total;
}

/** Candidates a tour visiting only them would fit in the budget. */
function reachable(problem: OrienteeringProblem): { inReach: number[]; outOfReach: number[] } {
  const inReach: number[] = [];
  const outOfReach: number[] = [];
  for (let node = 1; node < problem.size; node++) {
    const alone = travelOf(problem, [node]) + problem.dwell[node]!;
    (alone <= problem.budget + EPSILON ? inReach : outOfReach).push(node);
  }
  return { inReach, outOfReach };
}

export function solveOrienteering(problem: OrienteeringProblem, options: OrienteeringOptions = {}): OrienteeringResult {
  const { inReach, outOfReach } = reachable(problem);
  const exact = !options.heuristicOnly && inReach.length <= EXACT_CANDIDATE_LIMIT;
  const route = exact ? exactRoute(problem, inReach) : new LocalSearch(problem, inReach, new Random(options.seed ?? 1)).run(options.iterations ?? DEFAULT_ITERATIONS);
  const travelMinutes = route.length ? travelOf(problem, route) : 0;
  const dwellMinutes = dwellOf(problem, route);
  return { route, value: valueOf(problem, route), travelMinutes, dwellMinutes, totalMinutes: travelMinutes + dwellMinutes, outOfReach, exact };
}

/**
 * The best tour over the given candidates: for every subset and last stop, the shortest time from the
 * start through the subset ending there (Held–Karp); the most valuable subset whose time fits wins, ties
 * to the shorter time.
 */
export function exactRoute(problem: OrienteeringProblem, candidates: readonly number[]): number[] {
  const m = candidates.length;
  if (m === 0) return [];
  const { size, travel, dwell } = problem;
  const full = 1 << m;
  const best = new Float64Array(full * m).fill(Number.POSITIVE_INFINITY);
  const parent = new Int8Array(full * m).fill(-1);
  for (let j = 0; j < m; j++) best[(1 << j) * m + j] = leg(travel, size, 0, candidates[j]!) + dwell[candidates[j]!]!;
  let bestValue = 0;
  let bestTime = 0;
  let bestMask = 0;
  let bestEnd = -1;
  for (let mask = 1; mask < full; mask++) {
    let maskValue = 0;
    for (let j = 0; j < m; j++) if (mask & (1 << j)) maskValue += problem.value[candidates[j]!]!;
    for (let j = 0; j < m; j++) {
      if (!(mask & (1 << j))) continue;
      const here = best[mask * m + j]!;
      if (here > problem.budget + EPSILON) continue;
      const closing = problem.returnToStart ? here + leg(travel, size, candidates[j]!, 0) : here;
      if (closing <= problem.budget + EPSILON && (maskValue > bestValue + EPSILON || (Math.abs(maskValue - bestValue) <= EPSILON && closing < bestTime))) {
        bestValue = maskValue;
        bestTime = closing;
        bestMask = mask;
        bestEnd = j;
      }
      for (let k = 0; k < m; k++) {
        if (mask & (1 << k)) continue;
        const next = mask | (1 << k);
        const time = here + leg(travel, size, candidates[j]!, candidates[k]!) + dwell[candidates[k]!]!;
        if (time < best[next * m + k]!) {
          best[next * m + k] = time;
          parent[next * m + k] = j;
        }
      }
    }
  }
  const reversed: number[] = [];
  for (let mask = bestMask, j = bestEnd; j >= 0; ) {
    reversed.push(candidates[j]!);
    const previous = parent[mask * m + j]!;
    mask &= ~(1 << j);
    j = previous;
  }
  return reversed.reverse();
}

/** Iterated local search over one problem; a tour is an array of candidate nodes. */
class LocalSearch {
  private readonly visited: Uint8Array;

  constructor(
    private readonly problem: OrienteeringProblem,
    private readonly candidates: readonly number[],
    private readonly random: Random,
  ) {
    this.visited = new Uint8Array(problem.size);
  }

  run(iterations: number): number[] {
    // two constructions: by value per added minute, and by value first (a valuable far stop the first misses)
    let best: number[] = [];
    let bestScore = { value: 0, time: 0 };
    const consider = (tour: number[]) => {
      const score = this.score(tour);
      if (score.value > bestScore.value + EPSILON || (Math.abs(score.value - bestScore.value) <= EPSILON && score.time < bestScore.time - EPSILON)) {
        best = tour;
        bestScore = score;
      }
    };
    consider(this.improve([]));
    consider(this.improve(this.insertAll([], 0, true).tour));
    for (let iteration = 0; iteration < iterations && best.length; iteration++) {
      consider(this.improve(this.random.next() < 0.5 ? this.dropSome(best) : this.forceSome(best), 1));
    }
    return best;
  }

  /** A perturbation: drop a random few stops (up to half; now and then all of them). */
  private dropSome(best: readonly number[]): number[] {
    const tour = [...best];
    const drop = this.random.next() < 0.1 ? tour.length : 1 + this.random.int(Math.max(1, Math.ceil(tour.length / 2)));
    for (let count = 0; count < drop && tour.length; count++) tour.splice(this.random.int(tour.length), 1);
    return tour;
  }

  /**
   * A perturbation: force one or two random unvisited stops in (cheapest place), shorten the tour, then take
   * out the stops of least value per minute saved until it fits again. Reaches tours whose order a shortened
   * smaller tour had closed off.
   */
  private forceSome(best: readonly number[]): number[] {
    let tour = [...best];
    const outside = this.candidates.filter((node) => !tour.includes(node));
    for (let count = 1 + this.random.int(2); count > 0 && outside.length; count--) {
      const node = outside.splice(this.random.int(outside.length), 1)[0]!;
      const { at } = this.cheapestInsertion(tour, node);
      if (at >= 0) tour.splice(at, 0, node);
    }
    tour = this.shorten(tour);
    while (tour.length && this.time(tour) > this.problem.budget + EPSILON) {
      let worst = 0;
      let worstRatio = Number.POSITIVE_INFINITY;
      const time = this.time(tour);
      for (let index = 0; index < tour.length; index++) {
        const saved = time - this.time([...tour.slice(0, index), ...tour.slice(index + 1)]);
        const ratio = this.problem.value[tour[index]!]! / Math.max(saved, 1e-6);
        if (ratio < worstRatio) {
          worstRatio = ratio;
          worst = index;
        }
      }
      tour.splice(worst, 1);
    }
    return tour;
  }

  private score(tour: readonly number[]): { value: number; time: number } {
    return { value: valueOf(this.problem, tour), time: tour.length ? travelOf(this.problem, tour) + dwellOf(this.problem, tour) : 0 };
  }

  /** Insertion, 2-opt and swaps until none helps; `noise` randomises the insertion order (0 = pure greedy). */
  private improve(start: number[], noise = 0): number[] {
    let tour = start;
    for (let round = 0; round < 50; round++) {
      tour = this.shorten(tour);
      const inserted = this.insertAll(tour, noise);
      const swapped = this.swap(inserted.tour);
      const replaced = this.replace(swapped.tour);
      tour = replaced.tour;
      if (!inserted.changed && !swapped.changed && !replaced.changed) break;
      noise = 0;
    }
    return tour;
  }

  private time(tour: readonly number[]): number {
    return travelOf(this.problem, tour) + dwellOf(this.problem, tour);
  }

  /** The cheapest place to insert a node: the added minutes (travel and dwell) and the index. */
  private cheapestInsertion(tour: readonly number[], node: number): { added: number; at: number } {
    const { size, travel, dwell, returnToStart } = this.problem;
    let added = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let position = 0; position <= tour.length; position++) {
      const previous = position === 0 ? 0 : tour[position - 1]!;
      const next = position === tour.length ? (returnToStart ? 0 : -1) : tour[position]!;
      const delta =
        next < 0
          ? leg(travel, size, previous, node)
          : leg(travel, size, previous, node) + leg(travel, size, node, next) - leg(travel, size, previous, next);
      if (delta < added) {
        added = delta;
        at = position;
      }
    }
    return { added: added + dwell[node]!, at };
  }

  /** Greedy insertion by value per added minute (or by value alone) while anything fits; `excluded` stays out. */
  private insertAll(tour: number[], noise: number, byValue = false, excluded = -1): { tour: number[]; changed: boolean } {
    let changed = false;
    let time = tour.length ? this.time(tour) : 0;
    this.visited.fill(0);
    for (const node of tour) this.visited[node] = 1;
    if (excluded >= 0) this.visited[excluded] = 1;
    for (;;) {
      let choice: { node: number; at: number; added: number; ratio: number } | undefined;
      for (const node of this.candidates) {
        if (this.visited[node]) continue;
        const { added, at } = this.cheapestInsertion(tour, node);
        if (at < 0 || time + added > this.problem.budget + EPSILON) continue;
        const worth = byValue ? this.problem.value[node]! * 1e6 - added : this.problem.value[node]! / Math.max(added, 1e-6);
        const ratio = worth * (noise ? 1 + noise * this.random.next() : 1);
        if (!choice || ratio > choice.ratio) choice = { node, at, added, ratio };
      }
      if (!choice) return { tour, changed };
      tour = [...tour.slice(0, choice.at), choice.node, ...tour.slice(choice.at)];
      this.visited[choice.node] = 1;
      time = this.time(tour);
      changed = true;
    }
  }

  /** 2-opt and single-stop moves until neither shortens the travel. */
  private shorten(tour: number[]): number[] {
    for (;;) {
      const before = tour.length ? travelOf(this.problem, tour) : 0;
      tour = this.relocate(this.twoOpt(tour));
      if (!tour.length || travelOf(this.problem, tour) >= before - EPSILON) return tour;
    }
  }

  /** Moves single stops to where the travel is least (or-opt of one stop). */
  private relocate(tour: number[]): number[] {
    if (tour.length < 2) return tour;
    let best = travelOf(this.problem, tour);
    for (let index = 0; index < tour.length; index++) {
      const node = tour[index]!;
      const without = [...tour.slice(0, index), ...tour.slice(index + 1)];
      const { at } = this.cheapestInsertion(without, node);
      if (at < 0) continue;
      const moved = [...without.slice(0, at), node, ...without.slice(at)];
      const travel = travelOf(this.problem, moved);
      if (travel < best - EPSILON) {
        tour = moved;
        best = travel;
      }
    }
    return tour;
  }

  /** Reverses stretches of the tour while that shortens its travel (first improvement). */
  private twoOpt(tour: number[]): number[] {
    if (tour.length < 2) return tour;
    let best = travelOf(this.problem, tour);
    let improved = true;
    while (improved) {
      improved = false;
      for (let i = 0; i < tour.length - 1 && !improved; i++) {
        for (let j = i + 1; j < tour.length && !improved; j++) {
          const candidate = [...tour.slice(0, i), ...tour.slice(i, j + 1).reverse(), ...tour.slice(j + 1)];
          const travel = travelOf(this.problem, candidate);
          if (travel < best - EPSILON) {
            tour = candidate;
            best = travel;
            improved = true;
          }
        }
      }
    }
    return tour;
  }

  /** Takes each stop out in turn and refills greedily without it: kept where the tour gains value. */
  private replace(tour: number[]): { tour: number[]; changed: boolean } {
    let changed = false;
    let score = this.score(tour);
    for (let index = 0; index < tour.length; index++) {
      const out = tour[index]!;
      const refilled = this.insertAll([...tour.slice(0, index), ...tour.slice(index + 1)], 0, false, out).tour;
      const next = this.score(refilled);
      if (next.value > score.value + EPSILON) {
        tour = refilled;
        score = next;
        changed = true;
        index = -1;
      }
    }
    return { tour, changed };
  }

  /** Replaces a visited stop by a more valuable unvisited one where the tour then still fits. */
  private swap(tour: number[]): { tour: number[]; changed: boolean } {
    let changed = false;
    this.visited.fill(0);
    for (const node of tour) this.visited[node] = 1;
    for (let index = 0; index < tour.length; index++) {
      const out = tour[index]!;
      const without = [...tour.slice(0, index), ...tour.slice(index + 1)];
      const base = without.length ? this.time(without) : 0;
      let choice: { node: number; at: number; value: number } | undefined;
      for (const node of this.candidates) {
        if (this.visited[node] || this.problem.value[node]! <= this.problem.value[out]! + EPSILON) continue;
        const { added, at } = this.cheapestInsertion(without, node);
        if (at < 0 || base + added > this.problem.budget + EPSILON) continue;
        if (!choice || this.problem.value[node]! > choice.value) choice = { node, at, value: this.problem.value[node]! };
      }
      if (!choice) continue;
      tour = [...without.slice(0, choice.at), choice.node, ...without.slice(choice.at)];
      this.visited[out] = 0;
      this.visited[choice.node] = 1;
      changed = true;
    }
    return { tour, changed };
  }
}
