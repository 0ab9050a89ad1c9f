/**
 * Decoding of one OSM PBF PrimitiveBlock (string table, primitive groups:
 * nodes, dense nodes, ways, relations) into visitor calls.
 * Format: https://wiki.openstreetmap.org/wiki/PBF_Format
 */
import { PbfReader as Pbf } from 'pbf';
import { IngestError } from '../ingest-error.js';
import { MemberType, newTags, type OsmMember, type OsmPassKinds, type OsmTags, type OsmVisitor } from './osm-visitor.js';
import { readDeltaSVarints, startDeltaRun, withCapacity, type DeltaRun } from './delta-varints.js';

export const KIND_NODES = 1;
export const KIND_WAYS = 2;
export const KIND_RELATIONS = 4;

const utf8 = new TextDecoder('utf-8');
/**
 * Dense nodes are decoded this many at a time (3 × 32 KiB of columns). Whole
 * columns, sized by their byte length, took 1.4 + 2.4 + 3.7 MiB for Monaco's
 * one dense block of 180 k nodes: promoted to old space while the block was
 * visited, so only a full GC, which the ingest rarely gets, would free them.
 */
export const DENSE_CHUNK_NODES = 4096;
const newRun = (): DeltaRun => ({ pos: 0, end: 0, sum: 0 });

/** Decodes PrimitiveBlocks for one pass; reuses its scratch arrays across blocks. */
export class BlockDecoder {
  entities = 0;
  private stringOffsets: number[] = [];
  private strings: (string | undefined)[] = [];
  private buffer: Uint8Array = new Uint8Array(0);
  private readonly keyVals: number[] = [];
  private readonly keys: number[] = [];
  private readonly vals: number[] = [];
  /** A chunk of a dense node block's ids, lats and lons, running sums applied, and where each column's decoding stands. */
  private readonly ids: Float64Array;
  private readonly lats: Float64Array;
  private readonly lons: Float64Array;
  private readonly idRun = newRun();
  private readonly latRun = newRun();
  private readonly lonRun = newRun();
  /** A way's references, running sums applied (reused, grown as needed). */
  private refs: Float64Array = new Float64Array(1024);
  private readonly refRun = newRun();
  private refCount = 0;
  private readonly roles: number[] = [];
  private readonly memberIds: number[] = [];
  private readonly memberTypes: number[] = [];
  /** One reader per block for its elements, and the element-specific fields, made once (not per element). */
  private elementPbf = new Pbf(new Uint8Array(0));
  private nodeLat = 0;
  private nodeLon = 0;
  private readonly nodeField = (field: number, tag: number, pbf: Pbf): void => {
    if (field === 8) this.nodeLat = pbf.readSVarint();
    else if (field === 9) this.nodeLon = pbf.readSVarint();
    else pbf.skip(tag);
  };
  private readonly wayField = (field: number, tag: number, pbf: Pbf): void => {
    if (field === 8 && pbf.type === 2) {
      const length = pbf.readVarint();
      this.refs = withCapacity(this.refs, length);
      this.refCount = readDeltaSVarints(pbf.buf, startDeltaRun(this.refRun, pbf.pos, pbf.pos + length), this.refs);
      pbf.pos += length;
    } else pbf.skip(tag);
  };
  private readonly relationField = (field: number, tag: number, pbf: Pbf): void => {
    if (field === 8) pbf.readPackedVarint(this.roles, true);
    else if (field === 9) pbf.readPackedSVarint(this.memberIds);
    else if (field === 10) pbf.readPackedVarint(this.memberTypes);
    else pbf.skip(tag);
  };

  constructor(
    private readonly visitor: OsmVisitor,
    private readonly kinds: OsmPassKinds,
    denseChunkNodes = DENSE_CHUNK_NODES,
  ) {
    this.ids = new Float64Array(denseChunkNodes);
    this.lats = new Float64Array(denseChunkNodes);
    this.lons = new Float64Array(denseChunkNodes);
  }

  /** Decodes one block; returns the kinds it contains. */
  decode(data: Uint8Array): number {
    const pbf = new Pbf(data);
    this.buffer = data;
    this.stringOffsets.length = 0;
    this.strings.length = 0;
    let granularity = 100;
    let latOffset = 0;
    let lonOffset = 0;
    const groups: number[] = [];
    while (pbf.pos < pbf.length) {
      const tag = readTag(pbf);
      const field = tag >> 3;
      if (field === 1) {
        const end = pbf.readVarint() + pbf.pos;
        while (pbf.pos < end) {
          const inner = readTag(pbf);
          if (inner >> 3 === 1) {
            const length = pbf.readVarint();
            this.stringOffsets.push(pbf.pos, length);
            pbf.pos += length;
          } else pbf.skip(inner);
        }
      } else if (field === 2) {
        const length = pbf.readVarint();
        groups.push(pbf.pos, pbf.pos + length);
        pbf.pos += length;
      } else if (field === 17) granularity = pbf.readVarint();
      else if (field === 19) latOffset = pbf.readVarint(true);
      else if (field === 20) lonOffset = pbf.readVarint(true);
      else pbf.skip(tag);
    }
    let found = 0;
    for (let index = 0; index < groups.length; index += 2) {
      pbf.pos = groups[index]!;
      const end = groups[index + 1]!;
      while (pbf.pos < end) {
        const tag = readTag(pbf);
        const field = tag >> 3;
        const length = pbf.readVarint();
        const start = pbf.pos;
        pbf.pos = start + length;
        if (field === 1) {
          found |= KIND_NODES;
          if (this.kinds.nodes) this.node(data, start, start + length, granularity, latOffset, lonOffset);
        } else if (field === 2) {
          found |= KIND_NODES;
          if (this.kinds.nodes) this.denseNodes(data, start, start + length, granularity, latOffset, lonOffset);
        } else if (field === 3) {
          found |= KIND_WAYS;
          if (this.kinds.ways) this.way(data, start, start + length);
        } else if (field === 4) {
          found |= KIND_RELATIONS;
          if (this.kinds.relations) this.relation(data, start, start + length);
        }
      }
    }
    return found;
  }

  private string(index: number): string {
    let value = this.strings[index];
    if (value === undefined) {
      const offset = this.stringOffsets[index * 2];
      const length = this.stringOffsets[index * 2 + 1];
      if (offset === undefined || length === undefined) throw new IngestError('corrupt', `string table index ${index} out of range`);
      value = utf8.decode(this.buffer.subarray(offset, offset + length));
      this.strings[index] = value;
    }
    return value;
  }

  private tagsOf(keys: number[], vals: number[]): OsmTags {
    const tags = newTags();
    for (let index = 0; index < keys.length; index++) tags[this.string(keys[index]!)] = this.string(vals[index] ?? 0);
    return tags;
  }

  private node(data: Uint8Array, start: number, end: number, granularity: number, latOffset: number, lonOffset: number): void {
    this.nodeLat = this.nodeLon = 0;
    const id = this.element(data, start, end, true, this.nodeField);
    this.entities++;
    const tags = this.keys.length ? this.tagsOf(this.keys, this.vals) : null;
    this.visitor.node!(id, (latOffset + granularity * this.nodeLat) / 1e9, (lonOffset + granularity * this.nodeLon) / 1e9, tags);
  }

  /**
   * Dense nodes: the id, lat and lon columns (delta-coded zigzag varints) are
   * decoded a chunk at a time, each by one tight loop (readDeltaSVarints) into
   * a reused array, then visited with the keys_vals column: this sees every
   * node of the file.
   */
  private denseNodes(data: Uint8Array, start: number, end: number, granularity: number, latOffset: number, lonOffset: number): void {
    const pbf = new Pbf(data);
    pbf.pos = start;
    const keyVals = this.keyVals;
    keyVals.length = 0;
    const { ids, lats, lons, idRun, latRun, lonRun } = this;
    let hasIds = false;
    startDeltaRun(latRun, 0, 0);
    startDeltaRun(lonRun, 0, 0);
    while (pbf.pos < end) {
      const tag = readTag(pbf);
      const field = tag >> 3;
      if ((field === 1 || field === 8 || field === 9) && pbf.type === 2) {
        const length = pbf.readVarint();
        startDeltaRun(field === 1 ? idRun : field === 8 ? latRun : lonRun, pbf.pos, pbf.pos + length);
        hasIds ||= field === 1;
        pbf.pos += length;
      } else if (field === 10) pbf.readPackedVarint(keyVals);
      else pbf.skip(tag);
    }
    if (!hasIds) return;
    let cursor = 0;
    const visit = this.visitor.node!;
    for (;;) {
      const count = readDeltaSVarints(data, idRun, ids);
      if (readDeltaSVarints(data, latRun, lats) !== count || readDeltaSVarints(data, lonRun, lons) !== count) {
        throw new IngestError('corrupt', 'dense node block whose coordinates do not match its ids');
      }
      if (count === 0) break;
      for (let index = 0; index < count; index++) {
        let tags: OsmTags | null = null;
        if (cursor < keyVals.length) {
          if (keyVals[cursor] !== 0) {
            tags = newTags();
            while (cursor < keyVals.length && keyVals[cursor] !== 0) {
              tags[this.string(keyVals[cursor]!)] = this.string(keyVals[cursor + 1] ?? 0);
              cursor += 2;
            }
          }
          cursor++;
        }
        visit(ids[index]!, (latOffset + granularity * lats[index]!) / 1e9, (lonOffset + granularity * lons[index]!) / 1e9, tags);
      }
      this.entities += count;
    }
  }

  /**
   * Reads the fields every element has (id, keys, vals); the others go to `other`, which consumes them.
   * A node's id is a zigzag sint64, a way's or relation's a plain int64 (negative ids, as some editors write, are 10-byte varints).
   */
  private element(data: Uint8Array, start: number, end: number, signedId: boolean, other: (field: number, tag: number, pbf: Pbf) => void): number {
    if (this.elementPbf.buf !== data) this.elementPbf = new Pbf(data);
    const pbf = this.elementPbf;
    pbf.pos = start;
    this.keys.length = this.vals.length = 0;
    let id = 0;
    while (pbf.pos < end) {
      const tag = readTag(pbf);
      const field = tag >> 3;
      if (field === 1) id = signedId ? pbf.readSVarint() : pbf.readVarint(true);
      else if (field === 2) pbf.readPackedVarint(this.keys);
      else if (field === 3) pbf.readPackedVarint(this.vals);
      else other(field, tag, pbf);
    }
    return id;
  }

  private way(data: Uint8Array, start: number, end: number): void {
    this.refCount = 0;
    const id = this.element(data, start, end, false, this.wayField);
    this.entities++;
    this.visitor.way!(id, this.refs.subarray(0, this.refCount), this.tagsOf(this.keys, this.vals));
  }

  private relation(data: Uint8Array, start: number, end: number): void {
    const { roles, memberIds, memberTypes } = this;
    roles.length = memberIds.length = memberTypes.length = 0;
    const id = this.element(data, start, end, false, this.relationField);
    const members: OsmMember[] = [];
    let ref = 0;
    for (let index = 0; index < memberIds.length; index++) {
      ref += memberIds[index]!;
      const type = memberTypes[index] ?? 0;
      members.push({ type: type as MemberType, ref, role: this.string(roles[index] ?? 0) });
    }
    this.entities++;
    this.visitor.relation!(id, members, this.tagsOf(this.keys, this.vals));
  }
}

/** Reads a field tag and records its wire type, which `pbf`'s packed readers consult. */
export function readTag(pbf: Pbf): number {
  const tag = pbf.readVarint();
  pbf.type = tag & 7;
  return tag;
}
