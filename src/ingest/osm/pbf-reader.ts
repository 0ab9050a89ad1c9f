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
import { PbfReader as Pbf } from 'pbf';
import { IngestError } from '../ingest-error.js';
import { BlockInflater } from './block-inflater.js';
import type { OsmPassKinds, OsmVisitor } from './osm-visitor.js';
import { BlockDecoder, KIND_NODES, KIND_RELATIONS, KIND_WAYS, readTag } from './pbf-block.js';

const MAX_HEADER_BYTES = 64 * 1024;
const MAX_BLOB_BYTES = 32 * 1024 * 1024;
const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);


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
  optionalFeatures: string[];
  writingProgram?: string;
}

export type ProgressCallback = (bytesDone: number, bytesTotal: number, entities: number) => void;

export class PbfReader {
  readonly size: number;
  readonly header: PbfHeaderInfo;
  private readonly fd: number;
  private blobs: BlobEntry[] | undefined;
  private scratch = Buffer.alloc(64 * 1024);
  /** Every block is inflated into its one buffer: see block-inflater.ts. */
  private readonly inflater = new BlockInflater();

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
    this.inflater.close();
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
    this.blobs = blobs;
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
    const info: PbfHeaderInfo = { requiredFeatures: [], optionalFeatures: [] };
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
      else if (field === 5) info.optionalFeatures.push(pbf.readString());
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
    if (this.header.optionalFeatures.includes('Sort.Type_then_ID')) this.classifySorted(blobs);
    return blobs;
  }

  /**
   * In a file sorted by type then id (the header says so: osmium, Geofabrik),
   * every block holds only entities that come after those of the blocks before
   * it, so the blocks are nodes, then ways, then relations, with at most one
   * mixed block at each boundary. Two binary searches over the blocks (a few
   * inflated blocks instead of all of them) give every block's kinds, and the
   * first pass then inflates only the relation blocks.
   */
  private classifySorted(blobs: BlobEntry[]): void {
    const probe = new BlockDecoder({}, { nodes: false, ways: false, relations: false });
    const kindsOf = (index: number): number => (blobs[index]!.kinds ||= probe.decode(this.inflateBlob(blobs[index]!)));
    /** The first block whose highest kind is at least `kind` (blobs.length when none). */
    const firstReaching = (kind: number, from: number): number => {
      let low = from;
      let high = blobs.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (kindsOf(middle) >= kind) high = middle;
        else low = middle + 1;
      }
      return low;
    };
    const firstWays = firstReaching(KIND_WAYS, 0);
    const firstRelations = firstReaching(KIND_RELATIONS, firstWays);
    for (let index = 0; index < blobs.length; index++) {
      if (index === firstWays || index === firstRelations) kindsOf(index);
      else blobs[index]!.kinds = index < firstWays ? KIND_NODES : index < firstRelations ? KIND_WAYS : KIND_RELATIONS;
    }
  }

  private inflateBlob(blob: BlobEntry): Uint8Array {
    const pbf = new Pbf(this.readExactly(blob.offset, blob.size));
    let raw: Uint8Array | undefined;
    let zlib: Uint8Array | undefined;
    let compression: string | undefined;
    let rawSize = 0;
    while (pbf.pos < pbf.length) {
      const tag = readTag(pbf);
      const field = tag >> 3;
      if (field === 1) raw = pbf.readBytes();
      else if (field === 2) rawSize = pbf.readVarint();
      else if (field === 3) zlib = pbf.readBytes();
      else if (field === 4) (compression = 'lzma'), pbf.skip(tag);
      else if (field === 6) (compression = 'lz4'), pbf.skip(tag);
      else if (field === 7) (compression = 'zstd'), pbf.skip(tag);
      else pbf.skip(tag);
    }
    if (raw) return Uint8Array.from(raw);
    if (zlib) {
      try {
        // a view of the inflater's reused buffer: every caller decodes it before the next block is inflated
        return this.inflater.inflate(zlib, rawSize, MAX_BLOB_BYTES);
      } catch (error) {
        throw new IngestError('corrupt', `${this.path}: a data block at byte ${blob.offset} does not decompress (${(error as Error).message})`);
      }
    }
    throw new IngestError('unsupported', `${this.path}: ${compression ?? 'unknown'} compressed blocks are not supported (re-encode with zlib, e.g. osmium cat -f pbf,pbf_compression=zlib)`);
  }
}
