import type { Migration } from '../migrate.js';

/**
 * The GIN indexes over places (013 names, categories, amenities; 015 search document and prefixes) write
 * straight into their trees (`fastupdate = off`) instead of a pending list.
 *
 * Why (issue #24, docs/places.md "Indexes and query plans"): with the default `fastupdate = on`, rows
 * inserted or re-indexed land in an unsorted pending list that only VACUUM (or a list past
 * `gin_pending_list_limit`, 4 MB) merges, and every index scan reads the whole list. After a catalogue
 * grew to 100 000 places the list held all 100 201 entries of `places_categories` (334 pages): a category
 * bitmap scan took 23–98 ms instead of 0.2–0.6 ms, and every /search, /places?q= and typeahead paid it
 * until a vacuum ran (autovacuum may be off, as on the bench's Postgres). Places are written by seeding,
 * imports and operators, rarely and in batches; searches read them on every request, so writes pay.
 * The lists already pending are merged here once.
 */
const PLACE_GIN_INDEXES = ['places_name_en_trgm', 'places_name_ar_trgm', 'places_categories', 'places_amenities', 'places_search_doc_trgm', 'places_search_prefixes'] as const;

export const placeGinWithoutPendingListMigration: Migration = {
  version: 26,
  name: 'place-gin-without-pending-list',
  sql: PLACE_GIN_INDEXES.map((index) => `alter index ${index} set (fastupdate = off);\nselect gin_clean_pending_list('${index}'::regclass);`).join('\n'),
};
