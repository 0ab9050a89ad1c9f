import type { Migration } from '../migrate.js';

export const developerPortalMigration: Migration = {
  version: 2,
  name: 'developer_portal',
  sql: `
    create table organizations (
      id uuid primary key,
      owner_id uuid not null references users (id) on delete cascade,
      name text not null,
      slug text not null,
      created_at timestamptz not null default now(),
      unique (owner_id, slug)
    );

    create table projects (
      id uuid primary key,
      owner_id uuid not null references users (id) on delete cascade,
      organization_id uuid not null references organizations (id) on delete cascade,
      name text not null,
      created_at timestamptz not null default now()
    );
    create index projects_organization on projects (organization_id);

    create table api_keys (
      id uuid primary key,
      owner_id uuid not null references users (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      label text not null,
      -- SHA-256 of the plaintext key (hex); the plaintext is never stored.
      key_hash text not null unique,
      last_four text not null,
      scopes jsonb not null,
      plan text not null,
      quota_per_minute integer not null,
      quota_per_day integer not null,
      unlimited boolean not null default false,
      active boolean not null default true,
      restrictions jsonb not null default '{"referrers":[],"ips":[]}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_used_at timestamptz
    );
    create index api_keys_project on api_keys (project_id);
    create index api_keys_owner on api_keys (owner_id);

    -- Monthly usage per key, flushed in aggregates by the edge (never one write per request).
    create table api_key_usage_monthly (
      key_id uuid not null references api_keys (id) on delete cascade,
      period_start date not null,
      raw_requests bigint not null default 0,
      weighted_requests bigint not null default 0,
      primary key (key_id, period_start)
    );
  `,
};
