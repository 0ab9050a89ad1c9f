import type { Migration } from '../migrate.js';

export const notificationsMigration: Migration = {
  version: 3,
  name: 'notifications_and_push_tokens',
  sql: `
    create table notifications (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      type text not null,
      title text not null,
      body text not null,
      url text,
      data jsonb,
      is_read boolean not null default false,
      read_at timestamptz,
      created_at timestamptz not null default clock_timestamp()
    );
    create index notifications_inbox on notifications (user_id, created_at desc, id);
    create index notifications_inbox_type on notifications (user_id, type, created_at desc);

    create table push_tokens (
      token text primary key,
      user_id uuid not null references users (id) on delete cascade,
      platform text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index push_tokens_user on push_tokens (user_id);
  `,
};
