/**
 * The edge-based graph of one metric: a search node is a directed pack edge
 * (having travelled it to its end), an arc is a turn into the next edge. Turn
 * costs and restrictions live on the arcs, which a node-based graph cannot
 * express. Arc weight = turn weight + the weight of the edge turned into.
 *
 * Search node ids are pack edge ids, so paths come back as pack edges.
 */
import { NO_INDEX } from '../../datapack/pack-layout.js';
import type { MapPack } from '../../datapack/map-pack.js';
import { computeEdgeBearings, type EdgeBearings } from './costing/edge-bearings.js';
import { computeEdgeCosts, type EdgeCosts } from './costing/edge-costs.js';
import { PROFILES, type MetricSpec, type Profile } from './costing/profiles.js';
import { turnCost, turnWeightShare } from './costing/turn-costs.js';
import { turnRulesFor, type TurnRules } from './costing/turn-rules.js';

/** Static facts of a pack the metrics share (computed once per pack). */
export interface PackTopology {
  bearings: EdgeBearings;
  /** Distinct neighbouring nodes of each node (a node with two is a bend, not a junction). */
  nodeDegree: Uint8Array;
}

export function computeTopology(pack: MapPack): PackTopology {
  const s = pack.sections;
  const nodeDegree = new Uint8Array(pack.nodeCount);
  for (let node = 0; node < pack.nodeCount; node++) {
    const seen = new Set<number>();
    for (let edge = s['graph.firstEdge'][node]!; edge < s['graph.firstEdge'][node + 1]!; edge++) seen.add(s['graph.edgeTarget'][edge]!);
    // edges arriving without a way back (oneways) are neighbours too
    nodeDegree[node] = Math.min(255, seen.size);
  }
  for (let edge = 0; edge < pack.edgeCount; edge++) {
    if (s['graph.edgeTwin'][edge] !== NO_INDEX) continue;
    const target = s['graph.edgeTarget'][edge]!;
    if (nodeDegree[target]! < 255) nodeDegree[target] = nodeDegree[target]! + 1;
  }
  return { bearings: computeEdgeBearings(pack), nodeDegree };
}

export interface EdgeGraph {
  spec: MetricSpec;
  profile: Profile;
  costs: EdgeCosts;
  rules: TurnRules;
  /** Forward arcs in CSR by the arriving edge: arcs of e are firstArc[e] .. firstArc[e+1]-1. */
  firstArc: Uint32Array;
  arcTarget: Uint32Array;
  arcWeight: Float64Array;
  /** Seconds of the turn itself (the edge's own seconds are in costs.seconds). */
  arcTurnSeconds: Float32Array;
  /** Reverse arcs in CSR by the edge turned into: the arc ids arriving at f. */
  firstReverse: Uint32Array;
  reverseArc: Uint32Array;
  arcSource: Uint32Array;
}

export function buildEdgeGraph(pack: MapPack, topology: PackTopology, spec: MetricSpec): EdgeGraph {
  const s = pack.sections;
  const profile = PROFILES[spec.costing];
  const costs = computeEdgeCosts(pack, spec);
  const rules = turnRulesFor(pack, profile.mode);
  const share = turnWeightShare(spec.preference);
  const edgeCount = pack.edgeCount;
  const firstEdge = s['graph.firstEdge'];
  const target = s['graph.edgeTarget'];
  const twin = s['graph.edgeTwin'];

  const firstArc = new Uint32Array(edgeCount + 1);
  const targets: number[] = [];
  const weights: number[] = [];
  const turnSeconds: number[] = [];
  for (let from = 0; from < edgeCount; from++) {
    firstArc[from] = targets.length;
    if (costs.weight[from] === Infinity) continue;
    const node = target[from]!;
    if (s['graph.nodeBlockedModes'][node]! & profile.mode) continue;
    let usableExits = 0;
    for (let to = firstEdge[node]!; to < firstEdge[node + 1]!; to++) if (costs.weight[to] !== Infinity && to !== twin[from]) usableExits++;
    for (let to = firstEdge[node]!; to < firstEdge[node + 1]!; to++) {
      if (costs.weight[to] === Infinity || !rules.allows(from, to)) continue;
      const isUTurn = to === twin[from];
      const turn = turnCost(
        profile,
        topology.bearings.end[from]!,
        topology.bearings.start[to]!,
        s['graph.nodeFlags'][node]!,
        topology.nodeDegree[node]!,
        isUTurn,
        usableExits === 0,
        spec.avoidLeftTurns,
      );
      targets.push(to);
      weights.push(costs.weight[to]! + turn.seconds * share + turn.penalty);
      turnSeconds.push(turn.seconds);
    }
  }
  firstArc[edgeCount] = targets.length;
  const arcCount = targets.length;
  const arcTarget = Uint32Array.from(targets);
  const arcSource = new Uint32Array(arcCount);
  for (let from = 0; from < edgeCount; from++) for (let arc = firstArc[from]!; arc < firstArc[from + 1]!; arc++) arcSource[arc] = from;

  const firstReverse = new Uint32Array(edgeCount + 1);
  for (let arc = 0; arc < arcCount; arc++) firstReverse[arcTarget[arc]! + 1] = firstReverse[arcTarget[arc]! + 1]! + 1;
  for (let edge = 0; edge < edgeCount; edge++) firstReverse[edge + 1] = firstReverse[edge + 1]! + firstReverse[edge]!;
  const fill = firstReverse.slice(0, edgeCount);
  const reverseArc = new Uint32Array(arcCount);
  for (let arc = 0; arc < arcCount; arc++) reverseArc[fill[arcTarget[arc]!]!++] = arc;

  return {
    spec,
    profile,
    costs,
    rules,
    firstArc,
    arcTarget,
    arcWeight: Float64Array.from(weights),
    arcTurnSeconds: Float32Array.from(turnSeconds),
    firstReverse,
    reverseArc,
    arcSource,
  };
}

/** The arc from one edge into the next, or -1 when that turn is not allowed. */
export function findArc(graph: EdgeGraph, from: number, to: number): number {
  for (let arc = graph.firstArc[from]!; arc < graph.firstArc[from + 1]!; arc++) if (graph.arcTarget[arc] === to) return arc;
  return -1;
}
