/**
 * Everything a worker keeps per metric: the edge graph, which edges belong to
 * the main strongly connected component, reusable exact search state, and the
 * hierarchy when the main thread has shared one.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { strongComponents } from '../graph/strong-components.js';
import { buildEdgeGraph, type EdgeGraph, type PackTopology } from './edge-graph.js';
import type { MetricSpec } from './costing/profiles.js';
import type { Hierarchy } from './hierarchy/hierarchy.js';
import { HierarchyQuery } from './hierarchy/hierarchy-query.js';
import { BidirectionalDijkstra } from './search/bidirectional-dijkstra.js';

export class MetricState {
  readonly graph: EdgeGraph;
  /** 1 where the edge is in the largest strongly connected component of this metric. */
  readonly inMainComponent: Uint8Array;
  private exact?: BidirectionalDijkstra;
  private hierarchyQuery?: { hierarchy: Hierarchy; query: HierarchyQuery };

  constructor(pack: MapPack, topology: PackTopology, readonly spec: MetricSpec) {
    this.graph = buildEdgeGraph(pack, topology, spec);
    const weight = this.graph.costs.weight;
    const components = strongComponents(pack.edgeCount, this.graph.firstArc, this.graph.arcTarget, (edge) => weight[edge] !== Infinity);
    this.inMainComponent = new Uint8Array(pack.edgeCount);
    for (let edge = 0; edge < pack.edgeCount; edge++) {
      if (weight[edge] !== Infinity && components.componentOf[edge] === components.largest) this.inMainComponent[edge] = 1;
    }
  }

  usable(edge: number): boolean {
    return this.graph.costs.weight[edge] !== Infinity;
  }

  exactSearch(): BidirectionalDijkstra {
    this.exact ??= new BidirectionalDijkstra(this.graph);
    return this.exact;
  }

  /** The query over a shared hierarchy (kept while the same hierarchy keeps arriving). */
  hierarchySearch(hierarchy: Hierarchy): HierarchyQuery {
    if (this.hierarchyQuery?.hierarchy.id !== hierarchy.id) {
      this.hierarchyQuery = { hierarchy, query: new HierarchyQuery(hierarchy) };
    }
    return this.hierarchyQuery.query;
  }
}
