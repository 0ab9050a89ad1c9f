/**
 * The property every contraction hierarchy must hold: for random pairs of usable edges, entered and
 * left at random positions along them, the hierarchy's route costs exactly what plain Dijkstra finds
 * on the same metric (the free-flow weights or traffic's), and its unpacked path runs from the
 * source edge to the target edge.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { HierarchyPath, HierarchyQuery } from '../../src/solvers/routing/hierarchy/hierarchy-query.js';
import type { MetricState } from '../../src/solvers/routing/metric-state.js';
import type { Seed } from '../../src/solvers/routing/search/search-space.js';

/** One pair both searches routed: the seeds (fractions along the edges) and the hierarchy's path. */
export interface RoutedPair {
  source: number;
  target: number;
  /** Where along the source and target edges the trip starts and ends, 0 to 1. */
  sourceFraction: number;
  targetFraction: number;
  sources: Seed[];
  targets: Seed[];
  path: HierarchyPath;
}

export interface HierarchyPropertyOptions {
  /** The metric the hierarchy was built (or customised) for: its usable edges, weights and exact search. */
  metric: MetricState;
  query: HierarchyQuery;
  edgeCount: number;
  numRuns: number;
  seed: number;
  /** Further checks on a pair both searches routed. */
  onRouted?: (pair: RoutedPair) => void;
}

/** Asserts the property on `numRuns` random pairs and returns how many of them were routable. */
export function expectHierarchyMatchesDijkstra(options: HierarchyPropertyOptions): number {
  const { metric, query } = options;
  const usable: number[] = [];
  for (let edge = 0; edge < options.edgeCount; edge++) if (metric.usable(edge)) usable.push(edge);
  const weight = metric.graph.costs.weight;
  const fraction = fc.double({ min: 0, max: 1, noNaN: true });
  let routed = 0;
  fc.assert(
    fc.property(fc.nat(usable.length - 1), fc.nat(usable.length - 1), fraction, fraction, (a, b, sourceFraction, targetFraction) => {
      const source = usable[a]!;
      const target = usable[b]!;
      const sources = [{ node: source, distance: (1 - sourceFraction) * weight[source]! }];
      const targets = [{ node: target, distance: -(1 - targetFraction) * weight[target]! }];
      const fast = query.route(sources, targets);
      const exact = metric.exactSearch().route(sources, targets);
      expect(fast === undefined).toBe(exact === undefined);
      if (!fast || !exact) return;
      routed++;
      expect(fast.weight).toBeCloseTo(exact.weight, 6);
      expect(fast.edges[0]).toBe(source);
      expect(fast.edges[fast.edges.length - 1]).toBe(target);
      options.onRouted?.({ source, target, sourceFraction, targetFraction, sources, targets, path: fast });
    }),
    { numRuns: options.numRuns, seed: options.seed },
  );
  return routed;
}
