/**
 * A streaming OSM PBF reader built on the `pbf` varint decoder.
 *
 * The file is read blob by blob with positioned reads, so memory holds one
 * blob at a time whatever the file size. The first scan also records which
 * blobs hold nodes, ways or relations; later passes inflate only the blobs
 * they need (the node pass skips the way and relation blobs and vice versa).
 * Format: https://wiki.openstreetmap.org/wiki/PBF_Format
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { PbfReader as Pbf } from 'pbf';
import { IngestError } from '../ingest-error.js';
import { MemberType, newTags, type OsmMember, type OsmPassKinds, type OsmTags, type OsmVisitor } from './osm-visitor.js';

const MAX_HEADER_BYTES = 64 * 1024;
const MAX_BLOB_BYTES = 32 * 1024 * 1024;
const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);

const KIND_NODES = 1;
const KIND_WAYS = 2;
const KIND_RELATIONS = 4;

interface BlobEntry {
  /** Byte offset of the Blob message (after its header). */
  offset: number;
  size: number;
  /** Bit set of KIND_*; unknown until the first scan decoded the blob. */
  kinds: number;
}

export interface PbfHeaderInfo {
  bbox?: [number, number, number, number];
  requiredFeatures: string[];
  writingProgram?: string;
}

export type ProgressCallback = (bytesDone: number, bytesTotal: number, entities: number) => void;

const utf8 = new TextDecoder('utf-8');

export class PbfReader {
  readonly size: number;
  readonly header: PbfHeaderInfo;
  private readonly fd: number;
  private blobs: BlobEntry[] | undefined;
  private scratch = Buffer.alloc(64 * 1024);

  constructor(readonly path: string) {
    this.fd = openSync(path, 'r');
    this.size = fstatSync(this.fd).size;
    try {
      this.header = this.readFileHeader();
    } catch (error) {
      this.close();
      throw error;
    }
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }

  /**
   * Runs one pass over the file, calling the visitor for the kinds it handles.
   * Yields to the event loop between blobs so a server building its pack at
   * start-up still answers signals.
   */
  async scan(visitor: OsmVisitor, kinds: OsmPassKinds, onProgress?: ProgressCallback): Promise<number> {
    const wanted = (kinds.nodes ? KIND_NODES : 0) | (kinds.ways ? KIND_WAYS : 0) | (kinds.relations ? KIND_RELATIONS : 0);
    const decoder = new BlockDecoder(visitor, kinds);
    const blobs = this.blobs ?? this.indexBlobs();
    let bytesDone = 0;
    let lastYield = Date.now();
    for (const blob of blobs) {
      bytesDone = blob.offset + blob.size;
      if (blob.kinds !== 0 && (blob.kinds & wanted) === 0) continue;
      const data = this.inflateBlob(blob);
      blob.kinds = decoder.decode(data);
      onProgress?.(bytesDone, this.size, decoder.entities);
      if (Date.now() - lastYield > 50) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        lastYield = Date.now();
      }
    }
    this.blobs = blobs;
    onProgress?.(this.size, this.size, decoder.entities);
    return decoder.entities;
  }

  private readExactly(position: number, length: number): Buffer {
    if (length > this.scratch.length) this.scratch = Buffer.alloc(Math.max(length, this.scratch.length * 2));
    const target = this.scratch.subarray(0, length);
    let done = 0;
    while (done < length) {
      const read = readSync(this.fd, target, done, length - done, position + done);
      if (read === 0) {
        throw new IngestError('truncated', `${this.path}: the PBF file ends in the middle of a block at byte ${position + done} (truncated download?)`);
      }
      done += read;
    }
    return target;
  }

  /** Reads one BlobHeader at `position`; returns its type, the blob's offset and size. */
  private readBlobHeader(position: number): { type: string; offset: number; size: number } {
    const length = this.readExactly(position, 4).readUInt32BE(0);
    if (length === 0 || length > MAX_HEADER_BYTES) {
      throw new IngestError(position === 0 ? 'not_osm' : 'corrupt', `${this.path}: not an OSM PBF file (bad block header length ${length} at byte ${position})`);
    }
    const pbf = new Pbf(this.readExactly(position + 4, length));
    let type = '';
    let size = -1;
    while (pbf.pos < pbf.length) {
      const tag = readTag(pbf);
      const field = tag >> 3;
      if (field === 1) type = pbf.readString();
      else if (field === 3) size = pbf.readVarint();
      else pbf.skip(tag);
    }
    if (size < 0 || size > MAX_BLOB_BYTES || (type !== 'OSMHeader' && type !== 'OSMData')) {
      throw new IngestError(position === 0 ? 'not_osm' : 'corrupt', `${this.path}: not an OSM PBF file (unexpected block "${type}" at byte ${position})`);
    }
    const offset = position + 4 + length;
    if (offset + size > this.size) {
      throw new IngestError('truncated', `${this.path}: the PBF file is truncated (block at byte ${position} needs ${offset + size} bytes, file has ${this.size})`);
    }
    return { type, offset, size };
  }

  private readFileHeader(): PbfHeaderInfo {
    if (this.size === 0) throw new IngestError('not_osm', `${this.path}: the file is empty`);
    const first = this.readBlobHeader(0);
    if (first.type !== 'OSMHeader') throw new IngestError('not_osm', `${this.path}: not an OSM PBF file (no OSMHeader block)`);
    const pbf = new Pbf(this.inflateBlob({ offset: first.offset, size: first.size, kinds: 0 }));
    const info: PbfHeaderInfo = { requiredFeatures: [] };
    while (pbf.pos < pbf.length) {
      const tag = readTag(pbf);
      const field = tag >> 3;
      if (field === 1) {
        const end = pbf.readVarint() + pbf.pos;
        const box = [0, 0, 0, 0];
        while (pbf.pos < end) {
          const inner = readTag(pbf);
          const index = (inner >> 3) - 1;
          if (index >= 0 && index < 4) box[index] = pbf.readSVarint() / 1e9;
          else pbf.skip(inner);
        }
        // left, right, top, bottom → west, south, east, north
        info.bbox = [box[0]!, box[3]!, box[1]!, box[2]!];
      } else if (field === 4) info.requiredFeatures.push(pbf.readString());
      else if (field === 16) info.writingProgram = pbf.readString();
      else pbf.skip(tag);
    }
    const unsupported = info.requiredFeatures.filter((feature) => !SUPPORTED_FEATURES.has(feature));
    if (unsupported.length) {
      throw new IngestError('unsupported', `${this.path}: needs PBF features this reader does not support: ${unsupported.join(', ')}`);
    }
    return info;
  }

  private indexBlobs(): BlobEntry[] {
    const blobs: BlobEntry[] = [];
    let position = 0;
    while (position < this.size) {
      const header = this.readBlobHeader(position);
      if (header.type === 'OSMData') blobs.push({ offset: header.offset, size: header.size, kinds: 0 });
      position = header.offset + header.size;
    }
    return blobs;
  }

  private inflateBlob(blob: BlobEntry): Uint8Array {
    const pbf = new Pbf(this.readExactly(blob.offset, blob.size));
    let raw: Uint8Array | undefined;
    let zlib: Uint8Array | undefined;
    let compression: string | undefined;
    while (pbf.pos < pbf.length) {
      const tag = readTag(pbf);
      const field = tag >> 3;
      if (field === 1) raw = pbf.readBytes();
      else if (field === 3) zlib = pbf.readBytes();
      else if (field === 4) (compression = 'lzma'), pbf.skip(tag);
      else if (field === 6) (compression = 'lz4'), pbf.skip(tag);
      else if (field === 7) (compression = 'zstd'), pbf.skip(tag);
      else pbf.skip(tag);
    }
    if (raw) return Uint8Array.from(raw);
    if (zlib) {
      try {
        return inflateSync(zlib);
      } catch (error) {
        throw new IngestError('corrupt', `${this.path}: a data block at byte ${blob.offset} does not decompress (${(error as Error).message})`);
      }
    }
    throw new IngestError('unsupported', `${this.path}: ${compression ?? 'unknown'} compressed blocks are not supported (re-encode with zlib, e.g. osmium cat -f pbf,pbf_compression=zlib)`);
  }
}

/** Decodes PrimitiveBlocks for one pass; reuses its scratch arrays across blocks. */
class BlockDecoder {
  entities = 0;
  private stringOffsets: number[] = [];
  private strings: (string | undefined)[] = [];
  private buffer: Uint8Array = new Uint8Array(0);
  private readonly keyVals: number[] = [];
  private readonly keys: number[] = [];
  private readonly vals: number[] = [];
  private readonly refs: number[] = [];
  private readonly roles: number[] = [];
  private readonly memberIds: number[] = [];
  private readonly memberTypes: number[] = [];

  constructor(
    private readonly visitor: OsmVisitor,
    private readonly kinds: OsmPassKinds,
  ) {}

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
    let lat = 0;
    let lon = 0;
    const id = this.element(data, start, end, true, (field, tag, pbf) => {
      if (field === 8) lat = pbf.readSVarint();
      else if (field === 9) lon = pbf.readSVarint();
      else pbf.skip(tag);
    });
    this.entities++;
    const tags = this.keys.length ? this.tagsOf(this.keys, this.vals) : null;
    this.visitor.node!(id, (latOffset + granularity * lat) / 1e9, (lonOffset + granularity * lon) / 1e9, tags);
  }

  /**
   * Dense nodes are decoded straight from the three packed columns (ids, lats,
   * lons: delta-coded zigzag varints) with one cursor each, without filling
   * intermediate arrays: this loop sees every node of the file.
   */
  private denseNodes(data: Uint8Array, start: number, end: number, granularity: number, latOffset: number, lonOffset: number): void {
    const pbf = new Pbf(data);
    pbf.pos = start;
    const keyVals = this.keyVals;
    keyVals.length = 0;
    let idsAt = -1;
    let idsEnd = -1;
    let latsAt = -1;
    let lonsAt = -1;
    while (pbf.pos < end) {
      const tag = readTag(pbf);
      const field = tag >> 3;
      if (field === 1 || field === 8 || field === 9) {
        const length = pbf.readVarint();
        if (field === 1) (idsAt = pbf.pos), (idsEnd = pbf.pos + length);
        else if (field === 8) latsAt = pbf.pos;
        else lonsAt = pbf.pos;
        pbf.pos += length;
      } else if (field === 10) pbf.readPackedVarint(keyVals);
      else pbf.skip(tag);
    }
    if (idsAt < 0) return;
    if (latsAt < 0 || lonsAt < 0) throw new IngestError('corrupt', 'dense node block without coordinates');
    const ids = new Pbf(data);
    const lats = new Pbf(data);
    const lons = new Pbf(data);
    ids.pos = idsAt;
    lats.pos = latsAt;
    lons.pos = lonsAt;
    let id = 0;
    let lat = 0;
    let lon = 0;
    let cursor = 0;
    let count = 0;
    const visit = this.visitor.node!;
    while (ids.pos < idsEnd) {
      id += ids.readSVarint();
      lat += lats.readSVarint();
      lon += lons.readSVarint();
      count++;
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
      visit(id, (latOffset + granularity * lat) / 1e9, (lonOffset + granularity * lon) / 1e9, tags);
    }
    this.entities += count;
  }

  /**
   * Reads the fields every element has (id, keys, vals); the others go to `other`, which consumes them.
   * A node's id is a zigzag sint64, a way's or relation's a plain int64.
   */
  private element(data: Uint8Array, start: number, end: number, signedId: boolean, other: (field: number, tag: number, pbf: Pbf) => void): number {
    const pbf = new Pbf(data);
    pbf.pos = start;
    this.keys.length = this.vals.length = 0;
    let id = 0;
    while (pbf.pos < end) {
      const tag = readTag(pbf);
      const field = tag >> 3;
      if (field === 1) id = signedId ? pbf.readSVarint() : pbf.readVarint();
      else if (field === 2) pbf.readPackedVarint(this.keys);
      else if (field === 3) pbf.readPackedVarint(this.vals);
      else other(field, tag, pbf);
    }
    return id;
  }

  private way(data: Uint8Array, start: number, end: number): void {
    const refs = this.refs;
    refs.length = 0;
    const id = this.element(data, start, end, false, (field, tag, pbf) => (field === 8 ? pbf.readPackedSVarint(refs) : pbf.skip(tag)));
    for (let index = 1; index < refs.length; index++) refs[index]! += refs[index - 1]!;
    this.entities++;
    this.visitor.way!(id, refs, this.tagsOf(this.keys, this.vals));
  }

  private relation(data: Uint8Array, start: number, end: number): void {
    const { roles, memberIds, memberTypes } = this;
    roles.length = memberIds.length = memberTypes.length = 0;
    const id = this.element(data, start, end, false, (field, tag, pbf) => {
      if (field === 8) pbf.readPackedVarint(roles, true);
      else if (field === 9) pbf.readPackedSVarint(memberIds);
      else if (field === 10) pbf.readPackedVarint(memberTypes);
      else pbf.skip(tag);
    });
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

export { MemberType };

/** Reads a field tag and records its wire type, which `pbf`'s packed readers consult. */
function readTag(pbf: Pbf): number {
  const tag = pbf.readVarint();
  pbf.type = tag & 7;
  return tag;
}
