/**
 * One site described by Open Charge Map and by OSM becomes one station. The
 * rule (docs/ev.md): an OCM POI and an OSM charging station are the same site when
 *   - their networks are both known and the same (case, spaces and punctuation
 *     ignored, one name containing the other: "JoPetrol" = "Jo Petrol EV") and they lie
 *     within SAME_NETWORK_M (150 m: a fuel station's forecourt and its OSM node), or
 *   - at least one network is unknown and they lie within SAME_SPOT_M (50 m),
 * and never when both networks are known and differ (two operators side by side
 * are two sites). Pairs are taken closest first; each record joins at most one
 * other. Records of one source are never merged with each other (the source
 * already lists them apart).
 *
 * The merged station keeps OCM's status, pricing, address and connectors (they
 * come from operator reports) and fills what OCM lacks from OSM; its position is
 * OSM's (mapped on the same data the router uses), its network the first known.
 */
import type { EvSourceStation, EvStation } from '../../domain/ev-station.js';
import { haversineMeters } from '../../solvers/graph/geodesy.js';

export const SAME_NETWORK_M = 150;
export const SAME_SPOT_M = 50;
const DEFAULT_NAME = 'EV charging station';

export function normalizedNetwork(network: string | null): string | null {
  const key = network?.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  return key ? key : null;
}

/** Whether two records of different sources describe one site (the rule above). */
export function sameSite(a: EvSourceStation, b: EvSourceStation): { same: boolean; meters: number } {
  const meters = haversineMeters(a.lat, a.lng, b.lat, b.lng);
  if (a.source === b.source) return { same: false, meters };
  const na = normalizedNetwork(a.network);
  const nb = normalizedNetwork(b.network);
  if (na && nb) return { same: (na.includes(nb) || nb.includes(na)) && meters <= SAME_NETWORK_M, meters };
  return { same: meters <= SAME_SPOT_M, meters };
}

function maxKw(station: Pick<EvStation, 'connectors'>): number | null {
  let best: number | null = null;
  for (const connector of station.connectors) if (connector.kw !== null && (best === null || connector.kw > best)) best = connector.kw;
  return best;
}

function stationOf(records: EvSourceStation[]): EvStation {
  const ocm = records.find((record) => record.source === 'ocm');
  const osm = records.find((record) => record.source === 'osm');
  const primary = ocm ?? osm!;
  const position = osm ?? primary;
  const connectors = (ocm?.connectors.length ? ocm.connectors : osm?.connectors) ?? [];
  const merged: EvStation = {
    id: `${primary.source}:${primary.sourceId}`,
    name: ocm?.name ?? osm?.name ?? DEFAULT_NAME,
    network: ocm?.network ?? osm?.network ?? null,
    lat: position.lat,
    lng: position.lng,
    connectors: connectors.map((connector) => ({ ...connector })),
    maxKw: null,
    // OCM's status is reported; OSM's only says the station is mapped
    status: ocm && ocm.status !== 'unknown' ? ocm.status : (osm?.status ?? primary.status),
    pricing: ocm?.pricing ?? osm?.pricing ?? null,
    address: ocm?.address ?? osm?.address ?? null,
    sources: records.map((record) => `${record.source}:${record.sourceId}`),
  };
  merged.maxKw = maxKw(merged);
  return merged;
}

/** The stations the API shows: every record, records of one site merged. */
export function mergeStations(records: readonly EvSourceStation[]): EvStation[] {
  const ocm = records.filter((record) => record.source === 'ocm');
  const osm = records.filter((record) => record.source === 'osm');
  const pairs: { a: number; b: number; meters: number }[] = [];
  // a degree of latitude is 111 km: a coarse box first keeps this cheap for country-sized sources
  const sortedOsm = osm.map((record, index) => ({ record, index })).sort((x, y) => x.record.lat - y.record.lat);
  const reachDeg = SAME_NETWORK_M / 111_000;
  for (let a = 0; a < ocm.length; a++) {
    const station = ocm[a]!;
    let low = 0;
    let high = sortedOsm.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sortedOsm[middle]!.record.lat < station.lat - reachDeg) low = middle + 1;
      else high = middle;
    }
    for (let k = low; k < sortedOsm.length && sortedOsm[k]!.record.lat <= station.lat + reachDeg; k++) {
      const { same, meters } = sameSite(station, sortedOsm[k]!.record);
      if (same) pairs.push({ a, b: sortedOsm[k]!.index, meters });
    }
  }
  pairs.sort((x, y) => x.meters - y.meters);
  const ocmTaken = new Set<number>();
  const osmPartner = new Map<number, number>();
  for (const pair of pairs) {
    if (ocmTaken.has(pair.a) || osmPartner.has(pair.b)) continue;
    ocmTaken.add(pair.a);
    osmPartner.set(pair.b, pair.a);
  }
  const partnerOfOcm = new Map([...osmPartner].map(([b, a]) => [a, b]));
  const stations = ocm.map((record, a) => {
    const b = partnerOfOcm.get(a);
    return stationOf(b === undefined ? [record] : [record, osm[b]!]);
  });
  osm.forEach((record, b) => {
    if (!osmPartner.has(b)) stations.push(stationOf([record]));
  });
  return stations;
}
