/**
 * Point-to-point search on a contraction hierarchy: both directions only climb
 * in rank, with stall-on-demand (a node reached more cheaply from above is not
 * expanded). Seeds follow the same convention as the exact search, so both
 * answer the same question and the tests compare them directly.
 *
 * Labels live in arrays indexed by rank (see hierarchy-layout.ts) and are reset
 * in time proportional to what the last query touched; `search` answers the
 * weight alone and `unpack` expands the shortcuts of the path it found, so the
 * two costs can be measured apart.
 */
import { SearchSpace, type Seed } from '../search/search-space.js';
import { unpackArc, type Hierarchy } from './hierarchy.js';

export interface HierarchyPath {
  weight: number;
  /** Search nodes (pack edges) in travel order. */
  edges: number[];
  settled: number;
}

/** What `search` found: the least weight and the rank where the directions met (-1 when unreachable). */
export interface HierarchyMeeting {
  weight: number;
  meet: number;
  /** The path goes round the meeting node's loop (target behind the source on one edge). */
  viaLoop: boolean;
  settled: number;
}

/**
 * One direction: its labels by rank, the arcs it climbs and the arcs it stalls on. It holds its
 * search space rather than extending it, so the exact searches' hot code sees one object shape.
 */
class Direction {
  readonly space: SearchSpace;

  constructor(
    n: number,
    private readonly first: Uint32Array,
    private readonly head: Uint32Array,
    private readonly weight: Float64Array,
    private readonly arc: Uint32Array,
    private readonly stallFirst: Uint32Array,
    private readonly stallHead: Uint32Array,
    private readonly stallWeight: Float64Array,
  ) {
    this.space = new SearchSpace(n);
  }

  /**
   * Takes the closest queued node off the heap and, unless a higher node stalls it, relaxes its
   * upward arcs. A label at or above `bound` (the best meeting so far, in this direction's terms)
   * can never be settled before the search stops, so it is kept (it may still stall or meet) but
   * not queued.
   */
  settleNext(bound: number): number {
    const space = this.space;
    const node = space.heap.pop();
    space.settledCount++;
    const distance = space.distance;
    const base = distance[node]!;
    const { stallFirst, stallHead, stallWeight } = this;
    // stall-on-demand: a higher node already labelled reaches this one more cheaply, so its label is not final
    for (let index = stallFirst[node]!, end = stallFirst[node + 1]!; index < end; index++) {
      if (distance[stallHead[index]!]! + stallWeight[index]! < base) return node;
    }
    const { first, head, weight, arc } = this;
    for (let index = first[node]!, end = first[node + 1]!; index < end; index++) {
      const next = head[index]!;
      const candidate = base + weight[index]!;
      if (space.label(next, candidate, arc[index]!) && candidate < bound) space.heap.push(next, candidate);
    }
    return node;
  }
}

export class HierarchyQuery {
  private readonly forward: Direction;
  private readonly backward: Direction;
  private stack: Int32Array = new Int32Array(64);

  constructor(private readonly hierarchy: Hierarchy) {
    const h = hierarchy;
    this.forward = new Direction(h.nodeCount, h.upFirst, h.upHead, h.upWeight, h.upArc, h.downFirst, h.downHead, h.downWeight);
    this.backward = new Direction(h.nodeCount, h.downFirst, h.downHead, h.downWeight, h.downArc, h.upFirst, h.upHead, h.upWeight);
  }

  route(sources: readonly Seed[], targets: readonly Seed[]): HierarchyPath | undefined {
    const found = this.search(sources, targets);
    if (found.meet < 0) return undefined;
    return { weight: found.weight, edges: this.unpack(found.meet, found.viaLoop), settled: found.settled };
  }

  /** The least weight from a source seed to a target seed, without unpacking the path. */
  search(sources: readonly Seed[], targets: readonly Seed[]): HierarchyMeeting {
    const [forward, backward] = [this.forward.space, this.backward.space];
    const rank = this.hierarchy.rank;
    forward.reset();
    backward.reset();
    for (const seed of sources) forward.relax(rank[seed.node]!, seed.distance, -1);
    // shift backward labels to be non-negative; real = stored - shift
    let shift = 0;
    for (const seed of targets) shift = Math.max(shift, -seed.distance);
    for (const seed of targets) backward.relax(rank[seed.node]!, seed.distance + shift, -1);

    let best = Infinity;
    let meet = -1;
    let viaLoop = false;
    const loopWeight = this.hierarchy.loopWeight;
    const forwardDistance = forward.distance;
    const backwardDistance = backward.distance;
    let turn = true;
    while (true) {
      const forwardOpen = forward.heap.size > 0 && forward.heap.minKey - shift < best;
      const backwardOpen = backward.heap.size > 0 && backward.heap.minKey - shift < best;
      if (!forwardOpen && !backwardOpen) break;
      const useForward = forwardOpen && (turn || !backwardOpen);
      turn = !turn;
      const node = useForward ? this.forward.settleNext(best + shift) : this.backward.settleNext(best + shift);
      const other = useForward ? backwardDistance[node]! : forwardDistance[node]!;
      if (other === Infinity) continue;
      const total = forwardDistance[node]! + backwardDistance[node]! - shift;
      // a negative total means target before source on one edge: the way there leaves the edge and comes back
      const loop = total < 0;
      const weight = loop ? total + loopWeight[node]! : total;
      if (weight < best) {
        best = weight;
        meet = node;
        viaLoop = loop;
      }
    }
    return { weight: best, meet, viaLoop, settled: forward.settledCount + backward.settledCount };
  }

  /** The search nodes (pack edges) of the path through `meet` (a rank) that the last search found. */
  unpack(meet: number, viaLoop = false): number[] {
    const h = this.hierarchy;
    const { rank, arcFrom, arcTo } = h;
    const forwardParent = this.forward.space.parentArc;
    const backwardParent = this.backward.space.parentArc;
    const upChain: number[] = [];
    let node = meet;
    for (let arc = forwardParent[node]!; arc >= 0; arc = forwardParent[node]!) {
      upChain.push(arc);
      node = rank[arcFrom[arc]!]!;
    }
    const edges = [upChain.length ? arcFrom[upChain[upChain.length - 1]!]! : h.rankNode[meet]!];
    for (let index = upChain.length - 1; index >= 0; index--) this.stack = unpackArc(h, upChain[index]!, edges, this.stack);
    if (viaLoop) this.stack = unpackArc(h, h.loopArc[meet]!, edges, this.stack);
    node = meet;
    for (let arc = backwardParent[node]!; arc >= 0; arc = backwardParent[node]!) {
      this.stack = unpackArc(h, arc, edges, this.stack);
      node = rank[arcTo[arc]!]!;
    }
    return edges;
  }
}
