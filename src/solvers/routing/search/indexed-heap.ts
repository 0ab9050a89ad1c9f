/**
 * A binary min-heap of node ids keyed by float, with decrease-key, over typed
 * arrays sized once for the graph. Searches reuse one heap: `clear()` costs
 * only the entries still queued. Keys sit beside their nodes in heap order, so
 * sifting compares neighbouring slots instead of reading keys scattered by
 * node id.
 */
export class IndexedHeap {
  private readonly heap: Int32Array;
  /** `keys[i]` is the key of `heap[i]`. */
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
    return this.count ? this.keys[0]! : Infinity;
  }

  has(node: number): boolean {
    return this.position[node] !== -1;
  }

  /** Inserts the node or lowers its key (a higher key is ignored). */
  push(node: number, key: number): void {
    const at = this.position[node]!;
    if (at === -1) this.up(this.count++, node, key);
    else if (key < this.keys[at]!) this.up(at, node, key);
  }

  /** Sets the key of a queued node, higher or lower. */
  update(node: number, key: number): void {
    const at = this.position[node]!;
    if (at === -1) return this.push(node, key);
    if (key < this.keys[at]!) this.up(at, node, key);
    else this.down(at, node, key);
  }

  pop(): number {
    const top = this.heap[0]!;
    this.position[top] = -1;
    const last = --this.count;
    if (last > 0) this.down(0, this.heap[last]!, this.keys[last]!);
    return top;
  }

  clear(): void {
    for (let index = 0; index < this.count; index++) this.position[this.heap[index]!] = -1;
    this.count = 0;
  }

  /** Moves the hole at `index` up until `node` with `key` fits there. */
  private up(index: number, node: number, key: number): void {
    const { heap, keys, position } = this;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parentKey = keys[parentIndex]!;
      if (parentKey <= key) break;
      const parent = heap[parentIndex]!;
      heap[index] = parent;
      keys[index] = parentKey;
      position[parent] = index;
      index = parentIndex;
    }
    heap[index] = node;
    keys[index] = key;
    position[node] = index;
  }

  /** Moves the hole at `index` down until `node` with `key` fits there. */
  private down(index: number, node: number, key: number): void {
    const { heap, keys, position } = this;
    const count = this.count;
    const half = count >> 1;
    while (index < half) {
      let child = 2 * index + 1;
      let childKey = keys[child]!;
      const right = child + 1;
      if (right < count && keys[right]! < childKey) {
        child = right;
        childKey = keys[right]!;
      }
      if (childKey >= key) break;
      const childNode = heap[child]!;
      heap[index] = childNode;
      keys[index] = childKey;
      position[childNode] = index;
      index = child;
    }
    heap[index] = node;
    keys[index] = key;
    position[node] = index;
  }
}
