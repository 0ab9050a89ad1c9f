import type { Migration } from '../migrate.js';

/**
 * The transaction that last wrote each place (`search_xid`): the column's default on insert, a trigger on every
 * update, whatever wrote it (seeding, operators, the review aggregate trigger, click counters, the indexer).
 * Why (issue #24, docs/places.md "In-memory candidate index"): every process keeps the search's candidate index
 * in memory and brings it up to date before a search by reading the places written by the transactions its last
 * read's snapshot did not see (`pg_current_snapshot`); a sequence or a timestamp could not say that, since a
 * write that commits late may carry an older number than one already read.
 */
export const placeSearchChangesMigration: Migration = {
  version: 29,
  name: 'place-search-changes',
  sql: `
    alter table places add column search_xid xid8 not null default pg_current_xact_id();
    create function places_search_xid() returns trigger language plpgsql as $$
    begin
      new.search_xid := pg_current_xact_id();
      return new;
    end $$;
    create trigger places_search_xid before update on places for each row execute function places_search_xid();
    create index places_search_xid on places (search_xid);
  `,
};
