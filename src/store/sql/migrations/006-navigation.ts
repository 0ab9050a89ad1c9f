import type { Migration } from '../migrate.js';

/**
 * Navigation sessions (spec part 3 §2.2, §2.3). The route is written when the
 * session is planned or re-planned; every accepted fix rewrites only the small
 * `progress` document and appends the events it produced. `revision` fences
 * writers: a process writes only the revision it read, so after a takeover the
 * old owner's late writes fail instead of forking the session.
 */
export const navigationMigration: Migration = {
  version: 6,
  name: 'navigation',
  sql: `
    create table nav_sessions (
      id uuid primary key,
      owner_kind text not null,
      owner_id text not null,
      status text not null,
      request jsonb not null,
      route jsonb not null,
      progress jsonb not null,
      event_seq integer not null default 0,
      webhook_url text,
      revision bigint not null,
      owner_process text not null,
      created_at timestamptz not null default clock_timestamp(),
      updated_at timestamptz not null default clock_timestamp(),
      expires_at timestamptz not null
    );
    create index nav_sessions_active_expiry on nav_sessions (expires_at) where status = 'active';

    create table nav_session_events (
      session_id uuid not null references nav_sessions (id) on delete cascade,
      seq integer not null,
      type text not null,
      at timestamptz not null,
      data jsonb not null,
      primary key (session_id, seq)
    );
  `,
};
