import type { Migration } from '../migrate.js';

/**
 * Saved commutes and their leave-now alerts, the push delivery outbox, and
 * geofences (issue #28; docs/commute.md, docs/geofences.md).
 *
 * - `commute_alerts` has one row per commute and local day: the primary key is
 *   what makes an alert fire once however many processes tick at the same moment
 *   (the loser's insert does nothing, and so writes no notification).
 * - `push_outbox` holds one row per notification and device token still to be
 *   delivered; processes claim rows under a lease (`for update skip locked`), so
 *   a delivery survives a restart and is not sent twice by two processes.
 * - `geofences` are owned by a project; `geofence_device_state` holds only the
 *   zones a device is inside; `geofence_events` is the webhook outbox, per zone in
 *   `seq` order, and `geofence_webhook_deliveries` its delivery log (the same
 *   shape as navigation's).
 */
export const commutePushGeofencesMigration: Migration = {
  version: 22,
  name: 'commute-push-geofences',
  sql: `
    create table commutes (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      name text not null,
      home_lat double precision not null,
      home_lng double precision not null,
      work_lat double precision not null,
      work_lng double precision not null,
      arrive_by text not null,
      buffer_min integer not null,
      costing text not null,
      country text not null,
      weekdays smallint[] not null,
      alerts_enabled boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index commutes_user on commutes (user_id, created_at);

    create table commute_alerts (
      commute_id uuid not null references commutes (id) on delete cascade,
      local_date date not null,
      notification_id uuid not null,
      fired_at timestamptz not null default now(),
      primary key (commute_id, local_date)
    );

    create table push_outbox (
      id uuid primary key default gen_random_uuid(),
      notification_id uuid not null references notifications (id) on delete cascade,
      token text not null references push_tokens (token) on delete cascade,
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      lease_until timestamptz,
      last_error text,
      created_at timestamptz not null default now(),
      unique (notification_id, token)
    );
    create index push_outbox_due on push_outbox (next_attempt_at);

    create table geofences (
      id uuid primary key,
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      shape jsonb not null,
      min_lat double precision not null,
      min_lng double precision not null,
      max_lat double precision not null,
      max_lng double precision not null,
      hysteresis_m double precision not null,
      dwell_sec integer,
      webhook_url text,
      metadata jsonb,
      event_seq integer not null default 0,
      created_at timestamptz not null default now()
    );
    create index geofences_project on geofences (project_id, created_at, id);

    create table geofence_index_versions (
      project_id uuid primary key references projects (id) on delete cascade,
      version bigint not null
    );

    create table geofence_device_state (
      geofence_id uuid not null references geofences (id) on delete cascade,
      project_id uuid not null,
      device_id text not null,
      entered_at timestamptz not null,
      dwell_fired boolean not null default false,
      primary key (project_id, device_id, geofence_id)
    );

    create table geofence_events (
      geofence_id uuid not null references geofences (id) on delete cascade,
      seq integer not null,
      type text not null,
      at timestamptz not null,
      data jsonb not null,
      primary key (geofence_id, seq)
    );

    create table geofence_webhook_deliveries (
      geofence_id uuid not null references geofences (id) on delete cascade,
      seq integer not null,
      attempt integer not null,
      outcome text not null check (outcome in ('delivered', 'retrying', 'failed')),
      http_status integer,
      error text,
      duration_ms integer not null,
      attempted_at timestamptz not null,
      primary key (geofence_id, seq, attempt)
    );
  `,
};
