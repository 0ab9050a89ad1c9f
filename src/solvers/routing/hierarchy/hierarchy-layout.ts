/**
 * Lays a finished contraction out for searching: the upward and downward arc
 * lists become CSR arrays indexed by rank with the other end's rank and the
 * weight stored beside each entry. Renumbering by rank keeps the few nodes a
 * query touches (the top of the hierarchy, mostly) close together in memory,
 * and inline weights spare each relaxation two dependent loads.
 */
import type { Hierarchy } from './hierarchy.js';

/** The arcs of a contraction as parallel columns (arc id = index), node ids as in the edge graph. */
export interface ContractedArcs {
  from: ArrayLike<number>;
  to: ArrayLike<number>;
  weight: ArrayLike<number>;
  seconds: ArrayLike<number>;
  meters: ArrayLike<number>;
  child1: ArrayLike<number>;
  child2: ArrayLike<number>;
  base: ArrayLike<number>;
}

let nextBuild = 0;

/**
 * `upLists[v]` are the arcs leaving v to higher ranks, `downLists[v]` those arriving at v from higher
 * ranks (both by node id); `rank[v]` is v's position in the contraction order; `loopArc[v]` is the
 * cheapest loop from v back to v through lower nodes (-1 when none).
 */
export function layoutHierarchy(
  rank: Uint32Array,
  arcs: ContractedArcs,
  upLists: readonly number[][],
  downLists: readonly number[][],
  loopArc: Int32Array,
): Hierarchy {
  const n = rank.length;
  const rankNode = new Uint32Array(n);
  for (let node = 0; node < n; node++) rankNode[rank[node]!] = node;
  const up = rankedCsr(rank, rankNode, upLists, arcs.to, arcs.weight);
  const down = rankedCsr(rank, rankNode, downLists, arcs.from, arcs.weight);
  const loopArcByRank = new Int32Array(n);
  const loopWeight = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const arc = loopArc[rankNode[r]!]!;
    loopArcByRank[r] = arc;
    loopWeight[r] = arc < 0 ? Infinity : arcs.weight[arc]!;
  }
  return {
    id: `ch-${(nextBuild++).toString(36)}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    nodeCount: n,
    rank,
    rankNode,
    upFirst: up.first,
    upHead: up.head,
    upWeight: up.weight,
    upArc: up.arc,
    downFirst: down.first,
    downHead: down.head,
    downWeight: down.weight,
    downArc: down.arc,
    loopArc: loopArcByRank,
    loopWeight,
    arcFrom: Uint32Array.from(arcs.from),
    arcTo: Uint32Array.from(arcs.to),
    arcWeight: Float64Array.from(arcs.weight),
    arcSeconds: Float64Array.from(arcs.seconds),
    arcMeters: Float64Array.from(arcs.meters),
    arcChild1: Int32Array.from(arcs.child1),
    arcChild2: Int32Array.from(arcs.child2),
    baseArc: Int32Array.from(arcs.base),
  };
}

/** CSR of per-node arc lists in rank order; `otherEnd` names the node at the arc's far end. */
function rankedCsr(rank: Uint32Array, byRank: Uint32Array, lists: readonly number[][], otherEnd: ArrayLike<number>, arcWeight: ArrayLike<number>) {
  const n = rank.length;
  const first = new Uint32Array(n + 1);
  for (let r = 0; r < n; r++) first[r + 1] = first[r]! + lists[byRank[r]!]!.length;
  const head = new Uint32Array(first[n]!);
  const weight = new Float64Array(first[n]!);
  const arc = new Uint32Array(first[n]!);
  for (let r = 0; r < n; r++) {
    let at = first[r]!;
    for (const id of lists[byRank[r]!]!) {
      head[at] = rank[otherEnd[id]!]!;
      weight[at] = arcWeight[id]!;
      arc[at++] = id;
    }
  }
  return { first, head, weight, arc };
}
