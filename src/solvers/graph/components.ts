/**
 * Weakly connected components of the road graph (edges taken as undirected),
 * by union-find with path halving. Used for the pack's connectivity statistic
 * and, later, to keep snapping off tiny disconnected islands.
 */
export interface ComponentSummary {
  /** Component id per node (the id of its root). */
  componentOf: Uint32Array;
  count: number;
  largestSize: number;
  largestRoot: number;
}

export function connectedComponents(
  nodeCount: number,
  edgeSource: ArrayLike<number>,
  edgeTarget: ArrayLike<number>,
  include: (edge: number) => boolean = () => true,
): ComponentSummary {
  const parent = new Uint32Array(nodeCount);
  for (let node = 0; node < nodeCount; node++) parent[node] = node;
  const find = (node: number): number => {
    while (parent[node] !== node) {
      parent[node] = parent[parent[node]!]!;
      node = parent[node]!;
    }
    return node;
  };
  for (let edge = 0; edge < edgeSource.length; edge++) {
    if (!include(edge)) continue;
    const a = find(edgeSource[edge]!);
    const b = find(edgeTarget[edge]!);
    if (a !== b) parent[a < b ? b : a] = a < b ? a : b;
  }
  const sizes = new Uint32Array(nodeCount);
  let count = 0;
  let largestSize = 0;
  let largestRoot = 0;
  for (let node = 0; node < nodeCount; node++) {
    const root = find(node);
    parent[node] = root;
    sizes[root] = sizes[root]! + 1;
    if (sizes[root] === 1) count++;
    if (sizes[root]! > largestSize) {
      largestSize = sizes[root]!;
      largestRoot = root;
    }
  }
  return { componentOf: parent, count, largestSize, largestRoot };
}
