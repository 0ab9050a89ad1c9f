import { BlockList, isIP } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail converted). */
export function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? left.length !== 8 : missing < 0) return undefined;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((group) => parseInt(group, 16));
  return groups.length === 8 && groups.every((group) => group >= 0 && group <= 0xffff) ? groups : undefined;
}

/** IPv4-mapped IPv6 (`::ffff:1.2.3.4`, in any spelling) → `1.2.3.4`; other addresses lower-cased as they are. */
export function normalizeIp(address: string): string {
  const lowered = address.trim().toLowerCase();
  if (isIP(lowered) !== 6) return lowered;
  const groups = ipv6Groups(lowered);
  if (!groups || groups.slice(0, 5).some((group) => group !== 0) || groups[5] !== 0xffff) return lowered;
  return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
}

const MEMO_ENTRIES = 10_000;

/**
 * The unit per-address limits count in: an IPv4 address, or the /64 of an IPv6
 * address (one subscriber usually holds a whole /64, so counting each /128 would
 * hand out unlimited budget).
 */
export function limitBucketOf(address: string): string {
  const normalized = normalizeIp(address);
  if (isIP(normalized) !== 6) return normalized;
  const groups = ipv6Groups(normalized);
  return groups ? `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64` : normalized;
}

/** A set of addresses and CIDR ranges (IPv4 and IPv6) answering "is this address in it?". */
export class AddressSet {
  private readonly blockList = new BlockList();
  /** BlockList.check builds a SocketAddress per call; the same few addresses come back again and again. */
  private readonly memo = new Map<string, boolean>();
  readonly size: number;

  /**
   * An entry that cannot be compiled is skipped but still counts in `size`: a
   * restricted key whose list is unusable then matches nothing (fails closed).
   */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = '', prefix] = entry.split('/');
      const normalized = normalizeIp(address);
      const family = isIP(normalized) === 6 ? 'ipv6' : 'ipv4';
      if (isIP(normalized) === 0) continue;
      try {
        if (prefix === undefined) this.blockList.addAddress(normalized, family);
        else this.blockList.addSubnet(normalized, Number(prefix), family);
      } catch {
        // e.g. an IPv6 prefix length on an address that normalised to IPv4.
      }
    }
    this.size = entries.length;
  }

  has(address: string): boolean {
    if (this.size === 0) return false;
    const known = this.memo.get(address);
    if (known !== undefined) return known;
    const normalized = normalizeIp(address);
    const version = isIP(normalized);
    const result = version !== 0 && this.blockList.check(normalized, version === 6 ? 'ipv6' : 'ipv4');
    if (this.memo.size >= MEMO_ENTRIES) this.memo.clear();
    this.memo.set(address, result);
    return result;
  }
}

/**
 * The client's address: the TCP peer, or, when the peer is a trusted proxy,
 * the right-most address in X-Forwarded-For that is not itself a trusted proxy
 * (entries further left can be forged by the client).
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, trustedProxies: AddressSet): string {
  const direct = normalizeIp(peer);
  if (!forwardedFor || trustedProxies.size === 0 || !trustedProxies.has(direct)) return direct;
  const hops = forwardedFor
    .split(',')
    .map((hop) => normalizeIp(hop))
    .filter((hop) => isIP(hop) !== 0);
  for (let index = hops.length - 1; index >= 0; index--) {
    if (!trustedProxies.has(hops[index]!)) return hops[index]!;
  }
  return hops[0] ?? direct;
}

/** An address as the access gate counts it: the client's address and its limit bucket (limitBucketOf). */
export interface ResolvedClient {
  readonly address: string;
  readonly bucket: string;
}

/**
 * `clientAddress` and `limitBucketOf` of every request, kept by peer and X-Forwarded-For: both are pure functions of
 * those two texts (the trusted proxies never change while the set lives), and the same few thousand clients come back
 * request after request, so the header's split and the address parsing (regular expressions per hop) run once each.
 */
/** The longest X-Forwarded-For the resolver keeps an answer for (a few hops; a memo key is at most this plus the peer). */
const MEMO_HEADER_CHARS = 256;

export class ClientResolver {
  /**
   * Answers by peer alone (no header counted), and by trusted proxy and then header: two levels rather than one key
   * made of both, since such a key would be a new text to hash and compare in full on every request.
   */
  private readonly direct = new Map<string, ResolvedClient>();
  private readonly proxied = new Map<string, Map<string, ResolvedClient>>();
  private kept = 0;

  constructor(private readonly trustedProxies: AddressSet) {}

  of(peer: string, forwardedFor: string | undefined): ResolvedClient {
    // a peer kept with headers is a trusted proxy (no other is), so a header it sent before is answered at once
    if (forwardedFor !== undefined) {
      const kept = this.proxied.get(peer)?.get(forwardedFor);
      if (kept !== undefined) return kept;
    }
    // The header counts only from a trusted proxy; any other peer is keyed on its own address, so a client cannot
    // fill the memo with header text of its choosing (up to 16 KiB a request). Behind a proxy the forgeable part is
    // bounded: a longer header is resolved without being kept. (`has` normalizes the address itself.)
    const header = forwardedFor !== undefined && this.trustedProxies.size > 0 && this.trustedProxies.has(peer) ? forwardedFor : undefined;
    if (header === undefined) {
      let resolved = this.direct.get(peer);
      if (resolved === undefined) {
        resolved = this.resolve(peer, undefined);
        this.makeRoom();
        this.direct.set(peer, resolved);
      }
      return resolved;
    }
    if (header.length > MEMO_HEADER_CHARS) return this.resolve(peer, header);
    let byHeader = this.proxied.get(peer);
    let resolved = byHeader?.get(header);
    if (resolved === undefined) {
      resolved = this.resolve(peer, header);
      if (this.makeRoom() || byHeader === undefined) this.proxied.set(peer, (byHeader = new Map()));
      byHeader.set(header, resolved);
    }
    return resolved;
  }

  /** Makes room for one more answer: past MEMO_ENTRIES every answer is forgotten first (then true). */
  private makeRoom(): boolean {
    const cleared = this.kept >= MEMO_ENTRIES;
    if (cleared) {
      this.direct.clear();
      this.proxied.clear();
      this.kept = 0;
    }
    this.kept++;
    return cleared;
  }

  private resolve(peer: string, forwardedFor: string | undefined): ResolvedClient {
    const address = clientAddress(peer, forwardedFor, this.trustedProxies);
    return { address, bucket: limitBucketOf(address) };
  }
}
