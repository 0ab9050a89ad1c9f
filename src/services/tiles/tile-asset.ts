/**
 * One servable map asset (a tile, a glyph range, a sprite sheet, a style) with its validator and its
 * compressed forms. Part 2 §4.7: strong ETag, Brotli preferred then gzip for vector tiles, glyphs and
 * sprite JSON, raster as is. Each encoding is made once per asset, off the event loop (zlib's thread
 * pool), and kept with it, so a cached asset is compressed once however often it is served.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type ContentEncoding = 'br' | 'gzip' | 'identity';

/** Below this size compression saves less than its header costs: served as is. */
const MIN_COMPRESS_BYTES = 256;

export class TileAsset {
  /** Strong validator of the identity body, quoted (`"…"`). */
  readonly etag: string;
  private readonly hash: string;
  private readonly encodings = new Map<ContentEncoding, Promise<Buffer>>();

  constructor(
    readonly body: Buffer,
    readonly contentType: string,
    /** Vector tiles, glyphs, sprite JSON, styles: true; raster images: false (already compressed). */
    readonly compressible: boolean,
  ) {
    this.hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
    this.etag = `"${this.hash}"`;
  }

  /** Bytes held by the asset and its encodings made so far (for byte-bounded caches: an estimate of the identity size times the encodings asked). */
  get byteLength(): number {
    return this.body.length * (1 + this.encodings.size);
  }

  /** The encoding a client accepting `acceptEncoding` gets for this asset. */
  encodingFor(acceptEncoding: string | undefined): ContentEncoding {
    if (!this.compressible || this.body.length < MIN_COMPRESS_BYTES) return 'identity';
    return negotiateEncoding(acceptEncoding);
  }

  /** The validator of one encoding: a different representation has a different strong tag (RFC 9110 §8.8.3). */
  etagFor(encoding: ContentEncoding): string {
    return encoding === 'identity' ? this.etag : `"${this.hash}-${encoding === 'br' ? 'br' : 'gz'}"`;
  }

  /**
   * Whether `If-None-Match` names this asset. Weak comparison, as RFC 9110 §13.1.2 asks: a CDN may
   * weaken our tag to `W/"…"` and the client replays it; a value we never issued does not match.
   */
  matches(ifNoneMatch: string | undefined): boolean {
    if (!ifNoneMatch) return false;
    const issued = new Set([this.etag, this.etagFor('br'), this.etagFor('gzip')]);
    return ifNoneMatch.split(',').some((raw) => {
      const tag = raw.trim();
      return tag === '*' || issued.has(tag.startsWith('W/') ? tag.slice(2) : tag);
    });
  }

  /** The body in one encoding, made on first use and kept. */
  encoded(encoding: ContentEncoding): Promise<Buffer> {
    if (encoding === 'identity') return Promise.resolve(this.body);
    let pending = this.encodings.get(encoding);
    if (!pending) {
      pending =
        encoding === 'br'
          ? brotli(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: this.body.length } })
          : gzipAsync(this.body, { level: 9 });
      this.encodings.set(encoding, pending);
    }
    return pending;
  }
}

/** Brotli when the client takes it, else gzip, else none (`q=0` refuses a coding). */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding {
  if (!acceptEncoding) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...parameters] = part.trim().split(';');
    if (!name) continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const quality = q ? Number(q.slice(2)) : 1;
    accepted.set(name.trim(), Number.isFinite(quality) ? quality : 0);
  }
  const quality = (name: string) => accepted.get(name) ?? (accepted.has('*') ? accepted.get('*')! : 0);
  if (quality('br') > 0) return 'br';
  if (quality('gzip') > 0) return 'gzip';
  return 'identity';
}
