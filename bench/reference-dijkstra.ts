/**
 * Plain (one-directional) Dijkstra on the edge-based graph, the textbook
 * baseline speed-ups are quoted against. Benchmark code only: the product's
 * exact search is bidirectional.
 */
import type { EdgeGraph } from '../src/solvers/routing/edge-graph.js';
import { SearchSpace, type Seed } from '../src/solvers/routing/search/search-space.js';

export class PlainDijkstra {
  private readonly space: SearchSpace;

  constructor(private readonly graph: EdgeGraph) {
    this.space = new SearchSpace(graph.firstArc.length - 1);
  }

  /** The least weight from the sources to the one target seed (Infinity when unreachable). */
  route(sources: readonly Seed[], target: Seed): number {
    const { graph, space } = this;
    space.reset();
    for (const seed of sources) space.relax(seed.node, seed.distance, -1);
    let best = Infinity;
    while (space.heap.size) {
      if (space.heap.minKey >= best) break;
      const node = space.heap.pop();
      space.settledCount++;
      const base = space.distance[node]!;
      // reaching the target edge's end; the target point lies before it
      if (node === target.node) best = Math.min(best, base + target.distance);
      for (let arc = graph.firstArc[node]!; arc < graph.firstArc[node + 1]!; arc++) space.relax(graph.arcTarget[arc]!, base + graph.arcWeight[arc]!, arc);
    }
    return best;
  }
}
