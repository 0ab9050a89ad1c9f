import type { Migration } from '../migrate.js';

/**
 * One row per webhook delivery attempt of a navigation session's events. The
 * rows are both the log users read and the dispatcher's progress record: the
 * highest seq whose outcome is final (delivered or failed) is where delivery
 * resumes after a restart, so nav_session_events itself serves as the outbox.
 */
export const webhookDeliveriesMigration: Migration = {
  version: 7,
  name: 'webhook-deliveries',
  sql: `
    create table nav_webhook_deliveries (
      session_id uuid not null references nav_sessions (id) on delete cascade,
      seq integer not null,
      attempt integer not null,
      outcome text not null check (outcome in ('delivered', 'retrying', 'failed')),
      http_status integer,
      error text,
      duration_ms integer not null,
      attempted_at timestamptz not null,
      primary key (session_id, seq, attempt)
    );
    create index nav_webhook_deliveries_newest on nav_webhook_deliveries (session_id, attempted_at desc);
  `,
};
