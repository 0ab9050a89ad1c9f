import type { Migration } from '../migrate.js';

/**
 * GIN over `places.search_names` (each name's words, written by the search indexer), without a pending list
 * (as 026's). Why (issue #24, docs/places.md "Bounded reads"): a sparse /search reads at most 1 001 matches
 * in the bitmap's order; the places named exactly as the query must still reach the ranking when more match,
 * so they are read on their own through this index (`search_names @> array[name]`) instead of by fetching
 * every match.
 */
export const placeSearchNamesMigration: Migration = {
  version: 27,
  name: 'place-search-names',
  sql: 'create index places_search_names on places using gin (search_names) with (fastupdate = off);',
};
