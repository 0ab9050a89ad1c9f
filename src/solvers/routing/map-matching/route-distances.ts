/**
 * Bounded one-to-many Dijkstra in metres on the edge-based graph of a metric:
 * from one position on a directed edge to positions on other edges, honouring
 * oneways and turn restrictions (only the metric's arcs exist), stopping when
 * every target edge is settled or the bound is passed. Map matching runs one
 * per candidate of a GPS point, so the state is reused (one search per
 * routing engine, for every trace and metric): arrays sized once, a
 * generation stamp instead of clearing.
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import { NO_INDEX } from '../../../datapack/pack-layout.js';
import type { EdgeGraph } from '../edge-graph.js';
import type { EdgePosition } from '../edge-geometry.js';
import { IndexedHeap } from '../search/indexed-heap.js';

export type { EdgePosition };

export interface MeterSearchOptions {
  /** Metres a vehicle's U-turn counts for (so GPS jitter is not explained by turning around). */
  uTurnMeters: number;
  /** Moving backwards on one edge up to this many metres counts as standing still (GPS jitter, route distance 0). */
  backwardToleranceMeters: number;
}

/**
 * Positions are passed as numbers and target sets as a range of the caller's struct-of-arrays
 * (edge ids, fractions): the matcher calls `run` and `distanceTo` for every candidate pair, and
 * the search is kept per metric and reused across trips, so a run allocates nothing.
 */
export class MeterSearch {
  private readonly distance: Float64Array;
  private readonly predecessor: Int32Array;
  private readonly reached: Uint32Array;
  private readonly settled: Uint32Array;
  private readonly target: Uint32Array;
  private readonly heap: IndexedHeap;
  private generation = 0;
  private sourceEdge = 0;
  private sourceFraction = 0;
  private readonly length: Float32Array;
  private readonly twin: Uint32Array;
  private graph: EdgeGraph;
  private uTurnMeters: number;
  private backwardToleranceMeters: number;
  /** Nodes settled by all searches so far (work done, for benchmarks). */
  settledTotal = 0;

  constructor(pack: MapPack, graph: EdgeGraph, options: MeterSearchOptions) {
    const size = pack.edgeCount;
    this.distance = new Float64Array(size);
    this.predecessor = new Int32Array(size);
    this.reached = new Uint32Array(size);
    this.settled = new Uint32Array(size);
    this.target = new Uint32Array(size);
    this.heap = new IndexedHeap(size);
    this.length = pack.sections['graph.edgeLength'];
    this.twin = pack.sections['graph.edgeTwin'];
    this.graph = graph;
    this.uTurnMeters = options.uTurnMeters;
    this.backwardToleranceMeters = options.backwardToleranceMeters;
  }

  /**
   * Sets the graph (a metric of the same pack) and options of the following runs: one search
   * serves every match of a thread, whatever its metric, since its arrays are indexed by pack edge.
   */
  configure(graph: EdgeGraph, options: MeterSearchOptions): void {
    this.graph = graph;
    this.uTurnMeters = options.uTurnMeters;
    this.backwardToleranceMeters = options.backwardToleranceMeters;
  }

  /**
   * Searches from the position (`sourceEdge`, `sourceFraction`) until every edge of the targets
   * `targetEdges[first..end)` (at `targetFractions` of the same indexes) is settled or the distance
   * passes `boundMeters`. Read the answers with `distanceTo` and `pathTo`.
   */
  run(sourceEdge: number, sourceFraction: number, targetEdges: Int32Array, targetFractions: Float64Array, first: number, end: number, boundMeters: number): void {
    const { graph, distance, predecessor, reached, settled, heap, length, twin } = this;
    const { firstArc, arcTarget } = graph;
    const generation = this.nextGeneration();
    const targetStamp = this.target;
    this.sourceEdge = sourceEdge;
    this.sourceFraction = sourceFraction;
    heap.clear();
    let remaining = 0;
    // labels are at edge ends; a target counts only up to its position, so its label may pass the bound by the rest
    let untravelledRest = 0;
    for (let index = first; index < end; index++) {
      const edge = targetEdges[index]!;
      if (targetStamp[edge] !== generation) {
        targetStamp[edge] = generation;
        remaining++;
      }
      untravelledRest = Math.max(untravelledRest, length[edge]! * (1 - targetFractions[index]!));
    }
    const uTurn = graph.profile.motorized ? this.uTurnMeters : 0;
    const start = sourceEdge;
    distance[start] = (1 - sourceFraction) * length[start]!;
    predecessor[start] = -1;
    reached[start] = generation;
    heap.push(start, distance[start]!);
    const limit = boundMeters + untravelledRest;
    let settledCount = 0;
    while (heap.size) {
      if (heap.minKey > limit) break;
      const edge = heap.pop();
      settled[edge] = generation;
      settledCount++;
      if (targetStamp[edge] === generation && --remaining === 0) break;
      const base = distance[edge]!;
      const reverse = twin[edge]!;
      const arcEnd = firstArc[edge + 1]!;
      for (let arc = firstArc[edge]!; arc < arcEnd; arc++) {
        const next = arcTarget[arc]!;
        if (settled[next] === generation) continue;
        const value = base + length[next]! + (next === reverse && reverse !== NO_INDEX ? uTurn : 0);
        if (reached[next] !== generation || value < distance[next]!) {
          reached[next] = generation;
          distance[next] = value;
          predecessor[next] = edge;
          heap.push(next, value);
        }
      }
    }
    this.settledTotal += settledCount;
  }

  /** Route metres from the last run's source to the position, or Infinity when not found within the bound. */
  distanceTo(edge: number, fraction: number): number {
    const edgeLength = this.length[edge]!;
    if (edge === this.sourceEdge) {
      const ahead = (fraction - this.sourceFraction) * edgeLength;
      if (ahead >= 0) return ahead;
      // a small step back on the same edge is GPS jitter: the vehicle stood still
      if (-ahead <= this.backwardToleranceMeters) return 0;
      return this.loopDistance(edge, fraction);
    }
    if (this.settled[edge] !== this.generation) return Infinity;
    return this.distance[edge]! - (1 - fraction) * edgeLength;
  }

  /** The directed edges from the source's edge to the position's, both included. */
  pathTo(edge: number, fraction: number): number[] {
    const source = this.sourceEdge;
    if (edge === source) {
      const ahead = (fraction - this.sourceFraction) * this.length[edge]!;
      if (ahead >= 0 || -ahead <= this.backwardToleranceMeters) return [source];
      const via = this.loopEntry(edge);
      if (via < 0) return [source];
      const path = this.chain(via);
      path.push(edge);
      return path;
    }
    return this.settled[edge] === this.generation ? this.chain(edge) : [];
  }

  /** The next stamp; on wrap-around (after 2^32 - 1 runs of a long-lived search) the stamp arrays are cleared. */
  private nextGeneration(): number {
    if (this.generation === 0xffff_ffff) {
      this.reached.fill(0);
      this.settled.fill(0);
      this.target.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }

  private chain(edge: number): number[] {
    const path: number[] = [];
    for (let at = edge; at >= 0; at = this.predecessor[at]!) path.push(at);
    return path.reverse();
  }

  /** Leaving the source edge and coming back onto it behind the start (a loop). */
  private loopDistance(edge: number, fraction: number): number {
    const via = this.loopEntry(edge);
    if (via < 0) return Infinity;
    return this.distance[via]! + fraction * this.length[edge]!;
  }

  private loopEntry(edge: number): number {
    const { graph } = this;
    let best = -1;
    for (let index = graph.firstReverse[edge]!; index < graph.firstReverse[edge + 1]!; index++) {
      const from = graph.arcSource[graph.reverseArc[index]!]!;
      if (from === edge || this.settled[from] !== this.generation) continue;
      if (best < 0 || this.distance[from]! < this.distance[best]!) best = from;
    }
    return best;
  }
}
