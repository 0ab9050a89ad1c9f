/**
 * Per-segment traversals of a contributed trip (docs/traffic.md "Intake"): the
 * trip is map-matched with the HMM matcher, every point placed on the matched
 * path gets a position in metres along its sub-match, and each edge wholly
 * inside a sub-match gets entry and exit times by linear interpolation of
 * (position, time) between the placed points around it. Its speed is its
 * length over that time. Partial first and last edges and edges outside the
 * time span of the points are not measured.
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import { COORDINATE_SCALE, EdgeFlag } from '../../../datapack/pack-layout.js';
import type { RoutingEngine } from '../routing-engine.js';
import { placeTrace } from '../map-matching/map-matcher.js';
import type { MetricSpec } from '../costing/profiles.js';

export interface TripTraversalRequest {
  metric: MetricSpec;
  /** Fixes: epoch milliseconds `t`, strictly increasing. */
  fixes: { lat: number; lon: number; t: number }[];
}

export interface SegmentTraversal {
  /** Stable directed-segment id: `w<way OSM id>:<from node OSM id>-<to node OSM id>`. */
  segmentKey: string;
  lengthMeters: number;
  /** Epoch ms the vehicle entered and left the segment. */
  enteredAt: number;
  leftAt: number;
  speedKph: number;
  /** The pack's speed for the edge (the free-flow reference). */
  freeFlowKph: number;
  /** Midpoint of the segment. */
  lat: number;
  lon: number;
}

export interface TripTraversals {
  traversals: SegmentTraversal[];
  /** Share of fixes placed on a road (0..1). */
  matchedShare: number;
  confidence: number;
}

/** Edges shorter than this, or crossed in under this time, are too noisy to time. */
const MIN_LENGTH_METERS = 10;
const MIN_SECONDS = 1;

export function segmentKeyOf(pack: MapPack, edge: number): string {
  const s = pack.sections;
  const way = s['graph.edgeWay'][edge]!;
  return `w${s['ways.osmId'][way]}:${s['graph.nodeOsmId'][s['graph.edgeSource'][edge]!]}-${s['graph.nodeOsmId'][s['graph.edgeTarget'][edge]!]}`;
}

/** Segment key → directed pack edge, for every edge of the pack (built by the caller once and kept). */
export function segmentEdgeIndex(pack: MapPack): Map<string, number> {
  const index = new Map<string, number>();
  for (let edge = 0; edge < pack.edgeCount; edge++) index.set(segmentKeyOf(pack, edge), edge);
  return index;
}

export function tripTraversals(engine: RoutingEngine, request: TripTraversalRequest): TripTraversals {
  const points = request.fixes.map((fix) => ({ lat: fix.lat, lon: fix.lon, time: fix.t }));
  // the placement only: the shape and road names of a full match are not read here
  const outcome = placeTrace(engine, { metric: request.metric, points });
  if (!outcome.ok) return { traversals: [], matchedShare: 0, confidence: 0 };
  const { edges, points: placedPoints, confidence } = outcome.placement;
  const pack = engine.pack;
  const fullLength = pack.sections['graph.edgeLength'];
  const speed = pack.sections['graph.edgeSpeed'];
  // offset (m) of each matched edge's start along its sub-match, and the metres of its edge before the travelled part
  const offset = new Float64Array(edges.length);
  const skipped = new Float64Array(edges.length);
  let running = 0;
  for (let index = 0; index < edges.length; index++) {
    const edge = edges[index]!;
    const first = index === 0 || edges[index - 1]!.subMatch !== edge.subMatch;
    if (first) running = 0;
    offset[index] = running;
    const length = fullLength[edge.edge]!;
    const lastOfSub = index === edges.length - 1 || edges[index + 1]!.subMatch !== edge.subMatch;
    // the first edge is travelled from its begin fraction to its end (1, unless it is also the last)
    skipped[index] = first && !lastOfSub ? Math.max(0, length - edge.lengthMeters) : 0;
    running += edge.lengthMeters;
  }
  // placed points per sub-match: (position, time), positions kept non-decreasing
  const bySub: { at: number; t: number }[][] = [];
  let placedCount = 0;
  for (let index = 0; index < placedPoints.length; index++) {
    const point = placedPoints[index]!;
    if (point.type !== 'unmatched') placedCount++;
    if (point.type === 'unmatched' || point.edgeIndex === undefined) continue;
    const edge = edges[point.edgeIndex]!;
    const at = offset[point.edgeIndex]! + (point.distanceAlongEdge ?? 0) * fullLength[edge.edge]! - skipped[point.edgeIndex]!;
    const list = (bySub[edge.subMatch] ??= []);
    const previous = list[list.length - 1];
    list.push({ at: previous ? Math.max(previous.at, at) : at, t: request.fixes[index]!.t });
  }
  const traversals: SegmentTraversal[] = [];
  for (let index = 0; index < edges.length; index++) {
    const edge = edges[index]!;
    const first = index === 0 || edges[index - 1]!.subMatch !== edge.subMatch;
    const last = index === edges.length - 1 || edges[index + 1]!.subMatch !== edge.subMatch;
    if (first || last || edge.lengthMeters < MIN_LENGTH_METERS) continue;
    const placed = bySub[edge.subMatch];
    if (!placed) continue;
    const enteredAt = timeAt(placed, offset[index]!);
    const leftAt = timeAt(placed, offset[index]! + edge.lengthMeters);
    if (enteredAt === undefined || leftAt === undefined) continue;
    const seconds = (leftAt - enteredAt) / 1000;
    if (seconds < MIN_SECONDS) continue;
    const middle = middleShapePoint(pack, edge.edge);
    traversals.push({
      segmentKey: segmentKeyOf(pack, edge.edge),
      lengthMeters: edge.lengthMeters,
      enteredAt,
      leftAt,
      speedKph: (edge.lengthMeters / seconds) * 3.6,
      freeFlowKph: speed[edge.edge]!,
      lat: middle.lat,
      lon: middle.lon,
    });
  }
  return { traversals, matchedShare: points.length ? placedCount / points.length : 0, confidence };
}

/** Placed points on each side of a crossing that its time is fitted to (about ±5 s at one fix a second). */
const FIT_HALF_WINDOW = 5;

/**
 * Time the trip passed a position: a least-squares line of position over time, fitted to the placed points
 * around it, read at the position. GPS noise along the road (a few metres per fix) would make plain
 * interpolation between the two nearest points mis-time short segments by tens of percent; the fit averages
 * it out. Falls back to interpolation where the fit is degenerate (a stop). Undefined outside the points' span.
 */
function timeAt(placed: { at: number; t: number }[], at: number): number | undefined {
  if (!placed.length || at < placed[0]!.at || at > placed[placed.length - 1]!.at) return undefined;
  let low = 0;
  let high = placed.length - 1;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (placed[middle]!.at <= at) low = middle;
    else high = middle;
  }
  const from = Math.max(0, low - FIT_HALF_WINDOW + 1);
  const to = Math.min(placed.length - 1, high + FIT_HALF_WINDOW - 1);
  let n = 0;
  let meanT = 0;
  let meanAt = 0;
  for (let index = from; index <= to; index++) {
    n++;
    meanT += placed[index]!.t;
    meanAt += placed[index]!.at;
  }
  meanT /= n;
  meanAt /= n;
  let covariance = 0;
  let variance = 0;
  for (let index = from; index <= to; index++) {
    const dt = placed[index]!.t - meanT;
    covariance += dt * (placed[index]!.at - meanAt);
    variance += dt * dt;
  }
  const slope = variance > 0 ? covariance / variance : 0;
  const a = placed[low]!;
  const b = placed[high]!;
  if (slope > 1e-6) {
    const fitted = meanT + (at - meanAt) / slope;
    // a fit that leaves the bracketing points' times is not trusted (speed changed within the window)
    if (fitted >= a.t - 2_000 && fitted <= b.t + 2_000) return fitted;
  }
  if (b.at === a.at) return a.t;
  return a.t + ((at - a.at) / (b.at - a.at)) * (b.t - a.t);
}

/** The middle shape point of an edge in its travel direction (the one `edgeLine` puts at index ⌊n/2⌋), read from the pack. */
function middleShapePoint(pack: MapPack, edge: number): { lat: number; lon: number } {
  const s = pack.sections;
  const count = s['graph.edgeShapeCount'][edge]!;
  if (!count) return { lat: 0, lon: 0 };
  const middle = Math.floor(count / 2);
  const at = s['graph.edgeShapeStart'][edge]! + (s['graph.edgeFlags'][edge]! & EdgeFlag.reversed ? count - 1 - middle : middle);
  return { lat: s['graph.shapeLat'][at]! / COORDINATE_SCALE, lon: s['graph.shapeLon'][at]! / COORDINATE_SCALE };
}
