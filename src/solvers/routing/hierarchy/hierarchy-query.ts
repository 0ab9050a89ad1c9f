/**
 * Point-to-point search on a contraction hierarchy: both directions only climb
 * in rank, with stall-on-demand (a node reached more cheaply from above is not
 * expanded). Seeds follow the same convention as the exact search, so both
 * answer the same question and the tests compare them directly.
 */
import { SearchSpace, type Seed } from '../search/search-space.js';
import { unpackArc, type Hierarchy } from './hierarchy.js';

export interface HierarchyPath {
  weight: number;
  /** Search nodes (pack edges) in travel order. */
  edges: number[];
  settled: number;
}

export class HierarchyQuery {
  private readonly forward: SearchSpace;
  private readonly backward: SearchSpace;

  constructor(private readonly hierarchy: Hierarchy) {
    this.forward = new SearchSpace(hierarchy.nodeCount);
    this.backward = new SearchSpace(hierarchy.nodeCount);
  }

  route(sources: readonly Seed[], targets: readonly Seed[]): HierarchyPath | undefined {
    const h = this.hierarchy;
    const { forward, backward } = this;
    forward.reset();
    backward.reset();
    for (const seed of sources) forward.relax(seed.node, seed.distance, -1);
    let shift = 0;
    for (const seed of targets) shift = Math.max(shift, -seed.distance);
    for (const seed of targets) backward.relax(seed.node, seed.distance + shift, -1);

    let best = Infinity;
    let meet = -1;
    const fHeap = forward.heap;
    const bHeap = backward.heap;
    let turn = true;
    while (true) {
      const forwardOpen = fHeap.size > 0 && fHeap.minKey - shift < best;
      const backwardOpen = bHeap.size > 0 && bHeap.minKey - shift < best;
      if (!forwardOpen && !backwardOpen) break;
      const useForward = forwardOpen && (turn || !backwardOpen);
      turn = !turn;
      if (useForward) {
        const node = fHeap.pop();
        forward.settledCount++;
        const base = forward.distance[node]!;
        if (backward.distance[node] !== Infinity) {
          const total = base + backward.distance[node]! - shift;
          if (total >= 0 && total < best) {
            best = total;
            meet = node;
          }
        }
        if (stalled(h.downFirst, h.downArcs, h.arcFrom, forward.distance, h.arcWeight, node, base)) continue;
        for (let index = h.upFirst[node]!; index < h.upFirst[node + 1]!; index++) {
          const arc = h.upArcs[index]!;
          forward.relax(h.arcTo[arc]!, base + h.arcWeight[arc]!, arc);
        }
      } else {
        const node = bHeap.pop();
        backward.settledCount++;
        const base = backward.distance[node]!;
        if (forward.distance[node] !== Infinity) {
          const total = forward.distance[node]! + base - shift;
          if (total >= 0 && total < best) {
            best = total;
            meet = node;
          }
        }
        if (stalled(h.upFirst, h.upArcs, h.arcTo, backward.distance, h.arcWeight, node, base)) continue;
        for (let index = h.downFirst[node]!; index < h.downFirst[node + 1]!; index++) {
          const arc = h.downArcs[index]!;
          backward.relax(h.arcFrom[arc]!, base + h.arcWeight[arc]!, arc);
        }
      }
    }
    if (meet < 0) return undefined;
    return { weight: best, edges: this.unpack(meet), settled: forward.settledCount + backward.settledCount };
  }

  private unpack(meet: number): number[] {
    const h = this.hierarchy;
    const upChain: number[] = [];
    let node = meet;
    for (let arc = this.forward.parentArc[node]!; arc >= 0; arc = this.forward.parentArc[node]!) {
      upChain.push(arc);
      node = h.arcFrom[arc]!;
    }
    const edges = [node];
    for (let index = upChain.length - 1; index >= 0; index--) unpackArc(h, upChain[index]!, edges);
    node = meet;
    for (let arc = this.backward.parentArc[node]!; arc >= 0; arc = this.backward.parentArc[node]!) {
      unpackArc(h, arc, edges);
      node = h.arcTo[arc]!;
    }
    return edges;
  }
}

/**
 * Stall-on-demand: in the forward search a node is stalled when a higher node already settled or
 * queued reaches it more cheaply by one of its arcs from above (and symmetrically backwards).
 */
function stalled(
  first: Uint32Array,
  list: Uint32Array,
  otherEnd: Uint32Array,
  distance: Float64Array,
  weight: Float64Array,
  node: number,
  base: number,
): boolean {
  for (let index = first[node]!; index < first[node + 1]!; index++) {
    const arc = list[index]!;
    if (distance[otherEnd[arc]!]! + weight[arc]! < base) return true;
  }
  return false;
}
