/**
 * Contraction hierarchies per metric, built in a solver worker on first use
 * and kept in shared memory, so every worker searches the same copy. Until a
 * metric's hierarchy is ready, routes use the exact search (same answers,
 * slower); matrices wait for it.
 */
import type { Logger } from '../../shared/logger.js';
import { metricKey, type MetricSpec } from '../../solvers/routing/costing/profiles.js';
import type { Hierarchy } from '../../solvers/routing/hierarchy/hierarchy.js';
import { MAX_HIERARCHIES } from '../../solvers/routing/hierarchy/hierarchy-ref.js';
import type { SolverPool } from '../../solvers/solver-pool.js';

interface Entry {
  promise: Promise<Hierarchy | undefined>;
  value?: Hierarchy;
}

export class HierarchyCache {
  private readonly entries = new Map<string, Entry>();

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
    const known = this.entries.get(key);
    if (known) {
      this.entries.delete(key);
      this.entries.set(key, known);
      return known;
    }
    const entry: Entry = { promise: this.build(key, spec).then((hierarchy) => (entry.value = hierarchy)) };
    this.entries.set(key, entry);
    if (this.entries.size > MAX_HIERARCHIES) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  private async build(key: string, spec: MetricSpec): Promise<Hierarchy | undefined> {
    try {
      const result = await this.solvers.run('contractMetric', { metric: spec }, undefined, { unbounded: true });
      if (!result.ok) {
        this.logger.warn({ metric: key, code: result.code }, 'routing hierarchy not built');
        this.entries.delete(key);
        return undefined;
      }
      const { hierarchy, buildMs, shortcuts } = result.value;
      this.logger.info({ metric: key, buildMs: Math.round(buildMs), nodes: hierarchy.nodeCount, shortcuts }, 'routing hierarchy built');
      return hierarchy;
    } catch (error) {
      this.logger.warn({ metric: key, err: error }, 'routing hierarchy build failed');
      this.entries.delete(key);
      return undefined;
    }
  }
}
