/** The pack's string table: UTF-8 bytes addressed by id, decoded on demand and cached. */
import type { PackSections } from './pack-layout.js';

const utf8 = new TextDecoder('utf-8');

export class PackStrings {
  private readonly cache = new Map<number, string>();

  constructor(private readonly sections: Pick<PackSections, 'strings.offsets' | 'strings.bytes'>) {}

  get count(): number {
    return Math.max(0, this.sections['strings.offsets'].length - 1);
  }

  get(id: number): string {
    if (id === 0) return '';
    let value = this.cache.get(id);
    if (value === undefined) {
      const offsets = this.sections['strings.offsets'];
      if (id < 0 || id + 1 >= offsets.length) throw new RangeError(`string id ${id} out of range`);
      value = utf8.decode(this.sections['strings.bytes'].subarray(offsets[id]!, offsets[id + 1]!));
      this.cache.set(id, value);
    }
    return value;
  }

  /** The string, or undefined for id 0 (the empty string means "not tagged"). */
  optional(id: number): string | undefined {
    return id === 0 ? undefined : this.get(id);
  }
}
