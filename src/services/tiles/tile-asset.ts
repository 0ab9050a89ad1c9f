/**
 * One servable map asset (a glyph range, a sprite sheet or index, a style document, a raster tile)
 * with its validator and, for compressible ones, its Brotli and gzip forms (part 2 §4.7: Brotli
 * preferred then gzip for glyphs, sprite JSON and styles; raster as is). Each encoding is made once
 * per asset, off the event loop (zlib's thread pool), and kept with it; the edge serves the result
 * through edge/cached-asset.ts like the vector tiles.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this size compression saves less than its header costs: served as is. */
const MIN_COMPRESS_BYTES = 256;

/** The shape edge/cached-asset.ts serves: raw bytes, optional encodings, the opaque ETag part. */
export interface EncodedAsset {
  raw: Uint8Array;
  brotli?: Uint8Array | undefined;
  gzip?: Uint8Array | undefined;
  contentType: string;
  tag: string;
}

export class TileAsset {
  /** Opaque part of the strong ETag (the edge appends the encoding). */
  readonly tag: string;
  private encodedOnce: Promise<EncodedAsset> | undefined;

  constructor(
    readonly body: Buffer,
    readonly contentType: string,
    /** Glyphs, sprite JSON, styles: true; raster images: false (already compressed). */
    readonly compressible: boolean,
  ) {
    this.tag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  }

  /** Bytes held, for byte-bounded caches (compressed forms are at most about the raw size again). */
  get byteLength(): number {
    return this.compressible ? this.body.length * 2 : this.body.length;
  }

  /** The asset with its encodings, made on first use and kept. */
  encoded(): Promise<EncodedAsset> {
    this.encodedOnce ??= this.encode();
    return this.encodedOnce;
  }

  private async encode(): Promise<EncodedAsset> {
    const asset: EncodedAsset = { raw: this.body, contentType: this.contentType, tag: this.tag };
    if (!this.compressible || this.body.length < MIN_COMPRESS_BYTES) return asset;
    const [br, gz] = await Promise.all([
      brotli(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: this.body.length } }),
      gzipAsync(this.body, { level: 9 }),
    ]);
    return { ...asset, brotli: br, gzip: gz };
  }
}
