/**
 * EV charging stations (migration 018, docs/ev.md): each source's records,
 * and the merged stations the API serves, rebuilt with every replacement.
 */
import type { EvConnector, EvSource, EvSourceStation, EvStation, EvStationStatus } from '../../domain/ev-station.js';
import type { SqlClient, SqlExecutor } from '../sql/sql-client.js';

export interface EvStationFilter {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
  minKw?: number;
  connector?: string;
  /** Leave out offline stations. */
  availableOnly?: boolean;
  /** A network name as /ev/networks lists it; `Unknown` is the stations without one. */
  network?: string;
  /** Only these statuses. */
  statuses?: EvStationStatus[];
  limit: number;
}

export interface EvNetworkRow {
  network: string;
  count: number;
  maxKw: number | null;
}

/** Names the lock among Postgres advisory locks that orders replacements (two servers starting, an import meanwhile). */
const EV_REPLACE_LOCK_KEY = 7_240_119_318;
/** Rows per insert statement (one jsonb parameter each). */
const BATCH = 1000;

function parseJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

function stationOf(row: Record<string, unknown>): EvStation {
  return {
    id: String(row.id),
    name: String(row.name),
    network: (row.network as string | null) ?? null,
    lat: Number(row.lat),
    lng: Number(row.lng),
    // jsonb keeps keys in its own order: rebuild each connector in the order of §2.7
    connectors: parseJson<EvConnector[]>(row.connectors).map(({ type, kw, count }) => ({ type, kw, count })),
    maxKw: row.max_kw === null || row.max_kw === undefined ? null : Number(row.max_kw),
    status: String(row.status) as EvStationStatus,
    pricing: (row.pricing as string | null) ?? null,
    address: (row.address as string | null) ?? null,
    sources: parseJson<string[]>(row.sources_json),
  };
}

const STATION_COLUMNS = 'id, name, network, lat, lng, connectors, max_kw, status, pricing, address, to_jsonb(sources) as sources_json';

export class EvStationRepository {
  constructor(private readonly sql: SqlClient) {}

  /** What a source was last built from (undefined: never imported). */
  async stamp(source: EvSource): Promise<string | undefined> {
    const [row] = await this.sql.query<{ stamp: string }>('select stamp from ev_source_stamps where source = $1', [source]);
    return row?.stamp;
  }

  /**
   * Replaces every record of `source` and rebuilds the served stations with
   * `merge` over all sources' records, in one transaction: readers see the
   * stations before or after, never half.
   */
  async replaceSource(source: EvSource, records: readonly EvSourceStation[], stamp: string, merge: (all: EvSourceStation[]) => EvStation[]): Promise<{ records: number; stations: number }> {
    return this.sql.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [EV_REPLACE_LOCK_KEY]);
      await tx.query('delete from ev_source_stations where source = $1', [source]);
      for (let index = 0; index < records.length; index += BATCH) {
        const batch = records.slice(index, index + BATCH).map((record) => ({ source, source_id: record.sourceId, record }));
        await tx.query(`insert into ev_source_stations (source, source_id, record) select source, source_id, record from jsonb_to_recordset($1::text::jsonb) as x(source text, source_id text, record jsonb)`, [JSON.stringify(batch)]);
      }
      await tx.query(`insert into ev_source_stamps (source, stamp) values ($1, $2) on conflict (source) do update set stamp = excluded.stamp, imported_at = clock_timestamp()`, [source, stamp]);
      const all = (await tx.query<{ record: unknown }>('select record from ev_source_stations order by source, source_id')).map((row) => parseJson<EvSourceStation>(row.record));
      const stations = merge(all);
      await replaceStations(tx, stations);
      return { records: records.length, stations: stations.length };
    });
  }

  /** Stations matching the filter, strongest first, and how many matched before the limit. */
  async search(filter: EvStationFilter): Promise<{ total: number; stations: EvStation[] }> {
    const params: unknown[] = [filter.minLat, filter.maxLat, filter.minLng, filter.maxLng];
    const where = ['lat between $1 and $2', 'lng between $3 and $4'];
    if (filter.minKw !== undefined) {
      params.push(filter.minKw);
      where.push(`max_kw >= $${params.length}`);
    }
    if (filter.connector !== undefined) {
      params.push(filter.connector);
      where.push(`$${params.length} = any(connector_types)`);
    }
    if (filter.availableOnly) where.push(`status <> 'offline'`);
    if (filter.statuses) {
      params.push(JSON.stringify(filter.statuses));
      where.push(`status in (select jsonb_array_elements_text($${params.length}::text::jsonb))`);
    }
    if (filter.network !== undefined) {
      params.push(filter.network.toLowerCase());
      where.push(`lower(coalesce(network, 'Unknown')) = $${params.length}`);
    }
    params.push(filter.limit);
    const rows = await this.sql.query<Record<string, unknown>>(
      `select ${STATION_COLUMNS}, count(*) over () as total from ev_stations where ${where.join(' and ')} order by max_kw desc nulls last, id limit $${params.length}`,
      params,
    );
    return { total: rows.length ? Number(rows[0]!.total) : 0, stations: rows.map(stationOf) };
  }

  async networks(): Promise<EvNetworkRow[]> {
    const rows = await this.sql.query<{ network: string; count: unknown; max_kw: unknown }>(
      `select coalesce(network, 'Unknown') as network, count(*) as count, max(max_kw) as max_kw from ev_stations group by 1 order by count(*) desc, 1`,
    );
    return rows.map((row) => ({ network: row.network, count: Number(row.count), maxKw: row.max_kw === null ? null : Number(row.max_kw) }));
  }
}

async function replaceStations(tx: SqlExecutor, stations: readonly EvStation[]): Promise<void> {
  await tx.query('delete from ev_stations');
  for (let index = 0; index < stations.length; index += BATCH) {
    const batch = stations.slice(index, index + BATCH).map((station) => ({
      ...station,
      max_kw: station.maxKw,
      connector_types: [...new Set(station.connectors.map((connector) => connector.type))],
    }));
    await tx.query(
      `insert into ev_stations (id, name, network, lat, lng, connectors, connector_types, max_kw, status, pricing, address, sources)
       select id, name, network, lat, lng, connectors,
              array(select jsonb_array_elements_text(connector_types)), max_kw, status, pricing, address,
              array(select jsonb_array_elements_text(sources))
       from jsonb_to_recordset($1::text::jsonb) as x(id text, name text, network text, lat double precision, lng double precision, connectors jsonb,
            connector_types jsonb, max_kw double precision, status text, pricing text, address text, sources jsonb)`,
      [JSON.stringify(batch)],
    );
  }
}
