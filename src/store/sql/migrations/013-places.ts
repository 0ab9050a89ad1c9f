import type { Migration } from '../migrate.js';

/**
 * The place catalogue (spec part 2 §2.4–2.6, §4.4; docs/places.md). Places are keyed by their OSM
 * element, so a re-seed updates rather than duplicates, and carry a slug that is issued once.
 *
 * Indexes: trigram GIN indexes over the lower-cased names answer `q` (case-insensitive substring, in
 * Arabic as in English: pg_trgm extracts Arabic trigrams under the UTF-8 locales of Postgres and
 * PGlite); a GiST index over `point(lng, lat)` answers the bounding box `near` starts from (exact
 * haversine then ranks); GIN over the category and amenity arrays; a btree in the default order.
 * pg_trgm is created in `public` (it may already be there: one extension per database) and named
 * with its schema, since the product's connections search their own schema only.
 */
export const placesMigration: Migration = {
  version: 13,
  name: 'places',
  sql: `
    create extension if not exists pg_trgm with schema public;

    create table place_categories (
      slug text primary key,
      name_en text not null,
      name_ar text not null,
      icon text not null,
      category_group text not null,
      aliases text[] not null,
      position integer not null
    );

    create table places (
      id uuid primary key,
      osm_type text not null check (osm_type in ('node', 'way', 'relation')),
      osm_id bigint not null,
      slug text not null unique,
      name_en text,
      name_ar text,
      name_en_source text check (name_en_source in ('osm', 'transliterated')),
      name_ar_source text check (name_ar_source in ('osm', 'transliterated')),
      categories text[] not null,
      canonical_category text not null,
      lat double precision not null check (lat between -90 and 90),
      lng double precision not null check (lng between -180 and 180),
      country_code text,
      time_zone text not null,
      phone text,
      website text,
      opening_hours jsonb,
      hours_week_stable boolean,
      amenities text[] not null default '{}',
      tags jsonb not null default '{}',
      entrances jsonb not null default '[]',
      sponsored boolean not null default false,
      claim_status text not null default 'unclaimed' check (claim_status in ('unclaimed', 'pending', 'verified')),
      logo_path text,
      rating double precision not null default 0 check (rating between 0 and 5),
      review_count integer not null default 0,
      popularity double precision not null default 0,
      created_at timestamptz not null default clock_timestamp(),
      updated_at timestamptz not null default clock_timestamp(),
      unique (osm_type, osm_id)
    );
    create index places_name_en_trgm on places using gin (lower(name_en) public.gin_trgm_ops);
    create index places_name_ar_trgm on places using gin (lower(name_ar) public.gin_trgm_ops);
    create index places_location on places using gist (point(lng, lat));
    create index places_categories on places using gin (categories);
    create index places_amenities on places using gin (amenities);
    create index places_relevance on places (sponsored desc, rating desc, created_at desc, slug);

    -- the week's open intervals in the place's local time, minutes from Monday 00:00: openNow in SQL
    create table place_open_intervals (
      place_id uuid not null references places (id) on delete cascade,
      start_minute integer not null check (start_minute between 0 and 10080),
      end_minute integer not null check (end_minute between 0 and 10080),
      primary key (place_id, start_minute)
    );

    -- what was seeded from which map data, so a start seeds only when the pack or the seeder changed
    create table place_seed_runs (
      source text primary key,
      stamp text not null,
      places integer not null,
      seeded_at timestamptz not null default clock_timestamp()
    );
  `,
};
