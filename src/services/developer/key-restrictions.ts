import { isIP } from 'node:net';
import { normalizeIp } from '../access/ip-address.js';
import { LIMIT_DEFAULTS } from './catalog.js';

/** A key's restriction lists (spec part 1 §4.1, "Restriction matching"). */
export interface KeyRestrictions {
  referrers: string[];
  ips: string[];
}

export class InvalidRestrictionError extends Error {
  constructor(
    readonly list: 'referrers' | 'ips',
    readonly entry: string,
    reason: string,
  ) {
    super(`restrictions.${list}: "${entry}" is not valid (${reason})`);
  }
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Normalises a website entry to `host[:port]`: a protocol, path, query or
 * fragment is accepted and dropped, the host is lower-cased; `*.domain` is
 * kept as the wildcard for subdomains.
 */
export function normalizeReferrer(entry: string): string {
  const fail = (reason: string) => new InvalidRestrictionError('referrers', entry, reason);
  let text = entry.trim().toLowerCase();
  if (!text) throw fail('empty');
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  text = text.split(/[/?#]/, 1)[0]!;
  if (text.includes('@')) throw fail('credentials are not allowed');
  let host = text;
  let port: string | undefined;
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    if (isIP(bracketed[1]!) !== 6) throw fail('bad IPv6 address');
    host = `[${bracketed[1]}]`;
    port = bracketed[2];
  } else {
    const colon = text.lastIndexOf(':');
    if (colon >= 0) {
      host = text.slice(0, colon);
      port = text.slice(colon + 1);
    }
    const wildcard = host.startsWith('*.');
    const labels = (wildcard ? host.slice(2) : host).split('.');
    if (host.length > 253 || labels.some((label) => !LABEL.test(label))) throw fail('bad host name');
    if (wildcard && labels.length < 2) throw fail('a wildcard needs a domain with at least two labels');
  }
  if (port !== undefined) {
    const number = Number(port);
    if (!/^\d{1,5}$/.test(port) || number < 1 || number > 65535) throw fail('bad port');
    return `${host}:${number}`;
  }
  return host;
}

/** Validates an IPv4 or IPv6 address or CIDR range; returns it in a canonical lower-case form. */
export function normalizeIpEntry(entry: string): string {
  const fail = (reason: string) => new InvalidRestrictionError('ips', entry, reason);
  const text = entry.trim().toLowerCase();
  const [address = '', prefix, extra] = text.split('/');
  if (extra !== undefined) throw fail('bad CIDR range');
  const version = isIP(address);
  if (version === 0) throw fail('not an IP address');
  // Clients are matched with IPv4-mapped IPv6 turned into IPv4, so entries are stored the same way.
  const mapped = normalizeIp(address);
  const isMapped = version === 6 && isIP(mapped) === 4;
  if (prefix === undefined) return isMapped ? mapped : address;
  const bits = Number(prefix);
  if (!/^\d{1,3}$/.test(prefix) || bits > (version === 4 ? 32 : 128)) throw fail('bad prefix length');
  if (isMapped) {
    if (bits < 96) throw fail('an IPv4-mapped range needs a prefix of at least 96');
    return `${mapped}/${bits - 96}`;
  }
  return `${address}/${bits}`;
}

/** Normalises one list, refusing (not dropping) any invalid entry and more than 50 entries. */
export function normalizeList(list: 'referrers' | 'ips', entries: readonly string[]): string[] {
  if (entries.length > LIMIT_DEFAULTS.restrictionEntriesPerList) {
    throw new InvalidRestrictionError(list, `${entries.length} entries`, `at most ${LIMIT_DEFAULTS.restrictionEntriesPerList} entries`);
  }
  const normalize = list === 'referrers' ? normalizeReferrer : normalizeIpEntry;
  return [...new Set(entries.map(normalize))];
}
