import type { Migration } from '../migrate.js';

export const accountsMigration: Migration = {
  version: 1,
  name: 'accounts',
  sql: `
    create table users (
      id uuid primary key,
      email text not null unique,
      name text not null default '',
      password_hash text,
      roles text[] not null default array['user'],
      avatar jsonb,
      privacy jsonb,
      disabled boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table sessions (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      ip_address text not null default '',
      user_agent text not null default '',
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz
    );
    create index sessions_user on sessions (user_id, created_at desc);

    -- Server-side signing keys generated on first start when none is configured.
    create table server_secrets (
      name text primary key,
      value text not null,
      created_at timestamptz not null default now()
    );
  `,
};
