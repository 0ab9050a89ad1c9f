import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeReferrer } from '../developer/key-restrictions.js';
import { AddressSet, clientAddress, ClientResolver, limitBucketOf, normalizeIp } from './ip-address.js';
import { ReferrerList, requestSite } from './referrer-matcher.js';

const list = (...entries: string[]) => new ReferrerList(entries.map(normalizeReferrer));
const site = (origin?: string, referer?: string) => requestSite(origin, referer);

describe('ReferrerList', () => {
  it('matches hosts exactly, with any port when the entry has none', () => {
    const allowed = list('https://maps.example.jo/app');
    expect(allowed.allows(site('https://maps.example.jo'))).toBe(true);
    expect(allowed.allows(site('http://maps.example.jo:8080'))).toBe(true);
    expect(allowed.allows(site('https://evil.example.jo'))).toBe(false);
    expect(allowed.allows(site('https://maps.example.jo.evil.com'))).toBe(false);
  });

  it('lets *.domain cover subdomains at any depth but not the bare domain', () => {
    const allowed = list('*.example.sa');
    expect(allowed.allows(site('https://a.example.sa'))).toBe(true);
    expect(allowed.allows(site('https://a.b.example.sa'))).toBe(true);
    expect(allowed.allows(site('https://example.sa'))).toBe(false);
    expect(allowed.allows(site('https://badexample.sa'))).toBe(false);
  });

  it('checks the port when the entry names one, using the scheme default otherwise', () => {
    const allowed = list('localhost:3000', 'secure.example.ae:443');
    expect(allowed.allows(site('http://localhost:3000'))).toBe(true);
    expect(allowed.allows(site('http://localhost:3001'))).toBe(false);
    expect(allowed.allows(site('https://secure.example.ae'))).toBe(true);
    expect(allowed.allows(site('http://secure.example.ae'))).toBe(false);
  });

  it('falls back to Referer, and refuses when neither header names a site', () => {
    const allowed = list('maps.example.jo');
    expect(allowed.allows(site(undefined, 'https://maps.example.jo/page?q=1'))).toBe(true);
    expect(allowed.allows(site('null', 'https://maps.example.jo/'))).toBe(true);
    expect(allowed.allows(site(undefined, undefined))).toBe(false);
    expect(allowed.allows(site('not a url'))).toBe(false);
    expect(list().allows(undefined)).toBe(true);
  });

  it('never lets a host outside the wildcard domain through (property)', () => {
    const label = fc.stringMatching(/^[a-z0-9]{1,8}$/);
    fc.assert(
      fc.property(fc.array(label, { minLength: 0, maxLength: 3 }), label, (prefix, other) => {
        const host = [...prefix, other, 'com'].join('.');
        const matches = list('*.example.com').allows(site(`https://${host}`));
        expect(matches).toBe(host.endsWith('.example.com'));
      }),
    );
  });
});

describe('limitBucketOf', () => {
  it('counts IPv4 per address and IPv6 per /64', () => {
    expect(limitBucketOf('203.0.113.7')).toBe('203.0.113.7');
    expect(limitBucketOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(limitBucketOf('2001:db8:1:2:aaaa::1')).toBe(limitBucketOf('2001:db8:1:2:bbbb::9'));
    expect(limitBucketOf('2001:db8:1:2::1')).not.toBe(limitBucketOf('2001:db8:1:3::1'));
  });
});

describe('AddressSet and clientAddress', () => {
  it('matches IPv4, IPv6, CIDR ranges and IPv4-mapped IPv6 clients', () => {
    const set = new AddressSet(['203.0.113.7', '10.0.0.0/8', '2001:db8::/32']);
    expect(set.has('203.0.113.7')).toBe(true);
    expect(set.has('::ffff:203.0.113.7')).toBe(true);
    expect(set.has('10.200.3.4')).toBe(true);
    expect(set.has('11.0.0.1')).toBe(false);
    expect(set.has('2001:db8:1::5')).toBe(true);
    expect(set.has('2001:db9::1')).toBe(false);
    expect(set.has('garbage')).toBe(false);
    expect(normalizeIp('0000:0000:0000:0000:0000:ffff:7f00:0001')).toBe('127.0.0.1');
    expect(normalizeIp('::FFFF:198.51.100.4')).toBe('198.51.100.4');
    expect(normalizeIp('2001:db8::1')).toBe('2001:db8::1');
    expect(normalizeIp('::1')).toBe('::1');
  });

  it('uses X-Forwarded-For only behind a trusted proxy, skipping trusted hops from the right', () => {
    const proxies = new AddressSet(['10.0.0.0/8']);
    expect(clientAddress('198.51.100.9', '1.2.3.4', proxies)).toBe('198.51.100.9');
    expect(clientAddress('10.0.0.5', '1.2.3.4', proxies)).toBe('1.2.3.4');
    expect(clientAddress('10.0.0.5', '6.6.6.6, 1.2.3.4, 10.0.0.9', proxies)).toBe('1.2.3.4');
    expect(clientAddress('10.0.0.5', undefined, proxies)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', '1.2.3.4', new AddressSet([]))).toBe('10.0.0.5');
  });
});

describe('ClientResolver', () => {
  it('answers what clientAddress and limitBucketOf answer, the first time and when it has kept the answer', () => {
    const proxies = new AddressSet(['10.0.0.0/8', '::1']);
    const resolver = new ClientResolver(proxies);
    const hop = fc.oneof(fc.ipV4(), fc.ipV6(), fc.constantFrom('10.0.0.9', '::ffff:10.1.2.3', 'garbage', '', ' 1.2.3.4 ', '2001:DB8::1'));
    fc.assert(
      fc.property(fc.constantFrom('10.0.0.5', '198.51.100.9', '::1', '::ffff:10.0.0.7'), fc.option(fc.oneof(fc.array(hop, { maxLength: 4 }), fc.array(hop, { minLength: 20, maxLength: 40 })).map((hops) => hops.join(',')), { nil: undefined }), (peer, forwardedFor) => {
        const address = clientAddress(peer, forwardedFor, proxies);
        for (let pass = 0; pass < 2; pass++) expect(resolver.of(peer, forwardedFor)).toEqual({ address, bucket: limitBucketOf(address) });
      }),
      { numRuns: 2_000 },
    );
    // a peer alone and the same peer with an empty header are different keys with the same answer
    expect(resolver.of('10.0.0.5', '')).toEqual(resolver.of('10.0.0.5', undefined));
  });

  it('keeps one answer per untrusted peer whatever X-Forwarded-For it sends, and none for an overlong header', () => {
    const resolver = new ClientResolver(new AddressSet(['10.0.0.0/8']));
    const kept = () => (resolver as unknown as { kept: number }).kept;
    for (let index = 0; index < 5_000; index++) expect(resolver.of('198.51.100.9', `${index}.${'x'.repeat(1_000)}, 1.2.3.4`).address).toBe('198.51.100.9');
    expect(kept()).toBe(1);
    const long = Array.from({ length: 40 }, (_, index) => `203.0.113.${index}`).join(', ');
    expect(resolver.of('10.0.0.5', long).address).toBe('203.0.113.39');
    expect(kept()).toBe(1);
  });
});
