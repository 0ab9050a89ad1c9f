import { describe, expect, it } from 'vitest';
import { acceptedEncodings, cachedAssetReply, createCachedAssetReplier, matchesIfNoneMatch } from './cached-asset.js';

const asset = { raw: new Uint8Array([1, 2, 3]), brotli: new Uint8Array([4]), gzip: new Uint8Array([5, 6]), contentType: 'application/x-protobuf', tag: 'v1-14-1-2' };

describe('cached assets', () => {
  it('prefers Brotli, then gzip, then the bytes as they are; q=0 refuses an encoding', () => {
    expect(cachedAssetReply(asset, { 'accept-encoding': 'gzip, br' }, 'c').headers['content-encoding']).toBe('br');
    expect(cachedAssetReply(asset, { 'accept-encoding': 'gzip, br;q=0' }, 'c').headers['content-encoding']).toBe('gzip');
    expect(cachedAssetReply(asset, { 'accept-encoding': '*' }, 'c').headers['content-encoding']).toBe('br');
    expect(cachedAssetReply(asset, {}, 'c').headers['content-encoding']).toBeUndefined();
    expect(cachedAssetReply({ ...asset, brotli: undefined }, { 'accept-encoding': 'br, gzip' }, 'c').headers['content-encoding']).toBe('gzip');
    expect([...acceptedEncodings('identity;q=0, gzip')]).toEqual(['gzip']);
  });

  it('gives each encoding its own strong ETag and varies by Accept-Encoding and the named headers', () => {
    const reply = cachedAssetReply(asset, { 'accept-encoding': 'gzip' }, 'max-age=1', ['X-Api-Key']);
    expect(reply.headers).toMatchObject({ etag: '"v1-14-1-2-gz"', vary: 'Accept-Encoding, X-Api-Key', 'cache-control': 'max-age=1' });
    expect(reply.status).toBe(200);
    expect(Buffer.from(reply.body as Buffer)).toEqual(Buffer.from([5, 6]));
  });

  it('answers 304 to its own tags, strong or weak, in any encoding and to *; 200 to a tag it never issued', () => {
    for (const header of ['"v1-14-1-2"', 'W/"v1-14-1-2-br"', '"x", "v1-14-1-2-gz"', '*']) expect(matchesIfNoneMatch(header, asset.tag), header).toBe(true);
    for (const header of ['W/"v1-14-1-3"', '"v1-14-1-2-zz"', 'v1-14-1-2', '']) expect(matchesIfNoneMatch(header, asset.tag), header).toBe(false);
    const notModified = cachedAssetReply(asset, { 'if-none-match': 'W/"v1-14-1-2-br"', 'accept-encoding': 'br' }, 'c');
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeUndefined();
  });

  it('a replier answers what cachedAssetReply answers, parsing each Accept-Encoding once and reusing an asset\'s replies', () => {
    const reply = createCachedAssetReplier(asset.contentType, ['X-Api-Key']);
    const { contentType: _, ...stored } = asset;
    const requests: Array<Record<string, string>> = [
      { 'accept-encoding': 'gzip, br' },
      { 'accept-encoding': 'gzip, br;q=0' },
      { 'accept-encoding': 'identity' },
      {},
      { 'if-none-match': 'W/"v1-14-1-2-br"', 'accept-encoding': 'br' },
      { 'if-none-match': '"v1-14-1-3"', 'accept-encoding': 'gzip' },
      // more distinct values than the replier remembers, then the first ones again
      ...Array.from({ length: 70 }, (_, index) => ({ 'accept-encoding': `gzip;q=0.${index % 9}, x-${index}` })),
      { 'accept-encoding': 'gzip, br' },
      { 'accept-encoding': 'gzip, br;q=0' },
    ];
    for (const cacheControl of ['a', 'b']) {
      for (const headers of requests) {
        const expected = cachedAssetReply(asset, headers, cacheControl, ['X-Api-Key']);
        const got = reply(stored, headers, cacheControl);
        expect({ status: got.status, headers: got.headers, contentType: got.contentType, body: got.body }, JSON.stringify(headers)).toEqual({
          status: expected.status,
          headers: expected.headers,
          contentType: expected.contentType,
          body: expected.body,
        });
      }
    }
    expect(reply(stored, { 'accept-encoding': 'br' }, 'a')).toBe(reply(stored, { 'accept-encoding': 'gzip, br' }, 'a'));
    expect(reply(stored, { 'accept-encoding': 'br' }, 'a')).not.toBe(reply(stored, { 'accept-encoding': 'br' }, 'b'));
  });
});
