import type { Migration } from '../migrate.js';

export const userDataMigration: Migration = {
  version: 4,
  name: 'user_data',
  sql: `
    create table saved_lists (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      name text not null,
      description text not null default '',
      created_at timestamptz not null default clock_timestamp(),
      updated_at timestamptz not null default clock_timestamp()
    );
    create index saved_lists_user on saved_lists (user_id, created_at desc);

    create table saved_places (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      list_id uuid references saved_lists (id) on delete set null,
      name text not null,
      lat double precision not null,
      lng double precision not null,
      detail text not null default '',
      place_id text,
      icon text,
      note text not null default '',
      tags text[] not null default '{}',
      created_at timestamptz not null default clock_timestamp(),
      updated_at timestamptz not null default clock_timestamp()
    );
    create index saved_places_user on saved_places (user_id, created_at desc);

    create table history (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      kind text not null,
      query text,
      place_id text,
      name text,
      lat double precision,
      lng double precision,
      created_at timestamptz not null default clock_timestamp()
    );
    create index history_user on history (user_id, created_at desc);

    create table live_shares (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      -- SHA-256 of the public share token; the token itself is shown once.
      token_hash text not null unique,
      lat double precision not null,
      lng double precision not null,
      heading double precision,
      eta_seconds integer,
      destination jsonb,
      expires_at timestamptz not null,
      revoked_at timestamptz,
      created_at timestamptz not null default clock_timestamp(),
      updated_at timestamptz not null default clock_timestamp()
    );
    create index live_shares_user on live_shares (user_id, created_at desc);
  `,
};
