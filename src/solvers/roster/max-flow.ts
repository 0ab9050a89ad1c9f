/** Dinic's maximum flow on a directed graph with integer capacities (adjacency in flat arrays). */
export class FlowNetwork {
  private head: Int32Array;
  private next: number[] = [];
  private to: number[] = [];
  private capacity: number[] = [];
  private level: Int32Array;
  private cursor: Int32Array;

  constructor(readonly nodeCount: number) {
    this.head = new Int32Array(nodeCount).fill(-1);
    this.level = new Int32Array(nodeCount);
    this.cursor = new Int32Array(nodeCount);
  }

  /** Adds an arc and its residual twin; returns the arc's id (flow on it: `flow(id)`). */
  addArc(from: number, to: number, capacity: number): number {
    const id = this.to.length;
    this.to.push(to, from);
    this.capacity.push(capacity, 0);
    this.next.push(this.head[from]!, this.head[to]!);
    this.head[from] = id;
    this.head[to] = id + 1;
    return id;
  }

  /** Adds capacity to an arc; a later maxFlow continues from the current flow. */
  raise(arc: number, amount: number): void {
    this.capacity[arc]! += amount;
  }

  flow(arc: number): number {
    return this.capacity[arc + 1]!;
  }

  maxFlow(source: number, sink: number): number {
    let total = 0;
    while (this.levels(source, sink)) {
      this.cursor.set(this.head);
      for (let pushed = this.push(source, sink, Infinity); pushed > 0; pushed = this.push(source, sink, Infinity)) total += pushed;
    }
    return total;
  }

  /** Nodes reachable from the source in the residual graph after maxFlow: the source side of a minimum cut. */
  sourceSide(source: number): Uint8Array {
    const seen = new Uint8Array(this.nodeCount);
    const queue = [source];
    seen[source] = 1;
    while (queue.length) {
      const node = queue.pop()!;
      for (let arc = this.head[node]!; arc >= 0; arc = this.next[arc]!) {
        if (this.capacity[arc]! > 0 && !seen[this.to[arc]!]) {
          seen[this.to[arc]!] = 1;
          queue.push(this.to[arc]!);
        }
      }
    }
    return seen;
  }

  private levels(source: number, sink: number): boolean {
    this.level.fill(-1);
    this.level[source] = 0;
    const queue = [source];
    for (let at = 0; at < queue.length; at++) {
      const node = queue[at]!;
      for (let arc = this.head[node]!; arc >= 0; arc = this.next[arc]!) {
        const target = this.to[arc]!;
        if (this.capacity[arc]! > 0 && this.level[target]! < 0) {
          this.level[target] = this.level[node]! + 1;
          queue.push(target);
        }
      }
    }
    return this.level[sink]! >= 0;
  }

  /** One augmenting path in the level graph (iterative, so deep graphs cannot overflow the stack). */
  private push(source: number, sink: number, limit: number): number {
    const path: number[] = [];
    let node = source;
    while (true) {
      if (node === sink) {
        let amount = limit;
        for (const arc of path) amount = Math.min(amount, this.capacity[arc]!);
        for (const arc of path) {
          this.capacity[arc]! -= amount;
          this.capacity[arc ^ 1]! += amount;
        }
        return amount;
      }
      let advanced = false;
      for (let arc = this.cursor[node]!; arc >= 0; arc = this.next[arc]!) {
        const target = this.to[arc]!;
        if (this.capacity[arc]! > 0 && this.level[target] === this.level[node]! + 1) {
          this.cursor[node] = arc;
          path.push(arc);
          node = target;
          advanced = true;
          break;
        }
      }
      if (advanced) continue;
      this.cursor[node] = -1;
      this.level[node] = -1;
      if (!path.length) return 0;
      const back = path.pop()!;
      node = this.to[back ^ 1]!;
      this.cursor[node] = this.next[this.cursor[node]!]!;
    }
  }
}
