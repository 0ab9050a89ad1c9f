/** Collects distinct strings for the pack's string table; id 0 is the empty string ("not tagged"). */
export class StringTableBuilder {
  private readonly ids = new Map<string, number>([['', 0]]);
  private readonly values: string[] = [''];

  id(value: string | undefined): number {
    if (!value) return 0;
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  get count(): number {
    return this.values.length;
  }

  build(): { offsets: Uint32Array; bytes: Uint8Array } {
    const encoded = this.values.map((value) => Buffer.from(value, 'utf8'));
    const offsets = new Uint32Array(encoded.length + 1);
    let total = 0;
    encoded.forEach((bytes, index) => {
      offsets[index] = total;
      total += bytes.length;
    });
    offsets[encoded.length] = total;
    const bytes = new Uint8Array(total);
    encoded.forEach((value, index) => bytes.set(value, offsets[index]!));
    return { offsets, bytes };
  }
}
