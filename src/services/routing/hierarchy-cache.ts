/**
 * Contraction hierarchies per metric, built in a solver worker on first use
 * and kept in shared memory, so every worker searches the same copy. Until a
 * metric's hierarchy is ready, routes use the exact search (same answers,
 * slower); matrices wait for it.
 *
 * A traffic metric (one moment's learned speeds) is customised rather than
 * contracted from scratch: its build keeps the node order of the same
 * metric's free-flow hierarchy when that one is ready. Traffic hierarchies
 * are kept apart (at most MAX_TRAFFIC_HIERARCHIES), so a day of hour buckets
 * never pushes the free-flow hierarchies out.
 */
import type { Logger } from '../../shared/logger.js';
import { freeFlowMetric, metricKey, type MetricSpec } from '../../solvers/routing/costing/profiles.js';
import type { Hierarchy } from '../../solvers/routing/hierarchy/hierarchy.js';
import { MAX_HIERARCHIES } from '../../solvers/routing/hierarchy/hierarchy-ref.js';
import type { SolverPool } from '../../solvers/solver-pool.js';

/** Traffic-metric hierarchies kept (least recently used beyond this are dropped): a few hour buckets in use at once. */
export const MAX_TRAFFIC_HIERARCHIES = 4;

interface Entry {
  promise: Promise<Hierarchy | undefined>;
  value?: Hierarchy;
}

export class HierarchyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly trafficEntries = new Map<string, Entry>();

  constructor(
    private readonly solvers: SolverPool,
    private readonly logger: Logger,
  ) {}

  /** The hierarchy if it is built; otherwise starts building it and answers undefined. */
  ready(spec: MetricSpec): Hierarchy | undefined {
    return this.entry(spec).value;
  }

  /** Waits for the hierarchy (building it if needed); undefined if the build failed. */
  get(spec: MetricSpec): Promise<Hierarchy | undefined> {
    return this.entry(spec).promise;
  }

  private entry(spec: MetricSpec): Entry {
    const key = metricKey(spec);
    const entries = spec.traffic ? this.trafficEntries : this.entries;
    const known = entries.get(key);
    if (known) {
      entries.delete(key);
      entries.set(key, known);
      return known;
    }
    const entry: Entry = { promise: this.build(key, spec, entries).then((hierarchy) => (entry.value = hierarchy)) };
    entries.set(key, entry);
    if (entries.size > (spec.traffic ? MAX_TRAFFIC_HIERARCHIES : MAX_HIERARCHIES)) entries.delete(entries.keys().next().value!);
    return entry;
  }

  private async build(key: string, spec: MetricSpec, entries: Map<string, Entry>): Promise<Hierarchy | undefined> {
    // a traffic metric keeps the free-flow order when that hierarchy is ready (its rank column is shared memory: posting it shares)
    const order = spec.traffic ? this.entries.get(metricKey(freeFlowMetric(spec)))?.value?.rank : undefined;
    try {
      const result = await this.solvers.run('contractMetric', { metric: spec, ...(order ? { order } : {}) }, undefined, { unbounded: true });
      if (!result.ok) {
        this.logger.warn({ metric: key, code: result.code }, 'routing hierarchy not built');
        entries.delete(key);
        return undefined;
      }
      const { hierarchy, buildMs, shortcuts } = result.value;
      this.logger.info({ metric: key, buildMs: Math.round(buildMs), nodes: hierarchy.nodeCount, shortcuts, customised: order !== undefined }, 'routing hierarchy built');
      return hierarchy;
    } catch (error) {
      this.logger.warn({ metric: key, err: error }, 'routing hierarchy build failed');
      entries.delete(key);
      return undefined;
    }
  }
}
