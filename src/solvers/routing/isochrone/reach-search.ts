/**
 * One-to-all Dijkstra on the edge-based graph from a snapped origin, in
 * seconds (edge seconds + turn seconds, so signals, turn costs and
 * restrictions count as they do for routes) or in metres, up to a limit.
 * The answer is, per reached edge, the cost at which it is entered; the cost
 * at any point of the edge follows linearly (the origin's own edges are also
 * reached from the origin point onwards).
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import type { EdgeGraph } from '../edge-graph.js';
import { IndexedHeap } from '../search/indexed-heap.js';
import type { EdgePosition } from '../edge-geometry.js';

export type ReachMetric = 'time' | 'distance';

export interface Reach {
  metric: ReachMetric;
  limit: number;
  /** Cost of the whole edge (s or m). */
  edgeCost: Float64Array;
  /** Cost at which the edge is entered from its source node (Infinity when not). */
  entry: Float64Array;
  /** For origin edges: where the origin lies on them (NaN elsewhere). */
  originFraction: Float64Array;
  /** Edges reached (entered, or an origin edge), in settling order. */
  edges: number[];
}

export function searchReach(pack: MapPack, graph: EdgeGraph, origins: readonly EdgePosition[], metric: ReachMetric, limit: number): Reach {
  const count = pack.edgeCount;
  const length = pack.sections['graph.edgeLength'];
  const edgeCost = metric === 'time' ? graph.costs.seconds : Float64Array.from(length);
  const entry = new Float64Array(count).fill(Infinity);
  const end = new Float64Array(count).fill(Infinity);
  const originFraction = new Float64Array(count).fill(NaN);
  const settled = new Uint8Array(count);
  const heap = new IndexedHeap(count);
  const edges: number[] = [];
  for (const origin of origins) {
    const value = (1 - origin.fraction) * edgeCost[origin.edge]!;
    if (!Number.isFinite(value)) continue;
    originFraction[origin.edge] = Number.isNaN(originFraction[origin.edge]!) ? origin.fraction : Math.min(originFraction[origin.edge]!, origin.fraction);
    if (value < end[origin.edge]!) {
      end[origin.edge] = value;
      heap.push(origin.edge, value);
    }
  }
  while (heap.size) {
    const edge = heap.pop();
    settled[edge] = 1;
    edges.push(edge);
    const base = end[edge]!;
    if (base > limit) continue;
    for (let arc = graph.firstArc[edge]!; arc < graph.firstArc[edge + 1]!; arc++) {
      const next = graph.arcTarget[arc]!;
      const entered = base + (metric === 'time' ? graph.arcTurnSeconds[arc]! : 0);
      if (entered > limit || entered >= entry[next]!) continue;
      entry[next] = entered;
      if (settled[next]) continue;
      const value = entered + edgeCost[next]!;
      if (value < end[next]!) {
        end[next] = value;
        heap.push(next, value);
      }
    }
  }
  return { metric, limit, edgeCost, entry, originFraction, edges };
}

/** The cost at a fraction of a reached edge (Infinity where that point is not reached). */
export function costAt(reach: Reach, edge: number, fraction: number): number {
  const cost = reach.edgeCost[edge]!;
  let value = reach.entry[edge]! + fraction * cost;
  const origin = reach.originFraction[edge]!;
  if (!Number.isNaN(origin) && fraction >= origin) value = Math.min(value, (fraction - origin) * cost);
  return value;
}

/** Fractions of an edge where its cost crosses `level` (at most one per way of reaching it). */
export function crossings(reach: Reach, edge: number, level: number): number[] {
  const cost = reach.edgeCost[edge]!;
  if (!(cost > 0)) return [];
  const found: number[] = [];
  const fromStart = (level - reach.entry[edge]!) / cost;
  if (fromStart > 0 && fromStart < 1) found.push(fromStart);
  const origin = reach.originFraction[edge]!;
  if (!Number.isNaN(origin)) {
    const fromOrigin = origin + level / cost;
    if (fromOrigin > origin && fromOrigin < 1) found.push(fromOrigin);
  }
  return found;
}
