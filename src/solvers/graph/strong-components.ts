/**
 * Strongly connected components of a directed graph in CSR form (iterative
 * Tarjan, no recursion so large graphs do not overflow the stack). Snapping
 * uses them to keep locations off small islands (a private car park, a
 * one-way loop) from which the rest of the network cannot be reached.
 */
export interface StrongComponents {
  /** Component id per node. */
  componentOf: Uint32Array;
  /** Size of each component. */
  sizes: number[];
  /** The id of the largest component. */
  largest: number;
}

export function strongComponents(nodeCount: number, first: Uint32Array, target: Uint32Array, include: (node: number) => boolean): StrongComponents {
  const UNSEEN = -1;
  const index = new Int32Array(nodeCount).fill(UNSEEN);
  const low = new Int32Array(nodeCount);
  const onStack = new Uint8Array(nodeCount);
  const componentOf = new Uint32Array(nodeCount);
  const stack: number[] = [];
  const callNode: number[] = [];
  const callArc: number[] = [];
  const sizes: number[] = [];
  let counter = 0;
  for (let root = 0; root < nodeCount; root++) {
    if (index[root] !== UNSEEN || !include(root)) continue;
    callNode.push(root);
    callArc.push(first[root]!);
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (callNode.length) {
      const node = callNode[callNode.length - 1]!;
      const arc = callArc[callArc.length - 1]!;
      if (arc < first[node + 1]!) {
        callArc[callArc.length - 1] = arc + 1;
        const next = target[arc]!;
        if (!include(next)) continue;
        if (index[next] === UNSEEN) {
          index[next] = low[next] = counter++;
          stack.push(next);
          onStack[next] = 1;
          callNode.push(next);
          callArc.push(first[next]!);
        } else if (onStack[next]) low[node] = Math.min(low[node]!, index[next]!);
        continue;
      }
      callNode.pop();
      callArc.pop();
      if (callNode.length) {
        const parent = callNode[callNode.length - 1]!;
        low[parent] = Math.min(low[parent]!, low[node]!);
      }
      if (low[node] === index[node]) {
        const id = sizes.length;
        let size = 0;
        let member: number;
        do {
          member = stack.pop()!;
          onStack[member] = 0;
          componentOf[member] = id;
          size++;
        } while (member !== node);
        sizes.push(size);
      }
    }
  }
  let largest = 0;
  for (let id = 1; id < sizes.length; id++) if (sizes[id]! > sizes[largest]!) largest = id;
  return { componentOf, sizes, largest };
}
