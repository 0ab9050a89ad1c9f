/**
 * Shared micromobility (spec part 2 §2.8, §4.6): GBFS 2.x and 3.x feeds named
 * by GBFS_FEEDS (a gbfs.json URL or local path each). Docked stations come from
 * station_information + station_status; free-floating vehicles from
 * free_bike_status (2.x) or vehicle_status (3.x) with docksAvailable 0. URL
 * feeds are re-read on the discovery's ttl (15 s to 1 h).
 */
import { dirname, isAbsolute, join } from 'node:path';
import { haversineMeters } from '../../solvers/graph/geodesy.js';
import type { Logger } from '../../shared/logger.js';
import { readGbfsDocument, type GbfsFetchOptions } from './gbfs-fetch.js';
import type { GbfsQuery, VehicleType } from './transit-queries.js';

export const MICROMOBILITY_PROVIDER = 'svc-micromobility' as const;
const MIN_TTL_S = 15;
const MAX_TTL_S = 3_600;
/** A failed read is retried after this many seconds. */
const RETRY_S = 60;
const MAX_RESULTS = 200;

export interface MobilityStation {
  id: string;
  name: string;
  lat: number;
  lng: number;
  docked: boolean;
  /** Vehicles available per type. */
  available: Partial<Record<VehicleType, number>>;
  /** Total vehicles available (all types, also untyped). */
  total: number;
  docksAvailable: number;
}

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asNumber = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** GBFS 3.x names are arrays of { text, language }; 2.x plain strings. */
function nameOf(value: unknown): string {
  if (typeof value === 'string') return value;
  const first = asArray(value).map(asObject).find((entry) => typeof entry.text === 'string');
  return (first?.text as string) ?? '';
}

/** A GBFS vehicle type to the API's, or undefined for kinds the API does not serve (cars, mopeds…). */
export function vehicleTypeOf(type: Json | undefined): VehicleType | undefined {
  if (!type) return 'bike';
  const form = String(type.form_factor ?? 'bicycle');
  if (form.startsWith('scooter')) return 'scooter';
  if (form === 'bicycle' || form === 'cargo_bicycle') return type.propulsion_type === 'human' || type.propulsion_type === undefined ? 'bike' : 'ebike';
  return undefined;
}

/** Parses one feed's documents into stations and free vehicles. */
export function parseGbfs(documents: { stationInformation?: unknown; stationStatus?: unknown; freeVehicles?: unknown; vehicleTypes?: unknown }, prefix: string): MobilityStation[] {
  const types = new Map<string, Json>();
  for (const entry of asArray(asObject(asObject(documents.vehicleTypes).data).vehicle_types).map(asObject)) types.set(String(entry.vehicle_type_id), entry);
  const typeOf = (id: unknown) => vehicleTypeOf(id === undefined ? undefined : types.get(String(id)) ?? {});
  const status = new Map<string, Json>();
  for (const entry of asArray(asObject(asObject(documents.stationStatus).data).stations).map(asObject)) status.set(String(entry.station_id), entry);
  const stations: MobilityStation[] = [];
  for (const info of asArray(asObject(asObject(documents.stationInformation).data).stations).map(asObject)) {
    const lat = asNumber(info.lat);
    const lng = asNumber(info.lon);
    if (lat === undefined || lng === undefined) continue;
    const state = status.get(String(info.station_id)) ?? {};
    const renting = state.is_renting !== false && state.is_renting !== 0 && state.is_installed !== false && state.is_installed !== 0;
    const total = renting ? asNumber(state.num_vehicles_available) ?? asNumber(state.num_bikes_available) ?? 0 : 0;
    const available: MobilityStation['available'] = {};
    for (const entry of asArray(state.vehicle_types_available).map(asObject)) {
      const kind = typeOf(entry.vehicle_type_id);
      if (kind && renting) available[kind] = (available[kind] ?? 0) + (asNumber(entry.count) ?? 0);
    }
    if (!Object.keys(available).length) available.bike = total;
    const returning = state.is_returning !== false && state.is_returning !== 0;
    stations.push({ id: `${prefix}:${info.station_id}`, name: nameOf(info.name), lat, lng, docked: true, available, total, docksAvailable: returning ? asNumber(state.num_docks_available) ?? 0 : 0 });
  }
  const free = asObject(asObject(documents.freeVehicles).data);
  for (const vehicle of [...asArray(free.bikes), ...asArray(free.vehicles)].map(asObject)) {
    const lat = asNumber(vehicle.lat);
    const lng = asNumber(vehicle.lon);
    if (lat === undefined || lng === undefined || vehicle.is_reserved === true || vehicle.is_disabled === true || vehicle.station_id) continue;
    const kind = typeOf(vehicle.vehicle_type_id);
    if (!kind) continue;
    const id = String(vehicle.vehicle_id ?? vehicle.bike_id);
    stations.push({ id: `${prefix}:${id}`, name: `Free-floating ${kind}`, lat, lng, docked: false, available: { [kind]: 1 }, total: 1, docksAvailable: 0 });
  }
  return stations;
}

/** The feed URLs of a discovery document (2.x: per language, the first; 3.x: flat). */
function discoveryFeeds(discovery: unknown): Map<string, string> {
  const data = asObject(asObject(discovery).data);
  const list = Array.isArray(data.feeds) ? data.feeds : asArray(asObject(Object.values(data)[0]).feeds);
  const feeds = new Map<string, string>();
  for (const entry of list.map(asObject)) if (typeof entry.name === 'string' && typeof entry.url === 'string') feeds.set(entry.name, entry.url);
  return feeds;
}

export class GbfsService {
  private readonly stationsByFeed = new Map<string, MobilityStation[]>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly sources: readonly string[],
    private readonly fetchOptions: GbfsFetchOptions,
    private readonly logger: Logger,
  ) {}

  /** Reads every feed once (a failing one is logged and retried), then keeps URL feeds fresh. */
  async start(): Promise<void> {
    await Promise.all(this.sources.map((source, index) => this.refresh(source, `gbfs${index + 1}`)));
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(source: string, prefix: string, seconds: number): void {
    if (this.stopped || !/^https?:\/\//i.test(source)) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.refresh(source, prefix);
    }, seconds * 1000);
    timer.unref();
    this.timers.add(timer);
  }

  private async refresh(source: string, prefix: string): Promise<void> {
    try {
      const discovery = await readGbfsDocument(source, this.fetchOptions);
      const feeds = discoveryFeeds(discovery);
      const locate = (name: string): string | undefined => {
        const url = feeds.get(name);
        if (url && /^https?:\/\//i.test(url)) return url;
        if (/^https?:\/\//i.test(source)) return url ? new URL(url, source).toString() : undefined;
        const base = dirname(source);
        return url ? (isAbsolute(url) ? url : join(base, url.replace(/^file:\/\//, ''))) : join(base, `${name}.json`);
      };
      const read = async (name: string) => {
        const location = locate(name);
        return location ? readGbfsDocument(location, this.fetchOptions).catch(() => undefined) : undefined;
      };
      const [stationInformation, stationStatus, vehicleTypes, freeBikes, vehicles] = await Promise.all([
        read('station_information'),
        read('station_status'),
        read('vehicle_types'),
        feeds.has('vehicle_status') ? undefined : read('free_bike_status'),
        feeds.has('vehicle_status') || !feeds.has('free_bike_status') ? read('vehicle_status') : undefined,
      ]);
      const stations = parseGbfs({ stationInformation, stationStatus, vehicleTypes, freeVehicles: freeBikes ?? vehicles }, prefix);
      this.stationsByFeed.set(prefix, stations);
      const ttl = Math.min(MAX_TTL_S, Math.max(MIN_TTL_S, asNumber(asObject(stationStatus).ttl) ?? asNumber(asObject(discovery).ttl) ?? 60));
      this.logger.info({ feed: prefix, stations: stations.length, ttl }, 'gbfs feed read');
      this.schedule(source, prefix, ttl);
    } catch (error) {
      this.logger.warn({ feed: prefix, error: (error as Error).message }, 'gbfs feed unreadable');
      this.schedule(source, prefix, RETRY_S);
    }
  }

  nearby(query: GbfsQuery) {
    const hits = [];
    for (const stations of this.stationsByFeed.values()) {
      for (const station of stations) {
        const distanceM = Math.round(haversineMeters(query.lat, query.lng, station.lat, station.lng));
        if (distanceM > query.radius) continue;
        const vehicleType = query.type ?? dominant(station.available);
        const bikesAvailable = query.type ? station.available[query.type] ?? 0 : station.total;
        if (query.type && station.available[query.type] === undefined) continue;
        if (query.minBikes !== undefined && bikesAvailable < query.minBikes) continue;
        if (query.minDocks !== undefined && station.docksAvailable < query.minDocks) continue;
        hits.push({ id: station.id, name: station.name, vehicleType, lat: station.lat, lng: station.lng, bikesAvailable, docksAvailable: station.docksAvailable, distanceM });
      }
    }
    hits.sort((a, b) => a.distanceM - b.distanceM || a.id.localeCompare(b.id));
    const stations = hits.slice(0, MAX_RESULTS);
    return {
      provider: MICROMOBILITY_PROVIDER,
      filters: { vehicleType: query.type ?? null, minBikes: query.minBikes ?? null, minDocks: query.minDocks ?? null },
      count: stations.length,
      stations,
    };
  }
}

function dominant(available: MobilityStation['available']): VehicleType {
  let best: VehicleType = 'bike';
  let most = -1;
  for (const [kind, count] of Object.entries(available) as Array<[VehicleType, number]>) {
    if (count > most) {
      best = kind;
      most = count;
    }
  }
  return best;
}
