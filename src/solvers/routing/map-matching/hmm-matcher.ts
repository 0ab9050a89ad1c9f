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
import { MeterSearch, type EdgePosition } from './route-distances.js';

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

/** One Viterbi layer: a state point and its candidates' scores. */
interface Layer {
  point: number;
  candidates: Candidate[];
  score: Float64Array;
  back: Int32Array;
  /** Great-circle metres from the previous layer's point (0 for the first). */
  greatCircle: number;
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

export function runHmm(engine: RoutingEngine, metric: MetricState, points: readonly TracePoint[], options: MatchOptions): HmmOutcome {
  const search = new MeterSearch(engine.pack, metric.graph, {
    uTurnMeters: U_TURN_METERS,
    backwardToleranceMeters: 2 * options.searchRadiusMeters,
  });
  const roles: HmmOutcome['roles'] = [];
  const subMatches: SubMatch[] = [];
  let chain: Layer[] = [];
  let candidateCount = 0;
  let lastState = -1;
  const close = () => {
    if (chain.length) subMatches.push(backtrack(chain, search));
    chain = [];
  };
  for (let index = 0; index < points.length; index++) {
    const point = points[index]!;
    if (lastState >= 0 && chain.length && haversineMeters(points[lastState]!.lat, points[lastState]!.lon, point.lat, point.lon) < options.interpolationDistanceMeters) {
      roles.push('interpolated');
      continue;
    }
    const candidates = findCandidates(engine, metric, point, options);
    candidateCount += candidates.length;
    if (!candidates.length) {
      roles.push('unmatched');
      continue;
    }
    roles.push('state');
    const layer = startLayer(index, candidates);
    const previous = chain[chain.length - 1];
    if (previous) {
      const from = points[previous.point]!;
      layer.greatCircle = haversineMeters(from.lat, from.lon, point.lat, point.lon);
      if (layer.greatCircle > options.breakageDistanceMeters || !transition(previous, layer, search, options)) {
        close();
        for (let at = 0; at < candidates.length; at++) layer.score[at] = candidates[at]!.logEmission;
        layer.greatCircle = 0;
      }
    }
    chain.push(layer);
    lastState = index;
  }
  close();
  return { subMatches, roles, candidateCount, settled: search.settledTotal };
}

function startLayer(point: number, candidates: Candidate[]): Layer {
  const score = new Float64Array(candidates.length);
  for (let index = 0; index < candidates.length; index++) score[index] = candidates[index]!.logEmission;
  return { point, candidates, score, back: new Int32Array(candidates.length).fill(-1), greatCircle: 0 };
}

/** The road positions near a point, both directions of two-way roads, with their log emission. */
function findCandidates(engine: RoutingEngine, metric: MetricState, point: TracePoint, options: MatchOptions): Candidate[] {
  const twin = engine.pack.sections['graph.edgeTwin'];
  const usableEither = (edge: number) => metric.usable(edge) || (twin[edge] !== NO_INDEX && metric.usable(twin[edge]!));
  const hits = engine.segmentGrid().nearest(point.lat, point.lon, options.searchRadiusMeters, CANDIDATE_SEGMENTS, usableEither);
  const sigma = options.gpsAccuracyMeters;
  const candidates: Candidate[] = [];
  for (const hit of hits) {
    const logEmission = -0.5 * (hit.distanceMeters / sigma) ** 2;
    if (metric.usable(hit.edge)) candidates.push({ edge: hit.edge, fraction: hit.fraction, lat: hit.lat, lon: hit.lon, distanceMeters: hit.distanceMeters, logEmission });
    const reverse = twin[hit.edge]!;
    if (reverse !== NO_INDEX && metric.usable(reverse)) {
      candidates.push({ edge: reverse, fraction: 1 - hit.fraction, lat: hit.lat, lon: hit.lon, distanceMeters: hit.distanceMeters, logEmission });
    }
  }
  return candidates;
}

/** Fills `next`'s scores from `previous`; false when no candidate of `next` is reachable. */
function transition(previous: Layer, next: Layer, search: MeterSearch, options: MatchOptions): boolean {
  const bound = next.greatCircle * ROUTE_FACTOR + ROUTE_SLACK_METERS;
  const best = new Float64Array(next.candidates.length).fill(-Infinity);
  let top = -Infinity;
  for (const value of previous.score) top = Math.max(top, value);
  for (let from = 0; from < previous.candidates.length; from++) {
    const base = previous.score[from]!;
    if (base === -Infinity || base < top - PRUNE_LOG) continue;
    search.run(previous.candidates[from]!, next.candidates, bound);
    for (let to = 0; to < next.candidates.length; to++) {
      const meters = search.distanceTo(next.candidates[to]!);
      if (meters > bound) continue;
      const value = base - Math.abs(meters - next.greatCircle) / options.betaMeters;
      if (value > best[to]!) {
        best[to] = value;
        next.back[to] = from;
      }
    }
  }
  let any = false;
  for (let to = 0; to < next.candidates.length; to++) {
    next.score[to] = best[to]! + next.candidates[to]!.logEmission;
    if (best[to]! > -Infinity) any = true;
  }
  return any;
}

/** The most likely candidate sequence of a chain, with the paths between its candidates. */
function backtrack(chain: Layer[], search: MeterSearch): SubMatch {
  const last = chain[chain.length - 1]!;
  let at = 0;
  for (let index = 1; index < last.score.length; index++) if (last.score[index]! > last.score[at]!) at = index;
  const chosen: Candidate[] = new Array(chain.length);
  for (let layer = chain.length - 1; layer >= 0; layer--) {
    chosen[layer] = chain[layer]!.candidates[at]!;
    at = chain[layer]!.back[at]!;
  }
  const paths: number[][] = [];
  const routeMeters: number[] = [];
  const greatCircleMeters: number[] = [];
  for (let layer = 1; layer < chain.length; layer++) {
    const from = chosen[layer - 1]!;
    const to = chosen[layer]!;
    search.run(from, [to], chain[layer]!.greatCircle * ROUTE_FACTOR + ROUTE_SLACK_METERS);
    paths.push(search.pathTo(to));
    routeMeters.push(search.distanceTo(to));
    greatCircleMeters.push(chain[layer]!.greatCircle);
  }
  return { points: chain.map((layer) => layer.point), chosen, paths, routeMeters, greatCircleMeters };
}
