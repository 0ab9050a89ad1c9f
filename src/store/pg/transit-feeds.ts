import type { GtfsRows, GtfsSink, GtfsTable } from '../../domain/transit.js';
import type { SqlClient, SqlExecutor } from '../sql/sql-client.js';

/** Table and columns of each GTFS table, in the order of the row fields below. */
const TABLES: { [T in GtfsTable]: { name: string; columns: string[]; values: (row: GtfsRows[T]) => unknown[] } } = {
  agency: { name: 'transit_agencies', columns: ['agency_id', 'name', 'url', 'timezone'], values: (r) => [r.agencyId, r.name, r.url, r.timezone] },
  stops: {
    name: 'transit_stops',
    columns: ['stop_id', 'name', 'lat', 'lng', 'location_type', 'parent_station'],
    values: (r) => [r.stopId, r.name, r.lat, r.lng, r.locationType, r.parentStation],
  },
  routes: {
    name: 'transit_routes',
    columns: ['route_id', 'agency_id', 'short_name', 'long_name', 'route_type', 'color'],
    values: (r) => [r.routeId, r.agencyId, r.shortName, r.longName, r.routeType, r.color],
  },
  trips: { name: 'transit_trips', columns: ['trip_id', 'route_id', 'service_id', 'shape_id', 'headsign'], values: (r) => [r.tripId, r.routeId, r.serviceId, r.shapeId, r.headsign] },
  stopTimes: {
    name: 'transit_stop_times',
    columns: ['trip_id', 'stop_sequence', 'stop_id', 'arrival_s', 'departure_s'],
    values: (r) => [r.tripId, r.stopSequence, r.stopId, r.arrivalS, r.departureS],
  },
  frequencies: { name: 'transit_frequencies', columns: ['trip_id', 'start_s', 'end_s', 'headway_s'], values: (r) => [r.tripId, r.startS, r.endS, r.headwayS] },
  calendar: { name: 'transit_calendar', columns: ['service_id', 'weekdays', 'start_date', 'end_date'], values: (r) => [r.serviceId, r.weekdays, r.startDate, r.endDate] },
  calendarDates: { name: 'transit_calendar_dates', columns: ['service_id', 'date', 'exception_type'], values: (r) => [r.serviceId, r.date, r.exceptionType] },
  shapes: { name: 'transit_shapes', columns: ['shape_id', 'sequence', 'lat', 'lng'], values: (r) => [r.shapeId, r.sequence, r.lat, r.lng] },
};

export interface TransitFeedRecord {
  id: string;
  name: string;
  source: string;
  importedAt: string;
}

/** Everything of the imported feeds the transit service holds in memory. */
export interface TransitFeedData {
  feed: TransitFeedRecord;
  rows: { [T in GtfsTable]: Array<GtfsRows[T]> };
}

const READS: { [T in GtfsTable]: { select: string; map: (row: Record<string, unknown>) => GtfsRows[T] } } = {
  agency: { select: 'agency_id, name, url, timezone', map: (r) => ({ agencyId: String(r.agency_id), name: String(r.name), url: (r.url as string) ?? null, timezone: String(r.timezone) }) },
  stops: {
    select: 'stop_id, name, lat, lng, location_type, parent_station',
    map: (r) => ({ stopId: String(r.stop_id), name: String(r.name), lat: Number(r.lat), lng: Number(r.lng), locationType: Number(r.location_type), parentStation: (r.parent_station as string) ?? null }),
  },
  routes: {
    select: 'route_id, agency_id, short_name, long_name, route_type, color',
    map: (r) => ({
      routeId: String(r.route_id),
      agencyId: (r.agency_id as string) ?? null,
      shortName: (r.short_name as string) ?? null,
      longName: (r.long_name as string) ?? null,
      routeType: Number(r.route_type),
      color: (r.color as string) ?? null,
    }),
  },
  trips: {
    select: 'trip_id, route_id, service_id, shape_id, headsign',
    map: (r) => ({ tripId: String(r.trip_id), routeId: String(r.route_id), serviceId: String(r.service_id), shapeId: (r.shape_id as string) ?? null, headsign: (r.headsign as string) ?? null }),
  },
  stopTimes: {
    select: 'trip_id, stop_sequence, stop_id, arrival_s, departure_s',
    map: (r) => ({
      tripId: String(r.trip_id),
      stopSequence: Number(r.stop_sequence),
      stopId: String(r.stop_id),
      arrivalS: r.arrival_s === null ? null : Number(r.arrival_s),
      departureS: r.departure_s === null ? null : Number(r.departure_s),
    }),
  },
  frequencies: { select: 'trip_id, start_s, end_s, headway_s', map: (r) => ({ tripId: String(r.trip_id), startS: Number(r.start_s), endS: Number(r.end_s), headwayS: Number(r.headway_s) }) },
  calendar: {
    select: 'service_id, weekdays, start_date, end_date',
    map: (r) => ({ serviceId: String(r.service_id), weekdays: Number(r.weekdays), startDate: Number(r.start_date), endDate: Number(r.end_date) }),
  },
  calendarDates: { select: 'service_id, date, exception_type', map: (r) => ({ serviceId: String(r.service_id), date: Number(r.date), exceptionType: Number(r.exception_type) as 1 | 2 }) },
  shapes: { select: 'shape_id, sequence, lat, lng', map: (r) => ({ shapeId: String(r.shape_id), sequence: Number(r.sequence), lat: Number(r.lat), lng: Number(r.lng) }) },
};

const ORDER: Partial<Record<GtfsTable, string>> = { stopTimes: 'trip_id, stop_sequence', shapes: 'shape_id, sequence' };

/** Imported GTFS feeds (migration 016). */
export class TransitFeedRepository {
  constructor(private readonly sql: SqlClient) {}

  /**
   * Replaces the feed called `name` with what `fill` writes, in one
   * transaction: readers see the old feed or the new one, never half; a failed
   * import leaves the old one in place.
   */
  async replaceFeed(name: string, source: string, fill: (sink: GtfsSink) => Promise<Record<string, number>>): Promise<TransitFeedRecord> {
    return this.sql.transaction(async (tx) => {
      await tx.query('delete from transit_feeds where name = $1', [name]);
      const [feed] = await tx.query<{ id: string }>(`insert into transit_feeds (name, source, counts) values ($1, $2, '{}'::jsonb) returning id`, [name, source]);
      const feedId = String(feed!.id);
      const counts = await fill((table, rows) => insertRows(tx, feedId, table, rows));
      const [row] = await tx.query<Record<string, unknown>>(`update transit_feeds set counts = $2::jsonb where id = $1 returning id, name, source, imported_at`, [feedId, JSON.stringify(counts)]);
      return feedRecord(row!);
    });
  }

  async list(): Promise<TransitFeedRecord[]> {
    return (await this.sql.query<Record<string, unknown>>('select id, name, source, imported_at from transit_feeds order by id')).map(feedRecord);
  }

  /** A token that changes whenever a feed is imported or replaced. */
  async version(): Promise<string> {
    const [row] = await this.sql.query<{ version: string | null }>(`select string_agg(id::text, ',' order by id) as version from transit_feeds`);
    return row?.version ?? '';
  }

  async load(feed: TransitFeedRecord): Promise<TransitFeedData> {
    const rows = {} as TransitFeedData['rows'];
    for (const table of Object.keys(READS) as GtfsTable[]) {
      const read = READS[table];
      const order = ORDER[table] ? ` order by ${ORDER[table]}` : '';
      const result = await this.sql.query(`select ${read.select} from ${TABLES[table].name} where feed_id = $1${order}`, [feed.id]);
      (rows as Record<string, unknown[]>)[table] = result.map(read.map as (row: Record<string, unknown>) => unknown);
    }
    return { feed, rows };
  }
}

function feedRecord(row: Record<string, unknown>): TransitFeedRecord {
  const at = row.imported_at;
  return { id: String(row.id), name: String(row.name), source: String(row.source), importedAt: at instanceof Date ? at.toISOString() : String(at) };
}

async function insertRows<T extends GtfsTable>(tx: SqlExecutor, feedId: string, table: T, rows: Array<GtfsRows[T]>): Promise<void> {
  const spec = TABLES[table];
  const width = spec.columns.length + 1;
  const params: unknown[] = [];
  const tuples: string[] = [];
  for (const row of rows) {
    const base = params.length;
    params.push(feedId, ...spec.values(row));
    tuples.push(`(${Array.from({ length: width }, (_, i) => `$${base + i + 1}`).join(', ')})`);
  }
  await tx.query(`insert into ${spec.name} (feed_id, ${spec.columns.join(', ')}) values ${tuples.join(', ')}`, params);
}
