/**
 * The labels of one search direction: distance and the arc that reached each
 * node, plus the heap. Allocated once per graph and reset in time
 * proportional to what the last search touched.
 */
import { IndexedHeap } from './indexed-heap.js';

export class SearchSpace {
  readonly distance: Float64Array;
  /** The arc that set the node's distance; -1 for a seed. */
  readonly parentArc: Int32Array;
  readonly heap: IndexedHeap;
  private readonly touched: Int32Array;
  private touchedCount = 0;
  /** Nodes taken off the heap in the current search. */
  settledCount = 0;

  constructor(readonly capacity: number) {
    this.distance = new Float64Array(capacity).fill(Infinity);
    this.parentArc = new Int32Array(capacity).fill(-1);
    this.heap = new IndexedHeap(capacity);
    this.touched = new Int32Array(capacity);
  }

  reset(): void {
    for (let index = 0; index < this.touchedCount; index++) {
      const node = this.touched[index]!;
      this.distance[node] = Infinity;
      this.parentArc[node] = -1;
    }
    this.touchedCount = 0;
    this.settledCount = 0;
    this.heap.clear();
  }

  /** Sets a better label and queues the node; returns false when the label was not better. */
  relax(node: number, distance: number, arc: number): boolean {
    if (!this.label(node, distance, arc)) return false;
    this.heap.push(node, distance);
    return true;
  }

  /** Sets a better label without queueing the node; returns false when the label was not better. */
  label(node: number, distance: number, arc: number): boolean {
    const current = this.distance[node]!;
    if (distance >= current) return false;
    if (current === Infinity) this.touched[this.touchedCount++] = node;
    this.distance[node] = distance;
    this.parentArc[node] = arc;
    return true;
  }
}

/** A starting (or ending) point of a search: a node and its initial label. */
export interface Seed {
  node: number;
  distance: number;
}
