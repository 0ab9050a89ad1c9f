/**
 * Exact bidirectional Dijkstra on the edge-based graph. It is the reference
 * the hierarchy is tested against, the benchmark's baseline, and the search
 * for requests the hierarchy cannot answer (excluded edges, penalties for
 * alternatives, avoidances the best path did not avoid by itself).
 */
import type { EdgeGraph } from '../edge-graph.js';
import { SearchSpace, type Seed } from './search-space.js';

export interface DynamicWeights {
  /** Edges that may not be used (points or polygons to avoid); 1 = excluded. */
  excluded?: Uint8Array;
  /** Extra weight for entering an edge (alternatives penalise the edges of earlier routes). */
  extra?: Float64Array;
}

export interface PathResult {
  /** Total weight from the source seed to the target seed. */
  weight: number;
  /** Search nodes (pack edges) in travel order, first = a source seed, last = a target seed. */
  edges: number[];
  /** Nodes settled by both directions (work done). */
  settled: number;
}

/** Reusable search state for one edge graph (one per worker and metric). */
export class BidirectionalDijkstra {
  private readonly forward: SearchSpace;
  private readonly backward: SearchSpace;

  constructor(private readonly graph: EdgeGraph) {
    const size = graph.firstArc.length - 1;
    this.forward = new SearchSpace(size);
    this.backward = new SearchSpace(size);
  }

  /**
   * Sources are seeded with the weight left to the end of their edge; targets with minus the
   * weight of the part of their edge not travelled, so a meeting on a target edge counts only up
   * to the target point.
   */
  route(sources: readonly Seed[], targets: readonly Seed[], dynamic: DynamicWeights = {}): PathResult | undefined {
    const { graph, forward, backward } = this;
    forward.reset();
    backward.reset();
    const { excluded, extra } = dynamic;
    for (const seed of sources) if (!excluded?.[seed.node]) forward.relax(seed.node, seed.distance, -1);
    // shift backward labels to be non-negative; real = stored - shift
    let shift = 0;
    for (const seed of targets) shift = Math.max(shift, -seed.distance);
    for (const seed of targets) if (!excluded?.[seed.node]) backward.relax(seed.node, seed.distance + shift, -1);

    let best = Infinity;
    let meet = -1;
    const consider = (node: number) => {
      const total = forward.distance[node]! + backward.distance[node]! - shift;
      // a negative total means target before source on one edge: not a path
      if (total >= 0 && total < best) {
        best = total;
        meet = node;
      }
    };
    const fHeap = forward.heap;
    const bHeap = backward.heap;
    while (fHeap.size || bHeap.size) {
      if (fHeap.minKey + bHeap.minKey - shift >= best) break;
      if (fHeap.size && (fHeap.minKey <= bHeap.minKey - shift || !bHeap.size)) {
        const node = fHeap.pop();
        forward.settledCount++;
        const base = forward.distance[node]!;
        if (backward.distance[node] !== Infinity) consider(node);
        for (let arc = graph.firstArc[node]!; arc < graph.firstArc[node + 1]!; arc++) {
          const next = graph.arcTarget[arc]!;
          if (excluded?.[next]) continue;
          if (forward.relax(next, base + graph.arcWeight[arc]! + (extra ? extra[next]! : 0), arc) && backward.distance[next] !== Infinity) consider(next);
        }
      } else {
        const node = bHeap.pop();
        backward.settledCount++;
        const base = backward.distance[node]!;
        if (forward.distance[node] !== Infinity) consider(node);
        const add = extra ? extra[node]! : 0;
        for (let index = graph.firstReverse[node]!; index < graph.firstReverse[node + 1]!; index++) {
          const arc = graph.reverseArc[index]!;
          const previous = graph.arcSource[arc]!;
          if (excluded?.[previous]) continue;
          if (backward.relax(previous, base + graph.arcWeight[arc]! + add, arc) && forward.distance[previous] !== Infinity) consider(previous);
        }
      }
    }
    if (meet < 0) return undefined;
    const edges: number[] = [];
    for (let node = meet; ; ) {
      edges.push(node);
      const arc = forward.parentArc[node]!;
      if (arc < 0) break;
      node = graph.arcSource[arc]!;
    }
    edges.reverse();
    for (let node = meet; ; ) {
      const arc = backward.parentArc[node]!;
      if (arc < 0) break;
      node = graph.arcTarget[arc]!;
      edges.push(node);
    }
    return { weight: best, edges, settled: forward.settledCount + backward.settledCount };
  }
}
