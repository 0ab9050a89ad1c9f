import type { Migration } from '../migrate.js';

/**
 * Saved itineraries (spec part 3 §2.4, §4.3; docs/itineraries.md). Owned by a user and deleted with the
 * account; `share_slug` is set only while the itinerary is public (unique, so one slug names one itinerary).
 */
export const itinerariesMigration: Migration = {
  version: 19,
  name: 'itineraries',
  sql: `
    create table itineraries (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      name text not null,
      stops jsonb not null,
      notes text,
      plan jsonb,
      is_public boolean not null default false,
      share_slug text unique,
      created_at timestamptz not null default clock_timestamp(),
      updated_at timestamptz not null default clock_timestamp(),
      constraint itineraries_slug_only_public check ((share_slug is null) = (not is_public))
    );
    create index itineraries_user on itineraries (user_id, created_at desc);
  `,
};
