/**
 * Joins the member ways of a multipolygon into closed rings by matching end
 * node ids (ways may be digitised in either direction). Rings that cannot be
 * closed (members outside the extract) are dropped.
 */
export type NodeChain = number[];

export function assembleRings(chains: NodeChain[]): NodeChain[] {
  const rings: NodeChain[] = [];
  const open: NodeChain[] = [];
  for (const chain of chains) {
    if (chain.length < 2) continue;
    if (chain.length >= 4 && chain[0] === chain[chain.length - 1]) rings.push(chain);
    else open.push(chain);
  }
  const used = new Uint8Array(open.length);
  const byEnd = new Map<number, number[]>();
  const index = (node: number, chain: number) => {
    const list = byEnd.get(node);
    if (list) list.push(chain);
    else byEnd.set(node, [chain]);
  };
  open.forEach((chain, position) => {
    index(chain[0]!, position);
    index(chain[chain.length - 1]!, position);
  });
  for (let start = 0; start < open.length; start++) {
    if (used[start]) continue;
    used[start] = 1;
    const ring = [...open[start]!];
    let extended = true;
    while (ring[0] !== ring[ring.length - 1] && extended) {
      extended = false;
      const tail = ring[ring.length - 1]!;
      for (const candidate of byEnd.get(tail) ?? []) {
        if (used[candidate]) continue;
        const chain = open[candidate]!;
        used[candidate] = 1;
        const oriented = chain[0] === tail ? chain : [...chain].reverse();
        for (let point = 1; point < oriented.length; point++) ring.push(oriented[point]!);
        extended = true;
        break;
      }
    }
    if (ring.length >= 4 && ring[0] === ring[ring.length - 1]) rings.push(ring);
  }
  return rings;
}
