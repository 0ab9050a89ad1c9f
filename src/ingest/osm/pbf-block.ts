/**
 * Decoding of one OSM PBF PrimitiveBlock (string table, primitive groups:
 * nodes, dense nodes, ways, relations) into visitor calls.
 * Format: https://wiki.openstreetmap.org/wiki/PBF_Format
 */
import { IngestError } from '../ingest-error.js';
import { MemberType, newTags, type OsmMember, type OsmPassKinds, type OsmTags, type OsmVisitor } from './osm-visitor.js';
import { readDeltaSVarints, WIRE_BYTES, WireReader, withCapacity } from './wire-reader.js';

export const KIND_NODES = 1;
export const KIND_WAYS = 2;
export const KIND_RELATIONS = 4;

const utf8 = new TextDecoder('utf-8');

/** Decodes PrimitiveBlocks for one pass; reuses its readers and scratch arrays across blocks. */
export class BlockDecoder {
  entities = 0;
  private buffer: Uint8Array = new Uint8Array(0);
  /** The block's string table: byte offset and length of string i at [2i], [2i + 1]; decoded on first use. */
  private readonly stringOffsets: number[] = [];
  private strings: (string | undefined)[] = [];
  private stringCount = 0;
  private readonly block = new WireReader();
  private readonly group = new WireReader();
  private readonly element = new WireReader();
  private readonly keys = new WireReader();
  private readonly vals = new WireReader();
  /** A dense node block's ids, lats and lons, and a way's references (running sums already applied). */
  private ids: Float64Array = new Float64Array(1024);
  private lats: Float64Array = new Float64Array(1024);
  private lons: Float64Array = new Float64Array(1024);
  private refs: Float64Array = new Float64Array(1024);
  private memberIds: Float64Array = new Float64Array(64);
  private granularity = 100;
  private latOffset = 0;
  private lonOffset = 0;

  constructor(
    private readonly visitor: OsmVisitor,
    private readonly kinds: OsmPassKinds,
  ) {}

  /** Decodes one block; returns the kinds it contains. */
  decode(data: Uint8Array): number {
    const block = this.block.reset(data, 0, data.length);
    this.buffer = data;
    this.stringOffsets.length = 0;
    this.granularity = 100;
    this.latOffset = this.lonOffset = 0;
    const groups: number[] = [];
    while (block.more) {
      const tag = block.varint();
      const field = tag >>> 3;
      if (field === 1 && (tag & 7) === WIRE_BYTES) {
        const end = block.length() + block.pos;
        while (block.pos < end) {
          const inner = block.varint();
          if (inner >>> 3 === 1 && (inner & 7) === WIRE_BYTES) {
            const length = block.length();
            this.stringOffsets.push(block.pos, length);
            block.pos += length;
          } else block.skip(inner & 7);
        }
      } else if (field === 2 && (tag & 7) === WIRE_BYTES) {
        const length = block.length();
        groups.push(block.pos, block.pos + length);
        block.pos += length;
      } else if (field === 17) this.granularity = block.varint();
      else if (field === 19) this.latOffset = block.varint();
      else if (field === 20) this.lonOffset = block.varint();
      else block.skip(tag & 7);
    }
    this.stringCount = this.stringOffsets.length / 2;
    // sized up front: filling a large empty array at scattered indexes would turn it into a dictionary
    this.strings = new Array<string | undefined>(this.stringCount);
    let found = 0;
    const group = this.group;
    for (let index = 0; index < groups.length; index += 2) {
      group.reset(data, groups[index]!, groups[index + 1]!);
      while (group.more) {
        const tag = group.varint();
        const field = tag >>> 3;
        if ((tag & 7) !== WIRE_BYTES) {
          group.skip(tag & 7);
          continue;
        }
        const length = group.length();
        const start = group.pos;
        group.pos = start + length;
        if (field === 1) {
          found |= KIND_NODES;
          if (this.kinds.nodes) this.node(start, start + length);
        } else if (field === 2) {
          found |= KIND_NODES;
          if (this.kinds.nodes) this.denseNodes(start, start + length);
        } else if (field === 3) {
          found |= KIND_WAYS;
          if (this.kinds.ways) this.way(start, start + length);
        } else if (field === 4) {
          found |= KIND_RELATIONS;
          if (this.kinds.relations) this.relation(start, start + length);
        }
      }
    }
    return found;
  }

  private string(index: number): string {
    let value = this.strings[index];
    if (value === undefined) {
      if (!(index >= 0 && index < this.stringCount)) throw new IngestError('corrupt', `string table index ${index} out of range`);
      const offset = this.stringOffsets[index * 2]!;
      value = utf8.decode(this.buffer.subarray(offset, offset + this.stringOffsets[index * 2 + 1]!));
      this.strings[index] = value;
    }
    return value;
  }

  /** The tags of the key and value index lists in `keys` and `vals` (packed varints, read in step). */
  private tagsOf(): OsmTags {
    const { keys, vals } = this;
    const tags = newTags();
    while (keys.more) tags[this.string(keys.varint())] = this.string(vals.more ? vals.varint() : 0);
    return tags;
  }

  private coordinate(offset: number, value: number): number {
    return (offset + this.granularity * value) / 1e9;
  }

  private node(start: number, end: number): void {
    const element = this.element.reset(this.buffer, start, end);
    this.keys.reset(this.buffer, 0, 0);
    this.vals.reset(this.buffer, 0, 0);
    let id = 0;
    let lat = 0;
    let lon = 0;
    while (element.more) {
      const tag = element.varint();
      const field = tag >>> 3;
      if (field === 1) id = element.svarint();
      else if ((field === 2 || field === 3) && (tag & 7) === WIRE_BYTES) this.packedField(field === 2 ? this.keys : this.vals);
      else if (field === 8) lat = element.svarint();
      else if (field === 9) lon = element.svarint();
      else element.skip(tag & 7);
    }
    this.entities++;
    const tags = this.keys.more ? this.tagsOf() : null;
    this.visitor.node!(id, this.coordinate(this.latOffset, lat), this.coordinate(this.lonOffset, lon), tags);
  }

  /** Points `into` at the packed field under the element cursor and skips the element past it. */
  private packedField(into: WireReader): void {
    const element = this.element;
    const length = element.length();
    into.reset(this.buffer, element.pos, element.pos + length);
    element.pos += length;
  }

  /**
   * Dense nodes: the id, lat and lon columns (delta-coded zigzag varints) are
   * each decoded in one tight loop, then visited with the keys_vals column
   * read alongside: this is the loop that sees every node of the file.
   */
  private denseNodes(start: number, end: number): void {
    const data = this.buffer;
    const element = this.element.reset(data, start, end);
    const keyVals = this.keys.reset(data, 0, 0);
    let count = -1;
    let latCount = -1;
    let lonCount = -1;
    while (element.more) {
      const tag = element.varint();
      const field = tag >>> 3;
      if ((field === 1 || field === 8 || field === 9 || field === 10) && (tag & 7) === WIRE_BYTES) {
        const length = element.length();
        const at = element.pos;
        element.pos += length;
        if (field === 1) count = readDeltaSVarints(data, at, at + length, (this.ids = withCapacity(this.ids, length)));
        else if (field === 8) latCount = readDeltaSVarints(data, at, at + length, (this.lats = withCapacity(this.lats, length)));
        else if (field === 9) lonCount = readDeltaSVarints(data, at, at + length, (this.lons = withCapacity(this.lons, length)));
        else keyVals.reset(data, at, at + length);
      } else element.skip(tag & 7);
    }
    if (count < 0) return;
    if (latCount !== count || lonCount !== count) throw new IngestError('corrupt', 'dense node block whose coordinates do not match its ids');
    const { ids, lats, lons, latOffset, lonOffset, granularity } = this;
    const visit = this.visitor.node!;
    for (let index = 0; index < count; index++) {
      let tags: OsmTags | null = null;
      if (keyVals.more) {
        let key = keyVals.varint();
        if (key !== 0) {
          tags = newTags();
          while (key !== 0) {
            tags[this.string(key)] = this.string(keyVals.more ? keyVals.varint() : 0);
            key = keyVals.more ? keyVals.varint() : 0;
          }
        }
      }
      visit(ids[index]!, (latOffset + granularity * lats[index]!) / 1e9, (lonOffset + granularity * lons[index]!) / 1e9, tags);
    }
    this.entities += count;
  }

  /** Reads a way's or relation's id, keys and vals, handing other fields to `other` (which consumes them). */
  private elementFields(start: number, end: number, other: (field: number, wireType: number) => void): number {
    const element = this.element.reset(this.buffer, start, end);
    this.keys.reset(this.buffer, 0, 0);
    this.vals.reset(this.buffer, 0, 0);
    let id = 0;
    while (element.more) {
      const tag = element.varint();
      const field = tag >>> 3;
      if (field === 1) id = element.varint();
      else if ((field === 2 || field === 3) && (tag & 7) === WIRE_BYTES) this.packedField(field === 2 ? this.keys : this.vals);
      else other(field, tag & 7);
    }
    return id;
  }

  private refCount = 0;
  private readonly wayField = (field: number, wireType: number): void => {
    const element = this.element;
    if (field === 8 && wireType === WIRE_BYTES) {
      const length = element.length();
      this.refCount = readDeltaSVarints(this.buffer, element.pos, element.pos + length, (this.refs = withCapacity(this.refs, length)));
      element.pos += length;
    } else element.skip(wireType);
  };

  private way(start: number, end: number): void {
    this.refCount = 0;
    const id = this.elementFields(start, end, this.wayField);
    this.entities++;
    this.visitor.way!(id, this.refs.subarray(0, this.refCount), this.tagsOf());
  }

  private readonly roles = new WireReader();
  private readonly memberTypes = new WireReader();
  private memberCount = 0;
  private readonly relationField = (field: number, wireType: number): void => {
    if (field === 8 && wireType === WIRE_BYTES) this.packedField(this.roles);
    else if (field === 9 && wireType === WIRE_BYTES) {
      const element = this.element;
      const length = element.length();
      this.memberCount = readDeltaSVarints(this.buffer, element.pos, element.pos + length, (this.memberIds = withCapacity(this.memberIds, length)));
      element.pos += length;
    } else if (field === 10 && wireType === WIRE_BYTES) this.packedField(this.memberTypes);
    else this.element.skip(wireType);
  };

  private relation(start: number, end: number): void {
    const { roles, memberTypes } = this;
    roles.reset(this.buffer, 0, 0);
    memberTypes.reset(this.buffer, 0, 0);
    this.memberCount = 0;
    const id = this.elementFields(start, end, this.relationField);
    const memberIds = this.memberIds; // (after reading: it may have grown)
    const members: OsmMember[] = [];
    for (let index = 0; index < this.memberCount; index++) {
      const type = memberTypes.more ? memberTypes.varint() : 0;
      members.push({ type: type as MemberType, ref: memberIds[index]!, role: this.string(roles.more ? roles.varint() : 0) });
    }
    this.entities++;
    this.visitor.relation!(id, members, this.tagsOf());
  }
}
