import type { Migration } from '../migrate.js';

/**
 * Community incidents, feedback reports, implicit signals, road edits and sign disregards
 * (spec part 3 §3, §4.1 plan constraints, §4.7, §4.8; docs/incidents-feedback.md).
 * Reporter and voter columns hold `user:<id>` or `key:<id>`: never shown, used to count each
 * voice once. Every time is written by the application's clock (tests move it), never by `now()`.
 */
export const incidentsFeedbackMigration: Migration = {
  version: 21,
  name: 'incidents-feedback',
  sql: `
    create table incidents (
      id uuid primary key,
      incident_type text not null,
      lat double precision not null,
      lng double precision not null,
      description text not null default '',
      reported_at timestamptz not null,
      last_confirmed_at timestamptz not null,
      expires_at timestamptz,
      cleared_at timestamptz
    );
    create index incidents_live on incidents (lat, lng) where cleared_at is null;

    create table incident_votes (
      incident_id uuid not null references incidents(id) on delete cascade,
      voter text not null,
      vote text not null,
      voted_at timestamptz not null,
      primary key (incident_id, voter)
    );

    create table feedback_reports (
      id uuid primary key,
      reporter text not null,
      source text not null,
      category text not null,
      severity double precision not null,
      lat double precision not null,
      lng double precision not null,
      context jsonb not null default '{}',
      status text not null default 'open',
      created_at timestamptz not null,
      acknowledged_at timestamptz,
      resolved_at timestamptz,
      editor_note text not null default ''
    );
    create index feedback_reports_status on feedback_reports (status, created_at);

    create table feedback_signals (
      id uuid primary key,
      reporter text not null,
      signal text not null,
      lat double precision not null,
      lng double precision not null,
      context jsonb not null default '{}',
      created_at timestamptz not null
    );
    create index feedback_signals_created on feedback_signals (created_at);

    create table road_edits (
      id uuid primary key,
      kind text not null,
      geometry jsonb not null,
      reason text not null default '',
      feature_key text,
      starts_at timestamptz not null,
      ends_at timestamptz,
      created_by text not null,
      created_at timestamptz not null,
      removed_at timestamptz
    );

    create table sign_disregards (
      user_id uuid not null references users(id) on delete cascade,
      feature_key text not null,
      created_at timestamptz not null,
      primary key (user_id, feature_key)
    );
  `,
};
