import type { Migration } from '../migrate.js';

/**
 * Imported GTFS static feeds (docs/transit.md). A feed is a row of
 * transit_feeds; its tables hang off it and go with it, so a re-import of the
 * same feed name deletes and reinserts in one transaction. Times are seconds
 * after the service day's noon minus 12 h (GTFS times, may pass 24:00:00);
 * dates are YYYYMMDD integers as the feed writes them.
 */
export const transitMigration: Migration = {
  version: 16,
  name: 'transit',
  sql: `
    create table transit_feeds (
      id bigserial primary key,
      name text not null unique,
      source text not null,
      imported_at timestamptz not null default clock_timestamp(),
      counts jsonb not null
    );
    create table transit_agencies (
      feed_id bigint not null references transit_feeds(id) on delete cascade,
      agency_id text not null,
      name text not null,
      url text,
      timezone text not null,
      primary key (feed_id, agency_id)
    );
    create table transit_stops (
      feed_id bigint not null references transit_feeds(id) on delete cascade,
      stop_id text not null,
      name text not null,
      lat double precision not null,
      lng double precision not null,
      location_type integer not null default 0,
      parent_station text,
      primary key (feed_id, stop_id)
    );
    create table transit_routes (
      feed_id bigint not null references transit_feeds(id) on delete cascade,
      route_id text not null,
      agency_id text,
      short_name text,
      long_name text,
      route_type integer not null,
      color text,
      primary key (feed_id, route_id)
    );
    create table transit_trips (
      feed_id bigint not null references transit_feeds(id) on delete cascade,
      trip_id text not null,
      route_id text not null,
      service_id text not null,
      shape_id text,
      headsign text,
      primary key (feed_id, trip_id)
    );
    create table transit_stop_times (
      feed_id bigint not null references transit_feeds(id) on delete cascade,
      trip_id text not null,
      stop_sequence integer not null,
      stop_id text not null,
      arrival_s integer,
      departure_s integer,
      primary key (feed_id, trip_id, stop_sequence)
    );
    create table transit_frequencies (
      feed_id bigint not null references transit_feeds(id) on delete cascade,
      trip_id text not null,
      start_s integer not null,
      end_s integer not null,
      headway_s integer not null check (headway_s > 0)
    );
    create table transit_calendar (
      feed_id bigint not null references transit_feeds(id) on delete cascade,
      service_id text not null,
      weekdays integer not null,
      start_date integer not null,
      end_date integer not null,
      primary key (feed_id, service_id)
    );
    create table transit_calendar_dates (
      feed_id bigint not null references transit_feeds(id) on delete cascade,
      service_id text not null,
      date integer not null,
      exception_type integer not null check (exception_type in (1, 2))
    );
    create table transit_shapes (
      feed_id bigint not null references transit_feeds(id) on delete cascade,
      shape_id text not null,
      sequence integer not null,
      lat double precision not null,
      lng double precision not null,
      primary key (feed_id, shape_id, sequence)
    );
  `,
};
