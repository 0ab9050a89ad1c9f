/**
 * Bounded one-to-many Dijkstra in metres on the edge-based graph of a metric:
 * from one position on a directed edge to positions on other edges, honouring
 * oneways and turn restrictions (only the metric's arcs exist), stopping when
 * every target edge is settled or the bound is passed. Map matching runs one
 * per candidate of a GPS point, so the state is reused: arrays sized once,
 * a generation stamp instead of clearing.
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

export class MeterSearch {
  private readonly distance: Float64Array;
  private readonly predecessor: Int32Array;
  private readonly reached: Uint32Array;
  private readonly settled: Uint32Array;
  private readonly target: Uint32Array;
  private readonly heap: IndexedHeap;
  private generation = 0;
  private source: EdgePosition = { edge: 0, fraction: 0 };
  private readonly length: Float32Array;
  private readonly twin: Uint32Array;
  /** Nodes settled by all searches so far (work done, for benchmarks). */
  settledTotal = 0;

  constructor(
    pack: MapPack,
    private readonly graph: EdgeGraph,
    private readonly options: MeterSearchOptions,
  ) {
    const size = pack.edgeCount;
    this.distance = new Float64Array(size);
    this.predecessor = new Int32Array(size);
    this.reached = new Uint32Array(size);
    this.settled = new Uint32Array(size);
    this.target = new Uint32Array(size);
    this.heap = new IndexedHeap(size);
    this.length = pack.sections['graph.edgeLength'];
    this.twin = pack.sections['graph.edgeTwin'];
  }

  /**
   * Searches from `source` until every edge of `targets` is settled or the distance passes
   * `boundMeters`. Read the answers with `distanceTo` and `pathTo`.
   */
  run(source: EdgePosition, targets: readonly EdgePosition[], boundMeters: number): void {
    const { graph, distance, predecessor, reached, settled, heap, length, twin } = this;
    const generation = ++this.generation;
    this.source = source;
    heap.clear();
    let remaining = 0;
    for (const target of targets) {
      if (this.target[target.edge] !== generation) {
        this.target[target.edge] = generation;
        remaining++;
      }
    }
    const uTurn = graph.profile.motorized ? this.options.uTurnMeters : 0;
    const start = source.edge;
    distance[start] = (1 - source.fraction) * length[start]!;
    predecessor[start] = -1;
    reached[start] = generation;
    heap.push(start, distance[start]!);
    // labels are at edge ends; a target counts only up to its position, so its label may pass the bound by the rest
    const limit = boundMeters + untravelledRest(length, targets);
    while (heap.size) {
      if (heap.minKey > limit) break;
      const edge = heap.pop();
      settled[edge] = generation;
      this.settledTotal++;
      if (this.target[edge] === generation && --remaining === 0) break;
      const base = distance[edge]!;
      for (let arc = graph.firstArc[edge]!; arc < graph.firstArc[edge + 1]!; arc++) {
        const next = graph.arcTarget[arc]!;
        if (settled[next] === generation) continue;
        const value = base + length[next]! + (next === twin[edge] && twin[edge] !== NO_INDEX ? uTurn : 0);
        if (reached[next] !== generation || value < distance[next]!) {
          reached[next] = generation;
          distance[next] = value;
          predecessor[next] = edge;
          heap.push(next, value);
        }
      }
    }
  }

  /** Route metres from the last run's source to `target`, or Infinity when not found within the bound. */
  distanceTo(target: EdgePosition): number {
    const { source, length } = this;
    const edgeLength = length[target.edge]!;
    if (target.edge === source.edge) {
      const ahead = (target.fraction - source.fraction) * edgeLength;
      if (ahead >= 0) return ahead;
      // a small step back on the same edge is GPS jitter: the vehicle stood still
      if (-ahead <= this.options.backwardToleranceMeters) return 0;
      return this.loopDistance(target);
    }
    if (this.settled[target.edge] !== this.generation) return Infinity;
    return this.distance[target.edge]! - (1 - target.fraction) * edgeLength;
  }

  /** The directed edges from the source's edge to the target's, both included. */
  pathTo(target: EdgePosition): number[] {
    const { source } = this;
    if (target.edge === source.edge) {
      const ahead = (target.fraction - source.fraction) * this.length[target.edge]!;
      if (ahead >= 0 || -ahead <= this.options.backwardToleranceMeters) return [source.edge];
      const via = this.loopEntry(target.edge);
      return via < 0 ? [source.edge] : [...this.chain(via), target.edge];
    }
    return this.settled[target.edge] === this.generation ? this.chain(target.edge) : [];
  }

  private chain(edge: number): number[] {
    const path: number[] = [];
    for (let at = edge; at >= 0; at = this.predecessor[at]!) path.push(at);
    return path.reverse();
  }

  /** Leaving the source edge and coming back onto it behind the start (a loop). */
  private loopDistance(target: EdgePosition): number {
    const via = this.loopEntry(target.edge);
    if (via < 0) return Infinity;
    return this.distance[via]! + target.fraction * this.length[target.edge]!;
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

function untravelledRest(length: Float32Array, targets: readonly EdgePosition[]): number {
  let longest = 0;
  for (const target of targets) longest = Math.max(longest, length[target.edge]! * (1 - target.fraction));
  return longest;
}
