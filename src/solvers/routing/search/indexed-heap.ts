/**
 * A binary min-heap of node ids keyed by float, with decrease-key, over typed
 * arrays sized once for the graph. Searches reuse one heap: `clear()` costs
 * only the entries still queued.
 */
export class IndexedHeap {
  private readonly heap: Int32Array;
  private readonly keys: Float64Array;
  /** Position of a node in `heap`, -1 when not queued. */
  private readonly position: Int32Array;
  private count = 0;

  constructor(capacity: number) {
    this.heap = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
    this.position = new Int32Array(capacity).fill(-1);
  }

  get size(): number {
    return this.count;
  }

  get minKey(): number {
    return this.count ? this.keys[this.heap[0]!]! : Infinity;
  }

  has(node: number): boolean {
    return this.position[node] !== -1;
  }

  /** Inserts the node or lowers its key (a higher key is ignored). */
  push(node: number, key: number): void {
    const at = this.position[node]!;
    if (at === -1) {
      this.keys[node] = key;
      this.heap[this.count] = node;
      this.position[node] = this.count;
      this.up(this.count++);
    } else if (key < this.keys[node]!) {
      this.keys[node] = key;
      this.up(at);
    }
  }

  /** Sets the key of a queued node, higher or lower. */
  update(node: number, key: number): void {
    const at = this.position[node]!;
    if (at === -1) return this.push(node, key);
    const old = this.keys[node]!;
    this.keys[node] = key;
    if (key < old) this.up(at);
    else this.down(at);
  }

  pop(): number {
    const top = this.heap[0]!;
    this.position[top] = -1;
    const last = this.heap[--this.count]!;
    if (this.count > 0) {
      this.heap[0] = last;
      this.position[last] = 0;
      this.down(0);
    }
    return top;
  }

  clear(): void {
    for (let index = 0; index < this.count; index++) this.position[this.heap[index]!] = -1;
    this.count = 0;
  }

  private up(index: number): void {
    const heap = this.heap;
    const node = heap[index]!;
    const key = this.keys[node]!;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex]!;
      if (this.keys[parent]! <= key) break;
      heap[index] = parent;
      this.position[parent] = index;
      index = parentIndex;
    }
    heap[index] = node;
    this.position[node] = index;
  }

  private down(index: number): void {
    const heap = this.heap;
    const node = heap[index]!;
    const key = this.keys[node]!;
    const half = this.count >> 1;
    while (index < half) {
      let child = 2 * index + 1;
      const right = child + 1;
      if (right < this.count && this.keys[heap[right]!]! < this.keys[heap[child]!]!) child = right;
      const childNode = heap[child]!;
      if (this.keys[childNode]! >= key) break;
      heap[index] = childNode;
      this.position[childNode] = index;
      index = child;
    }
    heap[index] = node;
    this.position[node] = index;
  }
}
