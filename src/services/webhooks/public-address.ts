import { BlockList, isIP } from 'node:net';
import { ipv6Groups, normalizeIp } from '../access/ip-address.js';

/**
 * IPv4 ranges a server-side request must never reach: they are this host, the
 * private network it sits in, or not unicast at all.
 */
const REFUSED_IPV4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network", incl. the unspecified 0.0.0.0
  ['10.0.0.0', 8], // RFC 1918 private
  ['100.64.0.0', 10], // RFC 6598 carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. the cloud metadata service 169.254.169.254
  ['172.16.0.0', 12], // RFC 1918 private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918 private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. the broadcast 255.255.255.255
];

const REFUSED_IPV6: readonly (readonly [string, number])[] = [
  ['::', 96], // unspecified ::, loopback ::1 and the deprecated IPv4-compatible ::a.b.c.d
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT); IPv4-mapped ::ffff:a.b.c.d is judged as IPv4
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: the IPv4 it tunnels to is obfuscated, so it cannot be checked
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local, incl. the AWS metadata service fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
];

function buildRefusedList(): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of REFUSED_IPV4) list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of REFUSED_IPV6) list.addSubnet(network, prefix, 'ipv6');
  return list;
}

const refused = buildRefusedList();

/** The IPv4 address carried in the low 32 bits of an IPv6 address (NAT64) or in bits 16-48 (6to4). */
function embeddedIpv4(groups: readonly number[], high: number, low: number): string {
  return [groups[high]! >> 8, groups[high]! & 0xff, groups[low]! >> 8, groups[low]! & 0xff].join('.');
}

/**
 * True when `address` (an IP literal) is a public unicast address a webhook may
 * be sent to. IPv4-mapped (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4
 * (`2002::/16`) addresses are judged by the IPv4 address they lead to.
 */
export function isPublicAddress(address: string): boolean {
  const normalized = normalizeIp(address.replace(/^\[|\]$/g, ''));
  const version = isIP(normalized);
  if (version === 4) return !refused.check(normalized, 'ipv4');
  if (version !== 6) return false;
  const groups = ipv6Groups(normalized);
  if (!groups) return false;
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) {
    return isPublicAddress(embeddedIpv4(groups, 6, 7));
  }
  if (groups[0] === 0x2002) return isPublicAddress(embeddedIpv4(groups, 1, 2));
  return !refused.check(normalized, 'ipv6');
}
