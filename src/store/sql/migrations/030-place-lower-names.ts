import type { Migration } from '../migrate.js';

/**
 * Each place's names lower-cased once, on write (`name_en_lower`, `name_ar_lower`: stored generated columns),
 * with the trigram indexes of `GET /places?q=` on them instead of on the expressions `lower(name_en)` and
 * `lower(name_ar)` (013).
 *
 * Why (issue #24, docs/places.md "Indexes and query plans"): a `q` page walks the order index and tests each
 * place's names until the page fills — for a rare word at 100 000 places some 4 000 places, and `lower()` of
 * both names for each was ~70 % of the statement (5.6 ms against 1.8 ms for the same walk on stored text).
 * Names are written by seeding, imports and operators; every `q` list reads them.
 */
export const placeLowerNamesMigration: Migration = {
  version: 30,
  name: 'place-lower-names',
  sql: `
    alter table places
      add column name_en_lower text generated always as (lower(name_en)) stored,
      add column name_ar_lower text generated always as (lower(name_ar)) stored;
    drop index places_name_en_trgm;
    drop index places_name_ar_trgm;
    create index places_name_en_lower_trgm on places using gin (name_en_lower public.gin_trgm_ops) with (fastupdate = off);
    create index places_name_ar_lower_trgm on places using gin (name_ar_lower public.gin_trgm_ops) with (fastupdate = off);
    -- statistics for the new columns now: without them the planner guessed ~20 matches for every word and sorted
    -- bitmap reads of thousands (5–9 ms) where the order index walk takes 1–2 ms
    analyze places;
  `,
};
