import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidRestrictionError, normalizeIpEntry, normalizeList, normalizeReferrer } from './key-restrictions.js';

describe('normalizeReferrer', () => {
  it('drops protocol and path, lower-cases, keeps ports and wildcards', () => {
    expect(normalizeReferrer('https://Maps.Example.JO/path?q=1#x')).toBe('maps.example.jo');
    expect(normalizeReferrer('http://localhost:3000/')).toBe('localhost:3000');
    expect(normalizeReferrer('*.example.sa')).toBe('*.example.sa');
    expect(normalizeReferrer('https://*.example.sa:8443/app')).toBe('*.example.sa:8443');
    expect(normalizeReferrer('[::1]:8080')).toBe('[::1]:8080');
  });

  it('refuses what is not a host', () => {
    for (const bad of ['', 'exa mple.com', '*.com', 'example.com:0', 'example.com:70000', 'user@example.com', '-bad.example.com', 'a..b']) {
      expect(() => normalizeReferrer(bad)).toThrow(InvalidRestrictionError);
    }
  });

  it('is idempotent', () => {
    const host = fc.array(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/), { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
    fc.assert(
      fc.property(host, fc.option(fc.integer({ min: 1, max: 65535 })), (name, port) => {
        const once = normalizeReferrer(port === null ? name : `https://${name}:${port}/x`);
        expect(normalizeReferrer(once)).toBe(once);
      }),
    );
  });
});

describe('normalizeIpEntry', () => {
  it('accepts IPv4, IPv6 and CIDR ranges', () => {
    expect(normalizeIpEntry('203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeIpEntry('2001:DB8::/32')).toBe('2001:db8::/32');
    expect(normalizeIpEntry('10.0.0.0/8')).toBe('10.0.0.0/8');
    expect(normalizeIpEntry('::ffff:10.0.0.0/104')).toBe('10.0.0.0/8');
    expect(normalizeIpEntry('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(() => normalizeIpEntry('::ffff:10.0.0.0/64')).toThrow(/at least 96/);
  });

  it('names the bad entry', () => {
    for (const bad of ['10.0.0.256', '10.0.0.0/33', '::1/129', 'example.com', '1.2.3.4/8/9']) {
      expect(() => normalizeIpEntry(bad)).toThrow(new RegExp(bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
    }
  });
});

describe('normalizeList', () => {
  it('caps lists at 50 entries and removes duplicates', () => {
    expect(normalizeList('ips', ['1.1.1.1', '1.1.1.1'])).toEqual(['1.1.1.1']);
    expect(() => normalizeList('ips', Array.from({ length: 51 }, (_, index) => `10.0.0.${index}`))).toThrow(/at most 50/);
  });
});
