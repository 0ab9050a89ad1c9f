import type { Migration } from '../migrate.js';

/**
 * Place search (spec part 2 §4.3; docs/places.md "Search"). Each place gets a search document built
 * by the search indexer from its names with the geocoder's normaliser (`search_doc`: tokens and
 * consonant skeletons; `search_names`: each name's tokens; `search_prefixes`: first one and two letters
 * of every token); `search_indexed_at` equals the row's `updated_at` once indexed, so a re-seed that
 * changes a place is indexed again. A price level 1–4 (operators set it; OSM has no tag for it).
 *
 * Indexes: trigram GIN over the document (word starts and insides, Arabic and Latin), GIN over the
 * prefixes (typeahead of one or two letters), a btree in the prominence order (popularity, reviews,
 * rating) that search reads candidates in without an origin; the GiST over point(lng, lat) of 013
 * orders candidates by distance with one.
 *
 * Events (POST /search/events) are kept as daily counters only, no row per event and nothing about the
 * caller: clicks per place and day (popularity is their sum over the retention window), searches per
 * normalised query and day.
 */
export const placeSearchMigration: Migration = {
  version: 15,
  name: 'place-search',
  sql: `
    alter table places add column price_level smallint check (price_level between 1 and 4);
    alter table places add column search_doc text;
    alter table places add column search_names text[];
    alter table places add column search_prefixes text[];
    alter table places add column search_indexed_at timestamptz;
    create index places_search_doc_trgm on places using gin (search_doc public.gin_trgm_ops);
    create index places_search_prefixes on places using gin (search_prefixes);
    create index places_prominence on places (popularity desc, review_count desc, rating desc, slug);
    create index places_priced on places (price_level) where price_level is not null;

    create table place_click_days (
      place_id uuid not null references places (id) on delete cascade,
      day date not null,
      clicks integer not null check (clicks > 0),
      primary key (place_id, day)
    );
    create index place_click_days_day on place_click_days (day);

    create table search_query_days (
      day date not null,
      query text not null,
      searches integer not null check (searches > 0),
      without_results integer not null default 0,
      primary key (day, query)
    );
  `,
};
