import type { Migration } from '../migrate.js';

/**
 * Optimization jobs (spec part 3 §3, §4.5), durable so a job accepted before a
 * crash still finishes. `revision` fences writers as for navigation sessions;
 * `owner_process` and `lease_expires_at` say who runs a job and until when
 * without renewal (judged on the database clock, so processes' clocks may
 * differ). Finished jobs are deleted after `expires_at`.
 */
export const optimizationJobsMigration: Migration = {
  version: 9,
  name: 'optimization_jobs',
  sql: `
    create table optimization_jobs (
      id uuid primary key,
      owner_kind text not null,
      owner_id text not null,
      kind text not null,
      input jsonb not null,
      status text not null,
      attempts integer not null default 0,
      result jsonb,
      error jsonb,
      revision bigint not null default 0,
      owner_process text,
      lease_expires_at timestamptz,
      claimed_at timestamptz,
      created_at timestamptz not null default clock_timestamp(),
      started_at timestamptz,
      finished_at timestamptz,
      expires_at timestamptz
    );
    create index optimization_jobs_open on optimization_jobs (created_at) where status in ('queued', 'running');
    create index optimization_jobs_owner_open on optimization_jobs (owner_kind, owner_id) where status in ('queued', 'running');
    create index optimization_jobs_expiry on optimization_jobs (expires_at) where expires_at is not null;
  `,
};
