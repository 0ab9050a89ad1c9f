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
  const encoding = chosenEncoding(asset, acceptedEncodings(requestHeaders['accept-encoding']));
  const headers = assetHeaders(asset.tag, encoding, cacheControl, ['Accept-Encoding', ...vary].join(', '));
  if (matchesIfNoneMatch(requestHeaders['if-none-match'], asset.tag)) return HttpReply.empty(304, headers);
  return contentReply(asset, asset.contentType, encoding, headers);
}

/** Brotli when the asset has it and the client takes it, then gzip, else the raw bytes. */
function chosenEncoding(asset: Omit<CompressedAsset, 'contentType'>, accepted: ReadonlySet<Encoding>): Encoding {
  return asset.brotli && accepted.has('br') ? 'br' : asset.gzip && accepted.has('gzip') ? 'gzip' : 'identity';
}

/** The headers a 200 and a 304 for the asset share. */
function assetHeaders(tag: string, encoding: Encoding, cacheControl: string, vary: string): Record<string, string> {
  return { 'cache-control': cacheControl, etag: etagOf(tag, encoding), vary };
}

/** The 200 carrying the asset's bytes in `encoding`. */
function contentReply(asset: Omit<CompressedAsset, 'contentType'>, contentType: string, encoding: Encoding, headers: Record<string, string>): HttpReply {
  const bytes = encoding === 'br' ? asset.brotli! : encoding === 'gzip' ? asset.gzip! : asset.raw;
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  return HttpReply.content(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType, 200, headers);
}

/** How many distinct Accept-Encoding values a replier remembers; more start the memory over (browsers send a handful). */
const REMEMBERED_ACCEPT_ENCODINGS = 64;
const ENCODING_INDEX: Record<Encoding, number> = { identity: 0, br: 1, gzip: 2 };

/** cachedAssetReply for assets answered again and again, made by createCachedAssetReplier. */
export type CachedAssetReplier = (asset: Omit<CompressedAsset, 'contentType'>, requestHeaders: Readonly<Record<string, string>>, cacheControl: string) => HttpReply;

/**
 * The same answers as cachedAssetReply, for assets held in a cache and asked for again and again (a vector tile): each
 * Accept-Encoding value is parsed once, and an asset's 200 replies are made once per encoding and Cache-Control and
 * kept beside it (weakly: they go when the asset leaves its cache). A reply is shared by the requests that get it,
 * which is safe because HttpReply is immutable and the pipeline copies its headers before adding its own.
 */
export function createCachedAssetReplier(contentType: string, vary: readonly string[] = []): CachedAssetReplier {
  const varyValue = ['Accept-Encoding', ...vary].join(', ');
  const acceptedByHeader = new Map<string, Set<Encoding>>();
  const repliesOf = new WeakMap<object, Map<string, Array<HttpReply | undefined>>>();

  const accepted = (header: string | undefined): Set<Encoding> => {
    const key = header ?? '';
    let known = acceptedByHeader.get(key);
    if (!known) {
      if (acceptedByHeader.size >= REMEMBERED_ACCEPT_ENCODINGS) acceptedByHeader.clear();
      acceptedByHeader.set(key, (known = acceptedEncodings(header)));
    }
    return known;
  };

  return (asset, requestHeaders, cacheControl) => {
    const encoding = chosenEncoding(asset, accepted(requestHeaders['accept-encoding']));
    const ifNoneMatch = requestHeaders['if-none-match'];
    if (ifNoneMatch !== undefined && matchesIfNoneMatch(ifNoneMatch, asset.tag)) return HttpReply.empty(304, assetHeaders(asset.tag, encoding, cacheControl, varyValue));
    let byCacheControl = repliesOf.get(asset);
    if (!byCacheControl) repliesOf.set(asset, (byCacheControl = new Map()));
    let replies = byCacheControl.get(cacheControl);
    if (!replies) byCacheControl.set(cacheControl, (replies = [undefined, undefined, undefined]));
    const index = ENCODING_INDEX[encoding];
    return (replies[index] ??= contentReply(asset, contentType, encoding, assetHeaders(asset.tag, encoding, cacheControl, varyValue)));
  };
}
