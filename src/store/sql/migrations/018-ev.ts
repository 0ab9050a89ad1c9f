import type { Migration } from '../migrate.js';

/**
 * EV charging stations (spec part 3 §2.7, §4.6; docs/ev.md).
 * `ev_source_stations` holds each source's records as imported (Open Charge
 * Map exports, the map pack's OSM charging stations), replaced per source;
 * `ev_stations` is what the API serves: the records merged into sites, rebuilt
 * in the same transaction as every replacement. `ev_source_stamps` says what
 * each source was last built from (the pack's sha256 for OSM).
 */
export const evMigration: Migration = {
  version: 18,
  name: 'ev',
  sql: `
    create table ev_source_stations (
      source text not null,
      source_id text not null,
      record jsonb not null,
      primary key (source, source_id)
    );

    create table ev_source_stamps (
      source text primary key,
      stamp text not null,
      imported_at timestamptz not null default clock_timestamp()
    );

    create table ev_stations (
      id text primary key,
      name text not null,
      network text,
      lat double precision not null,
      lng double precision not null,
      connectors jsonb not null,
      connector_types text[] not null,
      max_kw double precision,
      status text not null,
      pricing text,
      address text,
      sources text[] not null
    );
    create index ev_stations_position on ev_stations (lat, lng);
    create index ev_stations_max_kw on ev_stations (max_kw desc nulls last, id);
  `,
};
