/**
 * Builds a contraction hierarchy from an edge graph: nodes are contracted in
 * order of a lazily updated priority (edge difference, the ratio of original
 * arcs the new shortcuts stand for to those removed, contracted neighbours
 * and level), and a shortcut u→x replaces u→v→x unless a local witness
 * search finds a path u→x avoiding v that is no longer. Every arc a node has
 * when it is contracted goes to the search graph: those are exactly the arcs
 * to higher ranks.
 */
import type { EdgeGraph } from '../edge-graph.js';
import { IndexedHeap } from '../search/indexed-heap.js';
import type { Hierarchy } from './hierarchy.js';
import { layoutHierarchy } from './hierarchy-layout.js';

/**
 * Witness searches give up after this many settled nodes (a missed witness only adds a shortcut):
 * small while estimating priorities, larger when the shortcuts are really added.
 */
const SIMULATION_SETTLE_LIMIT = 20;
const CONTRACTION_SETTLE_LIMIT = 200;

export interface ContractOptions {
  /** Called every ~1 % with the share contracted, for progress logs. */
  onProgress?: (share: number) => void;
  /**
   * A node order to keep (node → rank, e.g. the free-flow hierarchy's `rank`): the nodes are contracted
   * in that order with no priority simulation, and the shortcuts are found by witness searches on this
   * graph's own weights, so the result is exact for them. This is how a traffic metric is customised
   * (docs/traffic.md): the order is a property of the road network more than of one hour's speeds.
   */
  order?: ArrayLike<number>;
}

class ArcStore {
  from: number[] = [];
  to: number[] = [];
  weight: number[] = [];
  seconds: number[] = [];
  meters: number[] = [];
  child1: number[] = [];
  child2: number[] = [];
  base: number[] = [];
  /** Original arcs the arc stands for. */
  hops: number[] = [];

  add(from: number, to: number, weight: number, seconds: number, meters: number, child1: number, child2: number, base: number): number {
    this.set(this.from.length, from, to, weight, seconds, meters, child1, child2, base);
    return this.from.length - 1;
  }

  /** Writes arc `id` (the next id appends one). */
  set(id: number, from: number, to: number, weight: number, seconds: number, meters: number, child1: number, child2: number, base: number): void {
    this.from[id] = from;
    this.to[id] = to;
    this.weight[id] = weight;
    this.seconds[id] = seconds;
    this.meters[id] = meters;
    this.child1[id] = child1;
    this.child2[id] = child2;
    this.base[id] = base;
    this.hops[id] = child1 < 0 ? 1 : this.hops[child1]! + this.hops[child2]!;
  }
}

export function buildHierarchy(graph: EdgeGraph, edgeMeters: ArrayLike<number>, options: ContractOptions = {}): Hierarchy {
  const n = graph.firstArc.length - 1;
  const arcs = new ArcStore();
  // live adjacency of the not yet contracted graph: arc ids
  const outArcs: number[][] = Array.from({ length: n }, () => []);
  const inArcs: number[][] = Array.from({ length: n }, () => []);
  for (let from = 0; from < n; from++) {
    for (let base = graph.firstArc[from]!; base < graph.firstArc[from + 1]!; base++) {
      const to = graph.arcTarget[base]!;
      if (to === from) continue;
      const weight = graph.arcWeight[base]!;
      const existing = findLive(arcs, outArcs[from]!, to);
      if (existing >= 0 && arcs.weight[existing]! <= weight) continue;
      const seconds = graph.arcTurnSeconds[base]! + graph.costs.seconds[to]!;
      const id = arcs.add(from, to, weight, seconds, edgeMeters[to]!, -1, -1, base);
      if (existing >= 0) replaceLive(outArcs[from]!, inArcs[to]!, existing, id);
      else {
        outArcs[from]!.push(id);
        inArcs[to]!.push(id);
      }
    }
  }

  const contracted = new Uint8Array(n);
  const deletedNeighbours = new Uint32Array(n);
  const level = new Uint32Array(n);
  const rank = new Uint32Array(n);
  const loopArc = new Int32Array(n).fill(-1);
  const upLists: number[][] = Array.from({ length: n }, () => []);
  const downLists: number[][] = Array.from({ length: n }, () => []);
  const witness = new WitnessSearch(n);
  const queue = new IndexedHeap(n);
  const shortcutsBuffer: number[] = [];

  const simulate = (v: number, settleLimit = SIMULATION_SETTLE_LIMIT): number => {
    shortcutsBuffer.length = 0;
    const added = collectShortcuts(v, arcs, outArcs, inArcs, contracted, witness, shortcutsBuffer, settleLimit);
    const removed = outArcs[v]!.length + inArcs[v]!.length;
    let addedHops = 0;
    for (let index = 0; index < shortcutsBuffer.length; index += 4) addedHops += arcs.hops[shortcutsBuffer[index + 2]!]! + arcs.hops[shortcutsBuffer[index + 3]!]!;
    let removedHops = 0;
    for (const arc of outArcs[v]!) removedHops += arcs.hops[arc]!;
    for (const arc of inArcs[v]!) removedHops += arcs.hops[arc]!;
    return 2 * (added - removed) + addedHops / Math.max(1, removedHops) + deletedNeighbours[v]! + level[v]!;
  };
  let done = 0;
  const step = Math.max(1, Math.floor(n / 100));
  const fixedOrder = options.order ? nodesByRank(options.order, n) : undefined;
  if (!fixedOrder) for (let v = 0; v < n; v++) queue.push(v, simulate(v));
  while (fixedOrder ? done < n : queue.size) {
    let v: number;
    if (fixedOrder) v = fixedOrder[done]!;
    else {
      v = queue.pop();
      // lazy update: re-evaluate; if it is no longer the cheapest, queue it again
      const priority = simulate(v);
      if (queue.size && priority > queue.minKey) {
        queue.push(v, priority);
        continue;
      }
    }
    // the shortcuts to add, found with the thorough witness search: (u, x, arcIn, arcOut) quadruples
    simulate(v, CONTRACTION_SETTLE_LIMIT);
    const planned = shortcutsBuffer.slice();
    contracted[v] = 1;
    rank[v] = done++;
    for (const arc of outArcs[v]!) upLists[v]!.push(arc);
    for (const arc of inArcs[v]!) downLists[v]!.push(arc);
    for (let index = 0; index < planned.length; index += 4) {
      const [u, x, arcIn, arcOut] = [planned[index]!, planned[index + 1]!, planned[index + 2]!, planned[index + 3]!];
      const weight = arcs.weight[arcIn]! + arcs.weight[arcOut]!;
      const existing = findLive(arcs, outArcs[u]!, x);
      if (existing >= 0 && arcs.weight[existing]! <= weight) continue;
      const id = arcs.add(u, x, weight, arcs.seconds[arcIn]! + arcs.seconds[arcOut]!, arcs.meters[arcIn]! + arcs.meters[arcOut]!, arcIn, arcOut, -1);
      if (existing >= 0) replaceLive(outArcs[u]!, inArcs[x]!, existing, id);
      else {
        outArcs[u]!.push(id);
        inArcs[x]!.push(id);
      }
    }
    keepCheapestLoops(v, arcs, outArcs[v]!, inArcs[v]!, loopArc);
    // detach v and update its neighbours' priorities
    const neighbours = new Set<number>();
    for (const arc of outArcs[v]!) {
      const x = arcs.to[arc]!;
      removeValue(inArcs[x]!, arc);
      neighbours.add(x);
    }
    for (const arc of inArcs[v]!) {
      const u = arcs.from[arc]!;
      removeValue(outArcs[u]!, arc);
      neighbours.add(u);
    }
    outArcs[v] = [];
    inArcs[v] = [];
    for (const neighbour of neighbours) {
      deletedNeighbours[neighbour] = deletedNeighbours[neighbour]! + 1;
      level[neighbour] = Math.max(level[neighbour]!, level[v]! + 1);
      if (!fixedOrder && queue.has(neighbour)) {
        // priorities may rise as well as fall: re-queue with the fresh value
        queue.update(neighbour, simulate(neighbour));
      }
    }
    if (options.onProgress && done % step === 0) options.onProgress(done / n);
  }

  return layoutHierarchy(rank, arcs, upLists, downLists, loopArc);
}

/** rank → node of a given order; refuses an order that is not a permutation of the graph's nodes. */
function nodesByRank(order: ArrayLike<number>, n: number): Uint32Array {
  if (order.length !== n) throw new Error(`node order has ${order.length} nodes, the graph ${n}`);
  const byRank = new Uint32Array(n).fill(n);
  for (let node = 0; node < n; node++) {
    const rank = order[node]!;
    if (!(rank >= 0 && rank < n) || byRank[rank] !== n) throw new Error('node order is not a permutation');
    byRank[rank] = node;
  }
  return byRank;
}

/**
 * u→v→u is no shortcut between two nodes, but it is the way back to u through lower nodes: a route
 * from a point on an edge to a point behind it on the same edge has to leave and come back, and
 * when every node of the shortest such loop ranks below u, no up-down path of the search graph
 * contains it. The cheapest loop found at each node is kept as an arc of its own for the query.
 */
function keepCheapestLoops(v: number, arcs: ArcStore, outs: readonly number[], ins: readonly number[], loopArc: Int32Array): void {
  for (const arcIn of ins) {
    const u = arcs.from[arcIn]!;
    for (const arcOut of outs) {
      if (arcs.to[arcOut] !== u) continue;
      const weight = arcs.weight[arcIn]! + arcs.weight[arcOut]!;
      const known = loopArc[u]!;
      if (known >= 0 && arcs.weight[known]! <= weight) continue;
      const seconds = arcs.seconds[arcIn]! + arcs.seconds[arcOut]!;
      const meters = arcs.meters[arcIn]! + arcs.meters[arcOut]!;
      // nothing else refers to a loop arc, so a cheaper loop takes over its id
      if (known < 0) loopArc[u] = arcs.add(u, u, weight, seconds, meters, arcIn, arcOut, -1);
      else arcs.set(known, u, u, weight, seconds, meters, arcIn, arcOut, -1);
    }
  }
}

/** Finds (u, x) pairs through v that need a shortcut; pushes (u, x, arcIn, arcOut) to `out`; returns how many. */
function collectShortcuts(
  v: number,
  arcs: ArcStore,
  outArcs: number[][],
  inArcs: number[][],
  contracted: Uint8Array,
  witness: WitnessSearch,
  out: number[],
  settleLimit: number,
): number {
  let added = 0;
  const outs = outArcs[v]!;
  if (!outs.length) return 0;
  let maxOut = 0;
  for (const arc of outs) maxOut = Math.max(maxOut, arcs.weight[arc]!);
  for (const arcIn of inArcs[v]!) {
    const u = arcs.from[arcIn]!;
    const inWeight = arcs.weight[arcIn]!;
    witness.run(u, v, inWeight + maxOut, settleLimit, arcs, outArcs, contracted);
    for (const arcOut of outs) {
      const x = arcs.to[arcOut]!;
      if (x === u) continue;
      const via = inWeight + arcs.weight[arcOut]!;
      if (witness.distanceTo(x) <= via) continue;
      out.push(u, x, arcIn, arcOut);
      added++;
    }
  }
  return added;
}

/** A bounded Dijkstra over the live graph that skips one node. */
class WitnessSearch {
  private readonly distance: Float64Array;
  private readonly heap: IndexedHeap;
  private readonly touched: number[] = [];

  constructor(n: number) {
    this.distance = new Float64Array(n).fill(Infinity);
    this.heap = new IndexedHeap(n);
  }

  run(source: number, skip: number, limit: number, settleLimit: number, arcs: ArcStore, outArcs: number[][], contracted: Uint8Array): void {
    for (const node of this.touched) this.distance[node] = Infinity;
    this.touched.length = 0;
    this.touched.push(source);
    this.heap.clear();
    this.distance[source] = 0;
    this.heap.push(source, 0);
    let settled = 0;
    while (this.heap.size && settled < settleLimit) {
      if (this.heap.minKey > limit) break;
      const node = this.heap.pop();
      settled++;
      const base = this.distance[node]!;
      for (const arc of outArcs[node]!) {
        const next = arcs.to[arc]!;
        if (next === skip || contracted[next]) continue;
        const candidate = base + arcs.weight[arc]!;
        if (candidate < this.distance[next]!) {
          if (this.distance[next] === Infinity) this.touched.push(next);
          this.distance[next] = candidate;
          this.heap.push(next, candidate);
        }
      }
    }
  }

  distanceTo(node: number): number {
    return this.distance[node]!;
  }
}

function findLive(arcs: ArcStore, list: number[], to: number): number {
  for (const arc of list) if (arcs.to[arc] === to) return arc;
  return -1;
}

function replaceLive(outList: number[], inList: number[], old: number, replacement: number): void {
  outList[outList.indexOf(old)] = replacement;
  inList[inList.indexOf(old)] = replacement;
}

function removeValue(list: number[], value: number): void {
  const index = list.indexOf(value);
  if (index >= 0) {
    list[index] = list[list.length - 1]!;
    list.pop();
  }
}
