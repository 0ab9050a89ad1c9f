/**
 * Reads Open Charge Map exports (CC BY 4.0): a JSON file holding one POI or an
 * array of POIs (the API's answer), or a folder of such files. Each POI becomes
 * one EvSourceStation: connectors from `Connections` (type by OCM's
 * ConnectionTypeID reference list, kW from `PowerKW`, count from `Quantity`),
 * status from the POI's and connections' StatusTypeID, the network from
 * `OperatorInfo.Title` (full exports) or the few operator ids below, the
 * address from `AddressInfo`. docs/ev.md.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EvConnector, EvConnectorType, EvSourceStation, EvStationStatus } from '../../domain/ev-station.js';
import { IngestError } from '../ingest-error.js';

/** OCM ConnectionTypeID → connector family (OCM reference data, `ConnectionTypes`). */
const CONNECTION_TYPES = new Map<number, EvConnectorType>([
  [1, 'Type1'], // Type 1 (J1772)
  [2, 'CHAdeMO'],
  [8, 'Tesla'], // Tesla (Roadster)
  [25, 'Type2'], // Type 2 (Socket Only)
  [1036, 'Type2'], // Type 2 (Tethered Connector)
  [27, 'Tesla'], // NACS / Tesla Supercharger
  [30, 'Tesla'], // Tesla (Model S/X)
  [32, 'CCS'], // CCS (Type 1)
  [33, 'CCS'], // CCS (Type 2)
  [1038, 'GB/T'], // GB-T AC (Socket)
  [1039, 'GB/T'], // GB-T AC (Tethered Cable)
  [1040, 'GB/T'], // GB-T DC
  [28, 'Schuko'], // CEE 7/4 - Schuko - Type F
]);

/** Operators whose name OCM exports carry only as an id. 1 and 45 are OCM's "(Unknown Operator)" and "(Business Owner at Location)": no network. */
const OPERATORS = new Map<number, string | null>([
  [1, null],
  [45, null],
  [23, 'Tesla Motors (Worldwide)'],
]);

/**
 * OCM StatusTypeID → status: 10 available, 20 in use, 50 operational, 75 partly operational are
 * operational; 30 temporarily unavailable, 100 not operational, 150 planned, 200/210 removed are
 * offline; 0 and anything else unknown.
 */
export function ocmStatus(statusTypeId: unknown): EvStationStatus {
  switch (statusTypeId) {
    case 10:
    case 20:
    case 50:
    case 75:
      return 'operational';
    case 30:
    case 100:
    case 150:
    case 200:
    case 210:
      return 'offline';
    default:
      return 'unknown';
  }
}

type Json = Record<string, unknown>;

function text(value: unknown, max = 300): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, max) : null;
}

function positiveNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

/** A connection with no GB/T id but a comment naming it (OCM's "Unknown" type + "GB/T DC") keeps its family. */
function connectionType(connection: Json): EvConnectorType {
  const known = CONNECTION_TYPES.get(Number(connection.ConnectionTypeID));
  if (known) return known;
  const comment = typeof connection.Comments === 'string' ? connection.Comments : '';
  if (/gb\s*\/?\s*t/i.test(comment)) return 'GB/T';
  return 'Other';
}

/** Connectors of one POI, same type and kW added together. */
function connectorsOf(connections: Json[]): EvConnector[] {
  const merged = new Map<string, EvConnector>();
  for (const connection of connections) {
    const type = connectionType(connection);
    const kw = positiveNumber(connection.PowerKW);
    const count = Math.max(1, Math.floor(positiveNumber(connection.Quantity) ?? 1));
    const key = `${type}|${kw}`;
    const existing = merged.get(key);
    if (existing) existing.count += count;
    else merged.set(key, { type, kw, count });
  }
  return [...merged.values()];
}

/** The site's status: its own StatusTypeID, else operational when any connection is. */
function statusOf(poi: Json, connections: Json[]): EvStationStatus {
  const own = ocmStatus(poi.StatusTypeID);
  if (own !== 'unknown') return own;
  const statuses = connections.map((connection) => ocmStatus(connection.StatusTypeID));
  if (statuses.includes('operational')) return 'operational';
  if (statuses.length && statuses.every((status) => status === 'offline')) return 'offline';
  return 'unknown';
}

function networkOf(poi: Json): string | null {
  const info = poi.OperatorInfo as Json | undefined;
  const title = text(info?.Title, 120);
  if (title && !/^\(.*\)$/.test(title)) return title;
  const id = Number(poi.OperatorID);
  return OPERATORS.get(id) ?? null;
}

function addressOf(info: Json): string | null {
  const parts = [info.AddressLine1, info.AddressLine2, info.Town, info.StateOrProvince, info.Postcode].map((part) => text(part, 120)).filter((part): part is string => part !== null);
  return parts.length ? [...new Set(parts)].join(', ') : null;
}

/** One POI as a source station; throws with `where` when it has no id or no usable position. */
export function ocmStation(poi: unknown, where: string): EvSourceStation {
  if (!poi || typeof poi !== 'object' || Array.isArray(poi)) throw new IngestError('corrupt', `${where}: not an Open Charge Map POI object`);
  const record = poi as Json;
  const info = (record.AddressInfo ?? {}) as Json;
  const lat = info.Latitude;
  const lng = info.Longitude;
  if (typeof record.ID !== 'number' || !Number.isInteger(record.ID)) throw new IngestError('corrupt', `${where}: POI without a numeric ID`);
  if (typeof lat !== 'number' || typeof lng !== 'number' || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
    throw new IngestError('corrupt', `${where}: POI ${record.ID} has no valid AddressInfo.Latitude/Longitude`);
  }
  const connections = Array.isArray(record.Connections) ? (record.Connections.filter((c) => c && typeof c === 'object') as Json[]) : [];
  return {
    source: 'ocm',
    sourceId: String(record.ID),
    name: text(info.Title),
    network: networkOf(record),
    lat: Math.round(lat * 1e7) / 1e7,
    lng: Math.round(lng * 1e7) / 1e7,
    connectors: connectorsOf(connections),
    status: statusOf(record, connections),
    pricing: text(record.UsageCost, 200),
    address: addressOf(info),
  };
}

function readJsonFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new IngestError('corrupt', `${path}: not JSON (${(error as Error).message})`);
  }
}

/** The POIs of an OCM export file or folder (every `*.json` in it), in file order. */
export function readOcmExport(path: string): EvSourceStation[] {
  if (!existsSync(path)) throw new IngestError('file_not_found', `${path}: no such file or folder`);
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((name) => name.toLowerCase().endsWith('.json'))
        .sort()
        .map((name) => join(path, name))
    : [path];
  if (files.length === 0) throw new IngestError('empty_selection', `${path}: no .json files`);
  const stations: EvSourceStation[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const content = readJsonFile(file);
    const pois = Array.isArray(content) ? content : [content];
    pois.forEach((poi, index) => {
      const station = ocmStation(poi, Array.isArray(content) ? `${file} [${index}]` : file);
      // the same POI in two files (an export and a later one): the later wins
      if (seen.has(station.sourceId)) stations.splice(stations.findIndex((s) => s.sourceId === station.sourceId), 1);
      seen.add(station.sourceId);
      stations.push(station);
    });
  }
  return stations;
}
