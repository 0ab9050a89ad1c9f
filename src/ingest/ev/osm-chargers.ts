/**
 * Charging stations of the map pack (OSM `amenity=charging_station`, layer
 * `ev_charger`, ODbL) as EvSourceStations: `socket:<type>=<count>` and
 * `socket:<type>:output=<power>` give the connectors and kW, `network`, then
 * `operator`, then `brand` the network. A mapped station is operational unless
 * `operational_status` says otherwise (OSM marks removed or disused ones with
 * lifecycle prefixes, which the ingest does not take); `access=private|no`
 * stations are left out (nobody else may charge there). docs/ev.md.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import type { EvConnector, EvConnectorType, EvSourceStation, EvStationStatus } from '../../domain/ev-station.js';

/** OSM socket keys (wiki Key:socket) → connector family. */
const SOCKETS: ReadonlyMap<string, EvConnectorType> = new Map([
  ['type2_combo', 'CCS'],
  ['type1_combo', 'CCS'],
  ['chademo', 'CHAdeMO'],
  ['type2', 'Type2'],
  ['type2_cable', 'Type2'],
  ['type1', 'Type1'],
  ['type1_cable', 'Type1'],
  ['tesla_supercharger', 'Tesla'],
  ['tesla_supercharger_ccs', 'CCS'],
  ['tesla_destination', 'Tesla'],
  ['nacs', 'Tesla'],
  ['gb_dc', 'GB/T'],
  ['gb_ac', 'GB/T'],
  ['schuko', 'Schuko'],
]);

const OFFLINE_STATUS = /^(closed|broken|out_of_order|out_of_service|unavailable|disused|needs_repair)$/i;
const SOURCE_KINDS = ['node', 'way', 'relation'] as const;

/** `50 kW`, `22kW`, `7400 W`, `3.7 kVA`, `11;22 kW` (the largest) → kW; null when unreadable. */
export function parseOutputKw(value: string | undefined): number | null {
  if (!value) return null;
  let best: number | null = null;
  for (const part of value.split(/[;,]/)) {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(kw|kva|w|mw)?\s*$/i.exec(part);
    if (!match) continue;
    const unit = (match[2] ?? 'kw').toLowerCase();
    const kw = Number(match[1]) * (unit === 'w' ? 0.001 : unit === 'mw' ? 1000 : 1);
    if (kw > 0 && kw < 2000 && (best === null || kw > best)) best = Math.round(kw * 10) / 10;
  }
  return best;
}

/** Connectors from the `socket:*` tags. */
export function socketConnectors(tags: Readonly<Record<string, string>>): EvConnector[] {
  const connectors: EvConnector[] = [];
  for (const [socket, type] of SOCKETS) {
    const value = tags[`socket:${socket}`];
    if (value === undefined || value === 'no' || value === '0') continue;
    const count = /^\d+$/.test(value) ? Number(value) : 1;
    const kw = parseOutputKw(tags[`socket:${socket}:output`]);
    const same = connectors.find((connector) => connector.type === type && connector.kw === kw);
    if (same) same.count += count;
    else connectors.push({ type, kw, count });
  }
  return connectors;
}

function clean(value: string | undefined, max = 200): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, max) : null;
}

function statusOf(tags: Readonly<Record<string, string>>): EvStationStatus {
  const status = tags.operational_status ?? tags.status;
  if (status && OFFLINE_STATUS.test(status.trim())) return 'offline';
  return 'operational';
}

function pricingOf(tags: Readonly<Record<string, string>>): string | null {
  const charge = clean(tags.charge);
  if (charge) return charge;
  if (tags.fee === 'no') return 'free';
  if (tags.fee === 'yes') return 'paid';
  return null;
}

function addressOf(tags: Readonly<Record<string, string>>): string | null {
  const street = [clean(tags['addr:housenumber']), clean(tags['addr:street'])].filter(Boolean).join(' ');
  const parts = [street, clean(tags['addr:city'])].filter((part): part is string => Boolean(part));
  return parts.length ? parts.join(', ') : null;
}

/** One source station per usable `ev_charger` feature of the pack. */
export function packChargers(pack: MapPack): EvSourceStation[] {
  const s = pack.sections;
  const [start, end] = pack.layerRange('ev_charger');
  const stations: EvSourceStation[] = [];
  for (let feature = start; feature < end; feature++) {
    const kind = SOURCE_KINDS[s['features.sourceKind'][feature]!];
    if (!kind) continue;
    const tags = pack.featureTags(feature);
    if (tags.access === 'private' || tags.access === 'no') continue;
    const [lng, lat] = pack.featurePosition(feature);
    stations.push({
      source: 'osm',
      sourceId: `${kind}/${s['features.osmId'][feature]}`,
      name: clean(tags.name) ?? clean(tags['name:en']) ?? clean(tags.brand),
      network: clean(tags.network, 120) ?? clean(tags.operator, 120) ?? clean(tags.brand, 120),
      lat: Math.round(lat * 1e7) / 1e7,
      lng: Math.round(lng * 1e7) / 1e7,
      connectors: socketConnectors(tags),
      status: statusOf(tags),
      pricing: pricingOf(tags),
      address: addressOf(tags),
    });
  }
  return stations;
}
