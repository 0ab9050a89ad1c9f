/**
 * A contraction hierarchy over one edge-based graph, as flat typed arrays so
 * it can live in SharedArrayBuffers and be searched by every worker without a
 * copy. Arc ids index the arc columns; an arc is an original turn of the
 * edge graph (`baseArc` ≥ 0) or a shortcut over two arcs (`child1`, `child2`).
 */
export interface Hierarchy {
  /**
   * Identifies this build: posted hierarchies arrive as new objects over the same shared memory,
   * so workers recognise one they already prepared a search for by this id.
   */
  id: string;
  nodeCount: number;
  /** Contraction order: a search only climbs to higher ranks. */
  rank: Uint32Array;
  /** Arcs leaving a node to higher ranks (forward search), CSR by node. */
  upFirst: Uint32Array;
  upArcs: Uint32Array;
  /** Arcs arriving at a node from higher ranks (backward search), CSR by node. */
  downFirst: Uint32Array;
  downArcs: Uint32Array;
  arcFrom: Uint32Array;
  arcTo: Uint32Array;
  arcWeight: Float64Array;
  /** Time and length of the arc's unpacked path (turns and the edges entered), for matrices. */
  arcSeconds: Float64Array;
  arcMeters: Float64Array;
  arcChild1: Int32Array;
  arcChild2: Int32Array;
  /** The edge graph's arc for an original arc, -1 for shortcuts. */
  baseArc: Int32Array;
}

export const HIERARCHY_COLUMNS = [
  'rank',
  'upFirst',
  'upArcs',
  'downFirst',
  'downArcs',
  'arcFrom',
  'arcTo',
  'arcWeight',
  'arcSeconds',
  'arcMeters',
  'arcChild1',
  'arcChild2',
  'baseArc',
] as const satisfies readonly (keyof Hierarchy)[];

/** Copies every column into its own SharedArrayBuffer, so posting the hierarchy shares instead of copies. */
export function shareHierarchy(hierarchy: Hierarchy): Hierarchy {
  const shared = { id: hierarchy.id, nodeCount: hierarchy.nodeCount } as Hierarchy;
  for (const column of HIERARCHY_COLUMNS) {
    const source = hierarchy[column];
    const buffer = new SharedArrayBuffer(source.byteLength);
    new Uint8Array(buffer).set(new Uint8Array(source.buffer, source.byteOffset, source.byteLength));
    const Ctor = source.constructor as new (buffer: SharedArrayBuffer) => typeof source;
    (shared as unknown as Record<string, unknown>)[column] = new Ctor(buffer);
  }
  return shared;
}

/** Appends the search nodes an arc stands for (after its source) to `out`. */
export function unpackArc(hierarchy: Hierarchy, arc: number, out: number[]): void {
  const stack = [arc];
  while (stack.length) {
    const current = stack.pop()!;
    const first = hierarchy.arcChild1[current]!;
    if (first < 0) out.push(hierarchy.arcTo[current]!);
    else stack.push(hierarchy.arcChild2[current]!, first);
  }
}
