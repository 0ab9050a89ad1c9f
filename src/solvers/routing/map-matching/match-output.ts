/**
 * Turns the Viterbi outcome into what a caller reads: every input point's
 * matched position (or why it has none), the travelled edges with their way
 * and names, the matched shape and a confidence.
 *
 * Confidence (0..1) = share of input points placed on the road
 *   × mean emission plausibility of the placed points
 *   × mean transition plausibility (a break counts as an implausible transition).
 * A plausibility is the model's likelihood relative to 5 % of its peak, capped
 * at 1: a point within 2.45 sigma of its road (the 95 % circle of the GPS
 * error) counts fully, one at 4 sigma counts 0.07; a transition whose route
 * differs from the straight line by at most 3 beta counts fully.
 */
import polyline from '@mapbox/polyline';
import type { MapPack } from '../../../datapack/map-pack.js';
import { ROAD_CLASSES } from '../../../datapack/pack-layout.js';
import { edgeLine, projectOnLine, sliceLine, type EdgeLine, type LineProjection } from '../edge-geometry.js';
import type { HmmOutcome, MatchOptions, TracePoint } from './hmm-matcher.js';

export interface MatchedPoint {
  /** `matched`: a state of the model; `interpolated`: placed on the path between states; `unmatched`: no road within the radius. */
  type: 'matched' | 'interpolated' | 'unmatched';
  /** The matched position (the input position when unmatched). */
  lat: number;
  lon: number;
  /** Index into `edges` of the edge the point lies on. */
  edgeIndex?: number;
  /** Position along that edge in travel direction (0..1). */
  distanceAlongEdge?: number;
  distanceFromTraceMeters?: number;
  /** The first point after a break (a new sub-match starts here). */
  beginRouteDiscontinuity?: boolean;
  /** The last point before a break. */
  endRouteDiscontinuity?: boolean;
}

export interface MatchedEdge {
  /** Directed pack edge id. */
  edge: number;
  /** OSM way id of the road. */
  wayId: number;
  /** Distinct names of the road (name, name:ar, name:en). */
  names: string[];
  roadClass: string;
  speedKph: number;
  /** Metres travelled on this edge (partial for the first and last of a sub-match). */
  lengthMeters: number;
  /** Indexes into the matched shape of this edge's first and last point. */
  beginShapeIndex: number;
  endShapeIndex: number;
  /** Which sub-match (0-based, separated by breaks) the edge belongs to. */
  subMatch: number;
}

export interface MapMatchResult {
  points: MatchedPoint[];
  edges: MatchedEdge[];
  /** The matched path (sub-matches one after the other) as an encoded polyline with 6 decimals (polyline6). */
  encodedShape: string;
  lengthMeters: number;
  subMatches: number;
  confidence: number;
  stats: { states: number; candidates: number; settled: number };
}

/** One edge as travelled within a sub-match, in order over all sub-matches. */
export interface PlacedEdge {
  /** Directed pack edge id. */
  edge: number;
  /** Travelled part of the edge (fractions 0..1 in travel direction). */
  begin: number;
  end: number;
  /** Metres travelled on this edge. */
  lengthMeters: number;
  subMatch: number;
}

/** Where the match put each point and the edges it travelled, without shape or road names (what the traffic intake reads). */
export interface MatchPlacement {
  points: MatchedPoint[];
  edges: PlacedEdge[];
  confidence: number;
}

const PLAUSIBLE_SHARE = 0.05;

export function buildMatchResult(pack: MapPack, points: readonly TracePoint[], outcome: HmmOutcome, options: MatchOptions): MapMatchResult {
  const lines = new Map<number, EdgeLine>();
  const placement = placeMatch(pack, points, outcome, options, lines);
  const shape: [number, number][] = [];
  const edges: MatchedEdge[] = [];
  placement.edges.forEach((placed, index) => {
    let line = lines.get(placed.edge);
    if (!line) lines.set(placed.edge, (line = edgeLine(pack, placed.edge)));
    const slice = sliceLine(line, placed.begin, placed.end);
    // edges of one sub-match share their joining point; a sub-match's first edge starts a new piece
    const joined = index > 0 && placement.edges[index - 1]!.subMatch === placed.subMatch;
    const beginShapeIndex = joined ? shape.length - 1 : shape.length;
    for (let at = joined ? 1 : 0; at < slice.length; at++) shape.push(slice[at]!);
    edges.push(describeEdge(pack, placed, beginShapeIndex, shape.length - 1));
  });
  const lengthMeters = edges.reduce((sum, edge) => sum + edge.lengthMeters, 0);
  return {
    points: placement.points,
    edges,
    encodedShape: polyline.encode(shape, 6),
    lengthMeters,
    subMatches: outcome.subMatches.length,
    confidence: placement.confidence,
    stats: { states: outcome.roles.filter((role) => role === 'state').length, candidates: outcome.candidateCount, settled: outcome.settled },
  };
}

/**
 * The travelled edges of every sub-match and every input point's place on them: states on their
 * chosen candidate, interpolated points at the nearest position on the path from the previous
 * placed point to the next state. `lines` caches edge geometry for the caller.
 */
export function placeMatch(pack: MapPack, points: readonly TracePoint[], outcome: HmmOutcome, options: MatchOptions, lines = new Map<number, EdgeLine>()): MatchPlacement {
  const lineOf = (edge: number) => {
    let line = lines.get(edge);
    if (!line) lines.set(edge, (line = edgeLine(pack, edge)));
    return line;
  };
  const fullLength = pack.sections['graph.edgeLength'];
  const out: MatchedPoint[] = points.map((point) => ({ type: 'unmatched', lat: point.lat, lon: point.lon }));
  const edges: PlacedEdge[] = [];
  const occurrences: PlacedEdge[][] = [];
  const layerOccurrence: number[][] = [];
  const edgeBase: number[] = [];
  // per point: its sub-match and layer when it is a state, -1 otherwise
  const stateSub = new Int32Array(points.length).fill(-1);
  const stateLayer = new Int32Array(points.length);

  outcome.subMatches.forEach((sub, subIndex) => {
    const chosen = sub.chosen;
    const list: PlacedEdge[] = [{ edge: chosen[0]!.edge, begin: chosen[0]!.fraction, end: 1, lengthMeters: 0, subMatch: subIndex }];
    const atLayer = [0];
    for (let layer = 1; layer < chosen.length; layer++) {
      const path = sub.paths[layer - 1]!;
      for (let at = 1; at < path.length; at++) list.push({ edge: path[at]!, begin: 0, end: 1, lengthMeters: 0, subMatch: subIndex });
      atLayer.push(list.length - 1);
    }
    const last = list[list.length - 1]!;
    last.end = Math.max(last.begin, chosen[chosen.length - 1]!.fraction);
    for (const placed of list) placed.lengthMeters = fullLength[placed.edge]! * Math.max(0, placed.end - placed.begin);
    occurrences.push(list);
    layerOccurrence.push(atLayer);
    edgeBase.push(edges.length);
    for (const placed of list) edges.push(placed);
    chosen.forEach((candidate, layer) => {
      const point = sub.points[layer]!;
      stateSub[point] = subIndex;
      stateLayer[point] = layer;
      const matched: MatchedPoint = {
        type: 'matched',
        lat: candidate.lat,
        lon: candidate.lon,
        edgeIndex: edgeBase[subIndex]! + atLayer[layer]!,
        distanceAlongEdge: candidate.fraction,
        distanceFromTraceMeters: candidate.distanceMeters,
      };
      if (subIndex > 0 && layer === 0) matched.beginRouteDiscontinuity = true;
      if (subIndex < outcome.subMatches.length - 1 && layer === chosen.length - 1) matched.endRouteDiscontinuity = true;
      out[point] = matched;
    });
  });

  // interpolated points: the nearest position on the path from the previous placed point to the next state
  let sub = -1;
  let layer = 0;
  let placedOccurrence = 0;
  let placedFraction = 0;
  for (let index = 0; index < points.length; index++) {
    if (stateSub[index]! >= 0) {
      sub = stateSub[index]!;
      layer = stateLayer[index]!;
      placedOccurrence = layerOccurrence[sub]![layer]!;
      placedFraction = outcome.subMatches[sub]!.chosen[layer]!.fraction;
      continue;
    }
    if (outcome.roles[index] !== 'interpolated' || sub < 0) continue;
    const list = occurrences[sub]!;
    const atLayer = layerOccurrence[sub]!;
    const first = placedOccurrence;
    const hasNext = layer + 1 < atLayer.length;
    const lastIndex = hasNext ? atLayer[layer + 1]! : atLayer[layer]!;
    const chosen = outcome.subMatches[sub]!.chosen;
    let best: { occurrence: number; projection: LineProjection } | undefined;
    for (let occurrence = first; occurrence <= lastIndex; occurrence++) {
      const from = occurrence === first ? placedFraction : list[occurrence]!.begin;
      const to = hasNext && occurrence === lastIndex ? chosen[layer + 1]!.fraction : list[occurrence]!.end;
      const projection = projectOnLine(lineOf(list[occurrence]!.edge), points[index]!.lat, points[index]!.lon, Math.min(from, to), Math.max(from, to));
      if (!best || projection.distanceMeters < best.projection.distanceMeters) best = { occurrence, projection };
    }
    if (!best) continue;
    placedOccurrence = best.occurrence;
    placedFraction = best.projection.fraction;
    out[index] = {
      type: 'interpolated',
      lat: best.projection.lat,
      lon: best.projection.lon,
      edgeIndex: edgeBase[sub]! + best.occurrence,
      distanceAlongEdge: best.projection.fraction,
      distanceFromTraceMeters: best.projection.distanceMeters,
    };
  }
  return { points: out, edges, confidence: confidence(out, outcome, options) };
}

function describeEdge(pack: MapPack, placed: PlacedEdge, beginShapeIndex: number, endShapeIndex: number): MatchedEdge {
  const s = pack.sections;
  const way = s['graph.edgeWay'][placed.edge]!;
  const names = [s['ways.name'][way]!, s['ways.nameAr'][way]!, s['ways.nameEn'][way]!].filter((id) => id !== 0).map((id) => pack.strings.get(id));
  return {
    edge: placed.edge,
    wayId: s['ways.osmId'][way]!,
    names: [...new Set(names)],
    roadClass: ROAD_CLASSES[s['ways.class'][way]!] ?? 'road',
    speedKph: s['graph.edgeSpeed'][placed.edge]!,
    lengthMeters: placed.lengthMeters,
    beginShapeIndex,
    endShapeIndex,
    subMatch: placed.subMatch,
  };
}

function confidence(points: MatchedPoint[], outcome: HmmOutcome, options: MatchOptions): number {
  if (!points.length) return 0;
  const placed = points.filter((point) => point.type !== 'unmatched');
  if (!placed.length) return 0;
  const plausible = (likelihood: number) => Math.min(1, likelihood / PLAUSIBLE_SHARE);
  const sigma = options.gpsAccuracyMeters;
  const emission = placed.reduce((sum, point) => sum + plausible(Math.exp(-0.5 * ((point.distanceFromTraceMeters ?? 0) / sigma) ** 2)), 0) / placed.length;
  let transitions = 0;
  let transitionSum = 0;
  for (const sub of outcome.subMatches) {
    sub.routeMeters.forEach((meters, index) => {
      transitions++;
      transitionSum += plausible(Math.exp(-Math.abs(meters - sub.greatCircleMeters[index]!) / options.betaMeters));
    });
  }
  transitions += outcome.subMatches.length - 1;
  const transition = transitions ? transitionSum / transitions : 1;
  return (placed.length / points.length) * emission * transition;
}
