/**
 * Many-to-many on a contraction hierarchy (bucket method): one upward backward
 * search per target leaves (target, weight) entries in buckets at the nodes it
 * settles; one upward forward search per source scans the buckets of the nodes
 * it settles. Time and length ride along the weight, so the matrix reports
 * the seconds and metres of the least-weight path.
 */
import { IndexedHeap } from '../search/indexed-heap.js';
import type { Hierarchy } from './hierarchy.js';

/** A seed with the time and length already travelled (negative for the untravelled part of a target edge). */
export interface MatrixSeed {
  node: number;
  weight: number;
  seconds: number;
  meters: number;
}

export interface MatrixResult {
  /** Row-major sources × targets; NaN where no path exists. */
  seconds: Float64Array;
  meters: Float64Array;
  weight: Float64Array;
}

class UpwardSearch {
  readonly weight: Float64Array;
  readonly seconds: Float64Array;
  readonly meters: Float64Array;
  readonly heap: IndexedHeap;
  readonly settled: number[] = [];
  private touched: number[] = [];

  constructor(n: number) {
    this.weight = new Float64Array(n).fill(Infinity);
    this.seconds = new Float64Array(n);
    this.meters = new Float64Array(n);
    this.heap = new IndexedHeap(n);
  }

  /** Searches upward from the seeds; labels and `settled` are by rank. */
  run(h: Hierarchy, seeds: readonly MatrixSeed[], forward: boolean): void {
    for (const node of this.touched) this.weight[node] = Infinity;
    this.touched = [];
    this.settled.length = 0;
    this.heap.clear();
    for (const seed of seeds) this.relax(h.rank[seed.node]!, seed.weight, seed.seconds, seed.meters);
    const [first, head, arcWeight, arcs] = forward ? [h.upFirst, h.upHead, h.upWeight, h.upArc] : [h.downFirst, h.downHead, h.downWeight, h.downArc];
    const [stallFirst, stallHead, stallWeight] = forward ? [h.downFirst, h.downHead, h.downWeight] : [h.upFirst, h.upHead, h.upWeight];
    while (this.heap.size) {
      const node = this.heap.pop();
      const base = this.weight[node]!;
      let stalled = false;
      for (let index = stallFirst[node]!; index < stallFirst[node + 1]! && !stalled; index++) {
        if (this.weight[stallHead[index]!]! + stallWeight[index]! < base) stalled = true;
      }
      if (stalled) continue;
      this.settled.push(node);
      for (let index = first[node]!; index < first[node + 1]!; index++) {
        const arc = arcs[index]!;
        this.relax(head[index]!, base + arcWeight[index]!, this.seconds[node]! + h.arcSeconds[arc]!, this.meters[node]! + h.arcMeters[arc]!);
      }
    }
  }

  private relax(node: number, weight: number, seconds: number, meters: number): void {
    if (weight >= this.weight[node]!) return;
    if (this.weight[node] === Infinity) this.touched.push(node);
    this.weight[node] = weight;
    this.seconds[node] = seconds;
    this.meters[node] = meters;
    this.heap.push(node, weight);
  }
}

export function hierarchyMatrix(h: Hierarchy, sources: readonly MatrixSeed[][], targets: readonly MatrixSeed[][]): MatrixResult {
  const n = h.nodeCount;
  const search = new UpwardSearch(n);
  const head = new Int32Array(n).fill(-1);
  const next: number[] = [];
  const entryTarget: number[] = [];
  const entryWeight: number[] = [];
  const entrySeconds: number[] = [];
  const entryMeters: number[] = [];
  for (let target = 0; target < targets.length; target++) {
    search.run(h, targets[target]!, false);
    for (const node of search.settled) {
      next.push(head[node]!);
      head[node] = entryTarget.length;
      entryTarget.push(target);
      entryWeight.push(search.weight[node]!);
      entrySeconds.push(search.seconds[node]!);
      entryMeters.push(search.meters[node]!);
    }
  }
  const cells = sources.length * targets.length;
  const weight = new Float64Array(cells).fill(Infinity);
  const seconds = new Float64Array(cells).fill(NaN);
  const meters = new Float64Array(cells).fill(NaN);
  for (let source = 0; source < sources.length; source++) {
    search.run(h, sources[source]!, true);
    const row = source * targets.length;
    for (const node of search.settled) {
      const w = search.weight[node]!;
      for (let entry = head[node]!; entry >= 0; entry = next[entry]!) {
        const direct = w + entryWeight[entry]!;
        const cell = row + entryTarget[entry]!;
        // a negative total is a target behind the source on one edge: the way there leaves the edge and comes back
        const loop = direct < 0 ? h.loopArc[node]! : -1;
        const total = loop >= 0 ? direct + h.loopWeight[node]! : direct;
        if (total < 0 || total >= weight[cell]!) continue;
        weight[cell] = total;
        seconds[cell] = search.seconds[node]! + entrySeconds[entry]! + (loop >= 0 ? h.arcSeconds[loop]! : 0);
        meters[cell] = search.meters[node]! + entryMeters[entry]! + (loop >= 0 ? h.arcMeters[loop]! : 0);
      }
    }
  }
  for (let cell = 0; cell < cells; cell++) if (weight[cell] === Infinity) weight[cell] = NaN;
  return { seconds, meters, weight };
}
