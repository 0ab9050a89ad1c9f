import { LRUCache } from 'lru-cache';

/**
 * A bounded cache of values derived from the announced month starts: emptied
 * whenever their generation moves (an announcement changed), so no caller sees
 * a holiday or a flag dated by a month start that no longer holds.
 */
export class GenerationCache<V extends {}> {
  private readonly entries: LRUCache<string, V>;
  private generation: number;

  constructor(
    max: number,
    private readonly source: { readonly generation: number },
  ) {
    this.entries = new LRUCache<string, V>({ max });
    this.generation = source.generation;
  }

  get(key: string, compute: () => V): V {
    if (this.generation !== this.source.generation) {
      this.entries.clear();
      this.generation = this.source.generation;
    }
    let value = this.entries.get(key);
    if (value === undefined) {
      value = compute();
      this.entries.set(key, value);
    }
    return value;
  }
}
