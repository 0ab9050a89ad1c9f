/**
 * Hidden-Markov map matching after Newson & Krumm (2009), "Hidden Markov Map
 * Matching Through Noise and Sparseness":
 *
 * - states: road positions within the search radius of each GPS point
 *   (directed edges, so a candidate also says which way it is travelled);
 * - emission: Gaussian on the distance from the point, sigma = GPS accuracy;
 * - transition: exponential on |route distance − great-circle distance|
 *   between consecutive points (beta in metres), route distances from a
 *   bounded one-to-many Dijkstra on the metric's edge-based graph, so oneways
 *   and turn restrictions hold;
 * - Viterbi in log space, with breaks: when no candidate of a point can be
 *   reached from any of the previous point's (or the points are farther apart
 *   than the breakage distance), the chain so far is closed and a new
 *   sub-match starts instead of failing.
 *
 * Points within the interpolation distance of the last point used as a state
 * are not states themselves (N&K drop them as noise); the output places them
 * on the matched path.
 */
import { haversineMeters } from '../../graph/geodesy.js';
import { NO_INDEX } from '../../../datapack/pack-layout.js';
import type { RoutingEngine } from '../routing-engine.js';
import type { MetricState } from '../metric-state.js';
import type { EdgePosition } from './route-distances.js';
import type { MatcherScratch } from './matcher-scratch.js';

export interface TracePoint {
  lat: number;
  lon: number;
  /** Seconds (epoch or relative); carried through, not used by the model. */
  time?: number;
}

/** Tuning of the model; Valhalla's `trace_options` names in brackets. */
export interface MatchOptions {
  /** Radius around each point in which roads are candidates (m) [search_radius]. */
  searchRadiusMeters: number;
  /** Standard deviation of the GPS error (m) [gps_accuracy]. */
  gpsAccuracyMeters: number;
  /** Consecutive points farther apart than this start a new sub-match (m) [breakage_distance]. */
  breakageDistanceMeters: number;
  /** Points closer than this to the previous state point are interpolated, not states (m) [interpolation_distance]. */
  interpolationDistanceMeters: number;
  /** Scale of the transition's exponential (m) [beta]. */
  betaMeters: number;
}

export const DEFAULT_MATCH_OPTIONS: MatchOptions = {
  searchRadiusMeters: 50,
  gpsAccuracyMeters: 5,
  breakageDistanceMeters: 2_000,
  interpolationDistanceMeters: 10,
  betaMeters: 3,
};
export const MAX_SEARCH_RADIUS_METERS = 200;

/** Road segments considered per point (each gives one or two directed candidates). */
const CANDIDATE_SEGMENTS = 12;
/** Route distances are searched up to this factor of the great-circle distance plus the slack. */
const ROUTE_FACTOR = 2;
const ROUTE_SLACK_METERS = 100;
/** Sources scoring this far (log) below the best of their point cannot win and are not searched. */
const PRUNE_LOG = 40;
const U_TURN_METERS = 60;

export interface Candidate extends EdgePosition {
  lat: number;
  lon: number;
  distanceMeters: number;
  logEmission: number;
}

/** A chain of state points matched without a break, with the chosen candidate of each. */
export interface SubMatch {
  points: number[];
  chosen: Candidate[];
  /** Directed edges between consecutive chosen candidates: paths[k] leads from chosen[k] to chosen[k+1]. */
  paths: number[][];
  /** Route and great-circle metres of each transition. */
  routeMeters: number[];
  greatCircleMeters: number[];
}

export interface HmmOutcome {
  subMatches: SubMatch[];
  /** Per input point: 'state' (a Viterbi layer), 'interpolated', or 'unmatched' (no road within the radius). */
  roles: ('state' | 'interpolated' | 'unmatched')[];
  /** Candidates considered over all points, and nodes settled by all searches. */
  candidateCount: number;
  settled: number;
}

/**
 * The layers (state points) and their candidates live in the engine's MatcherScratch as a struct of
 * arrays; a chain is the range of layers since the last break. Only the chosen candidates become
 * objects (the answer).
 */
export function runHmm(engine: RoutingEngine, metric: MetricState, points: readonly TracePoint[], options: MatchOptions): HmmOutcome {
  const scratch = engine.matcherScratch(metric.graph);
  scratch.start(metric.graph, { uTurnMeters: U_TURN_METERS, backwardToleranceMeters: 2 * options.searchRadiusMeters });
  const search = scratch.search;
  const settledBefore = search.settledTotal;
  const grid = engine.segmentGrid();
  const twin = engine.pack.sections['graph.edgeTwin'];
  const weight = metric.graph.costs.weight;
  const sigma = options.gpsAccuracyMeters;
  const roles: HmmOutcome['roles'] = [];
  const subMatches: SubMatch[] = [];
  let chainStart = 0;
  let candidateCount = 0;
  let lastState = -1;
  for (let index = 0; index < points.length; index++) {
    const point = points[index]!;
    if (lastState >= 0 && scratch.layers > chainStart && haversineMeters(points[lastState]!.lat, points[lastState]!.lon, point.lat, point.lon) < options.interpolationDistanceMeters) {
      roles.push('interpolated');
      continue;
    }
    // the road positions near the point, both directions of two-way roads, with their log emission
    const hits = scratch.hits;
    grid.nearestInto(hits, point.lat, point.lon, options.searchRadiusMeters, CANDIDATE_SEGMENTS, scratch.usableEither);
    scratch.reserveCandidates(2 * hits.count);
    const first = scratch.candidates;
    for (let rank = 0; rank < hits.count; rank++) {
      const slot = hits.order[rank]!;
      const edge = hits.edge[slot]!;
      const fraction = hits.fraction[slot]!;
      const distanceMeters = hits.distanceMeters[slot]!;
      const logEmission = -0.5 * (distanceMeters / sigma) ** 2;
      if (weight[edge] !== Infinity) scratch.pushCandidate(edge, fraction, hits.lat[slot]!, hits.lon[slot]!, distanceMeters, logEmission);
      const reverse = twin[edge]!;
      if (reverse !== NO_INDEX && weight[reverse] !== Infinity) scratch.pushCandidate(reverse, 1 - fraction, hits.lat[slot]!, hits.lon[slot]!, distanceMeters, logEmission);
    }
    const count = scratch.candidates - first;
    candidateCount += count;
    if (!count) {
      roles.push('unmatched');
      continue;
    }
    roles.push('state');
    let greatCircle = 0;
    if (scratch.layers > chainStart) {
      const previous = scratch.layers - 1;
      const from = points[scratch.layerPoint[previous]!]!;
      greatCircle = haversineMeters(from.lat, from.lon, point.lat, point.lon);
      if (greatCircle > options.breakageDistanceMeters || !transition(scratch, previous, first, count, greatCircle, options)) {
        subMatches.push(backtrack(scratch, chainStart, scratch.layers));
        chainStart = scratch.layers;
        for (let at = first; at < first + count; at++) scratch.score[at] = scratch.logEmission[at]!;
        greatCircle = 0;
      }
    }
    scratch.pushLayer(index, first, count, greatCircle);
    lastState = index;
  }
  if (scratch.layers > chainStart) subMatches.push(backtrack(scratch, chainStart, scratch.layers));
  return { subMatches, roles, candidateCount, settled: search.settledTotal - settledBefore };
}

/** Fills the scores of the candidates [first, first + count) from layer `previous`; false when none is reachable. */
function transition(scratch: MatcherScratch, previous: number, first: number, count: number, greatCircle: number, options: MatchOptions): boolean {
  const { search, score, back, best, edge, fraction } = scratch;
  const bound = greatCircle * ROUTE_FACTOR + ROUTE_SLACK_METERS;
  const fromFirst = scratch.layerFirst[previous]!;
  const fromEnd = fromFirst + scratch.layerCount[previous]!;
  best.fill(-Infinity, 0, count);
  let top = -Infinity;
  for (let from = fromFirst; from < fromEnd; from++) top = Math.max(top, score[from]!);
  for (let from = fromFirst; from < fromEnd; from++) {
    const base = score[from]!;
    if (base === -Infinity || base < top - PRUNE_LOG) continue;
    search.run(edge[from]!, fraction[from]!, edge, fraction, first, first + count, bound);
    for (let to = 0; to < count; to++) {
      const meters = search.distanceTo(edge[first + to]!, fraction[first + to]!);
      if (meters > bound) continue;
      const value = base - Math.abs(meters - greatCircle) / options.betaMeters;
      if (value > best[to]!) {
        best[to] = value;
        back[first + to] = from - fromFirst;
      }
    }
  }
  let any = false;
  for (let to = 0; to < count; to++) {
    score[first + to] = best[to]! + scratch.logEmission[first + to]!;
    if (best[to]! > -Infinity) any = true;
  }
  return any;
}

/** The most likely candidate sequence of the chain of layers [start, end), with the paths between its candidates. */
function backtrack(scratch: MatcherScratch, start: number, end: number): SubMatch {
  const { search, score, edge, fraction, layerFirst, layerCount, chosen } = scratch;
  const lastFirst = layerFirst[end - 1]!;
  let at = 0;
  for (let index = 1; index < layerCount[end - 1]!; index++) if (score[lastFirst + index]! > score[lastFirst + at]!) at = index;
  for (let layer = end - 1; layer >= start; layer--) {
    chosen[layer] = layerFirst[layer]! + at;
    at = scratch.back[chosen[layer]!]!;
  }
  const points: number[] = [];
  const candidates: Candidate[] = [];
  const paths: number[][] = [];
  const routeMeters: number[] = [];
  const greatCircleMeters: number[] = [];
  for (let layer = start; layer < end; layer++) {
    const to = chosen[layer]!;
    points.push(scratch.layerPoint[layer]!);
    candidates.push({ edge: edge[to]!, fraction: fraction[to]!, lat: scratch.lat[to]!, lon: scratch.lon[to]!, distanceMeters: scratch.distanceMeters[to]!, logEmission: scratch.logEmission[to]! });
    if (layer === start) continue;
    const from = chosen[layer - 1]!;
    const greatCircle = scratch.layerGreatCircle[layer]!;
    search.run(edge[from]!, fraction[from]!, edge, fraction, to, to + 1, greatCircle * ROUTE_FACTOR + ROUTE_SLACK_METERS);
    paths.push(search.pathTo(edge[to]!, fraction[to]!));
    routeMeters.push(search.distanceTo(edge[to]!, fraction[to]!));
    greatCircleMeters.push(greatCircle);
  }
  return { points, chosen: candidates, paths, routeMeters, greatCircleMeters };
}
