import type { Migration } from '../migrate.js';

/**
 * Live fleets (docs/optimization.md, "Live fleets"): the fleet's definition
 * (vehicles, stops, completed and cancelled stops) and its current plan, one
 * row per fleet. `revision` fences writers as for navigation sessions: after a
 * takeover the old owner's late writes fail instead of forking the fleet.
 */
export const fleetsMigration: Migration = {
  version: 10,
  name: 'fleets',
  sql: `
    create table fleets (
      id uuid primary key,
      owner_kind text not null,
      owner_id text not null,
      definition jsonb not null,
      plan jsonb,
      plan_version integer not null default 0,
      change_seq integer not null default 0,
      revision bigint not null,
      owner_process text not null,
      created_at timestamptz not null default clock_timestamp(),
      updated_at timestamptz not null default clock_timestamp()
    );
    create index fleets_updated on fleets (updated_at);
  `,
};
