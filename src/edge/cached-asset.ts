/**
 * Answers a cacheable asset (a vector tile; glyphs and sprite JSON can use the same) the way spec
 * part 2 §4.7 "Caching and transfer" says: the best encoding the client accepts among the bytes
 * compressed once (Brotli, then gzip, else as is) with `Vary: Accept-Encoding`; a strong ETag per
 * encoding; `If-None-Match` compared weakly (RFC 9110 §13.1.2), so a CDN's `W/"…"` of a tag this
 * origin issued still answers 304, while any tag it never issued gets the full 200.
 */
import { HttpReply } from './route.js';

export interface CompressedAsset {
  raw: Uint8Array;
  brotli?: Uint8Array | undefined;
  gzip?: Uint8Array | undefined;
  contentType: string;
  /** The opaque part of the ETag, without quotes (the encoding is appended per representation). */
  tag: string;
}

type Encoding = 'br' | 'gzip' | 'identity';

/** The encodings the client accepts, by `Accept-Encoding` (q=0 refuses one; `*` stands for the others). */
export function acceptedEncodings(header: string | undefined): Set<Encoding> {
  const accepted = new Set<Encoding>(['identity']);
  if (!header) return accepted;
  let wildcard: boolean | undefined;
  const named = new Map<string, boolean>();
  for (const part of header.split(',')) {
    const [token = '', ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (token === '*') wildcard = allowed;
    else if (token) named.set(token, allowed);
  }
  for (const encoding of ['br', 'gzip'] as const) {
    if (named.get(encoding) ?? (encoding === 'gzip' ? named.get('x-gzip') : undefined) ?? wildcard) accepted.add(encoding);
  }
  if (named.get('identity') === false || (wildcard === false && !named.has('identity'))) accepted.delete('identity');
  return accepted;
}

function etagOf(tag: string, encoding: Encoding): string {
  return encoding === 'identity' ? `"${tag}"` : `"${tag}-${encoding === 'br' ? 'br' : 'gz'}"`;
}

/** Whether `If-None-Match` names this asset in any encoding (weak comparison), or is `*`. */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const ours = new Set((['identity', 'br', 'gzip'] as const).map((encoding) => etagOf(tag, encoding)));
  for (const candidate of header.split(',')) {
    const value = candidate.trim();
    if (value === '*') return true;
    if (ours.has(value.startsWith('W/') ? value.slice(2) : value)) return true;
  }
  return false;
}

/**
 * The reply for `asset`: 304 when the validator matches, else 200 with the chosen encoding.
 * `vary` lists request headers besides Accept-Encoding that change the answer.
 */
export function cachedAssetReply(asset: CompressedAsset, requestHeaders: Readonly<Record<string, string>>, cacheControl: string, vary: readonly string[] = []): HttpReply {
  const accepted = acceptedEncodings(requestHeaders['accept-encoding']);
  const encoding: Encoding = asset.brotli && accepted.has('br') ? 'br' : asset.gzip && accepted.has('gzip') ? 'gzip' : 'identity';
  const headers: Record<string, string> = {
    'cache-control': cacheControl,
    etag: etagOf(asset.tag, encoding),
    vary: ['Accept-Encoding', ...vary].join(', '),
  };
  if (matchesIfNoneMatch(requestHeaders['if-none-match'], asset.tag)) return HttpReply.empty(304, headers);
  const bytes = encoding === 'br' ? asset.brotli! : encoding === 'gzip' ? asset.gzip! : asset.raw;
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  return HttpReply.content(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), asset.contentType, 200, headers);
}
