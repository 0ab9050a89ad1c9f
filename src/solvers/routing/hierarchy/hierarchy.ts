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
  /** Contraction order (node → rank): a search only climbs in rank. Search labels are indexed by rank. */
  rank: Uint32Array;
  /** The inverse of `rank` (rank → node). */
  rankNode: Uint32Array;
  /**
   * Arcs to higher ranks leaving each node (forward search), CSR indexed by rank: the nodes of a
   * query's search space sit near each other in these arrays, and each entry carries its head's
   * rank and weight inline so a relaxation reads no other column.
   */
  upFirst: Uint32Array;
  /** Rank of the arc's head. */
  upHead: Uint32Array;
  upWeight: Float64Array;
  /** The arc id, for unpacking. */
  upArc: Uint32Array;
  /** Arcs from higher ranks arriving at each node (backward search), CSR indexed by rank; `downHead` is the rank of the arc's tail. */
  downFirst: Uint32Array;
  downHead: Uint32Array;
  downWeight: Float64Array;
  downArc: Uint32Array;
  /**
   * By rank: the cheapest loop from the node back to itself through lower nodes (an arc id, -1 when
   * none) and its weight (Infinity when none). A route to a point behind its start on the same
   * edge takes it when no loop over higher nodes is cheaper.
   */
  loopArc: Int32Array;
  loopWeight: Float64Array;
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
  'rankNode',
  'upFirst',
  'upHead',
  'upWeight',
  'upArc',
  'downFirst',
  'downHead',
  'downWeight',
  'downArc',
  'loopArc',
  'loopWeight',
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

/** Shortcuts (arcs over two arcs between two nodes) and loops (a node back to itself) the build added. */
export function addedArcCounts(hierarchy: Hierarchy): { shortcuts: number; loops: number } {
  let shortcuts = 0;
  let loops = 0;
  for (let arc = 0; arc < hierarchy.baseArc.length; arc++) {
    if (hierarchy.baseArc[arc]! >= 0) continue;
    if (hierarchy.arcFrom[arc] === hierarchy.arcTo[arc]) loops++;
    else shortcuts++;
  }
  return { shortcuts, loops };
}

/**
 * Appends the search nodes an arc stands for (after its source) to `out`, walking the shortcut tree
 * depth first on `stack` (grown when too small; returned so the caller keeps the larger one).
 */
export function unpackArc(hierarchy: Hierarchy, arc: number, out: number[], stack: Int32Array = new Int32Array(64)): Int32Array {
  const { arcChild1, arcChild2, arcTo } = hierarchy;
  let top = 0;
  stack[top++] = arc;
  while (top > 0) {
    const current = stack[--top]!;
    const first = arcChild1[current]!;
    if (first < 0) {
      out.push(arcTo[current]!);
      continue;
    }
    if (top + 2 > stack.length) {
      const grown = new Int32Array(stack.length * 2);
      grown.set(stack);
      stack = grown;
    }
    stack[top++] = arcChild2[current]!;
    stack[top++] = first;
  }
  return stack;
}
