/**
 * How tasks name a hierarchy. Posting a hierarchy's shared buffers to a worker
 * costs more than a route (about 0.4 ms of CPU per message), so a task carries
 * only the build id; a worker that has not seen that build answers
 * `hierarchy_unknown` and the caller sends it once with the hierarchy attached.
 * Each worker then keeps it (least recently used beyond a bound dropped).
 */
import type { Hierarchy } from './hierarchy.js';

export interface HierarchyRef {
  id: string;
  /** Attached only when the worker asked for it. */
  hierarchy?: Hierarchy;
}

/** The failure code a worker answers for an id it does not hold. */
export const HIERARCHY_UNKNOWN = 'hierarchy_unknown';

/**
 * Hierarchies kept at once, least recently used beyond this dropped: by the main thread's cache
 * (services/routing/hierarchy-cache.ts) and by each worker, one bound for both, so a worker holds every
 * hierarchy the main thread still names. About 2–5 MB each for a city (Monaco 1.9 MB by car, 4.9 MB on foot).
 */
export const MAX_HIERARCHIES = 12;

/** Hierarchies a worker holds. */
export class WorkerHierarchies {
  private readonly byId = new Map<string, Hierarchy>();

  constructor(private readonly capacity: number) {}

  /** The hierarchy a ref names, keeping an attached one; undefined when neither held nor attached. */
  resolve(ref: HierarchyRef): Hierarchy | undefined {
    let hierarchy = this.byId.get(ref.id);
    if (hierarchy) {
      this.byId.delete(ref.id);
    } else {
      hierarchy = ref.hierarchy;
      if (!hierarchy) return undefined;
    }
    this.byId.set(ref.id, hierarchy);
    if (this.byId.size > this.capacity) this.byId.delete(this.byId.keys().next().value!);
    return hierarchy;
  }
}
