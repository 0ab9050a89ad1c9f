import type { Migration } from '../migrate.js';

/**
 * Learned traffic (spec part 3 §2.5, §4.4; docs/traffic.md). `traffic_trips`
 * is the durable intake queue: a trip is stored `queued` before it is
 * acknowledged, claimed under a lease by a processor, and its raw fixes are
 * deleted with the row 7 days after receipt at the latest. The model keeps only
 * aggregates: `traffic_profiles` (sums per segment, profile type, local
 * weekday and hour), `traffic_holdout` (held-out trips' traversals, for
 * validation) and `traffic_segment_contributors` (which pseudonymous
 * contributors crossed a segment, for k-anonymous popularity).
 */
export const trafficMigration: Migration = {
  version: 17,
  name: 'traffic',
  sql: `
    create table traffic_trips (
      id uuid primary key,
      owner_kind text not null,
      owner_id text not null,
      contributor text not null,
      simulated boolean not null default false,
      holdout boolean not null default false,
      fix_count integer not null,
      fixes jsonb,
      status text not null,
      attempts integer not null default 0,
      lease_expires_at timestamptz,
      outcome jsonb,
      received_at timestamptz not null default clock_timestamp(),
      finished_at timestamptz
    );
    create index traffic_trips_open on traffic_trips (received_at) where status in ('queued', 'processing');
    create index traffic_trips_received on traffic_trips (received_at);

    create table traffic_profiles (
      segment_key text not null,
      profile_type text not null,
      dow smallint not null,
      hour smallint not null,
      country text not null,
      lat double precision not null,
      lng double precision not null,
      free_flow_kph real not null,
      sample_count integer not null,
      simulated_count integer not null,
      speed_sum double precision not null,
      speed_sq_sum double precision not null,
      ratio_sum double precision not null,
      updated_at timestamptz not null default clock_timestamp(),
      primary key (segment_key, profile_type, dow, hour)
    );
    create index traffic_profiles_position on traffic_profiles (lat, lng);
    create index traffic_profiles_updated on traffic_profiles (updated_at);

    create table traffic_holdout (
      trip_id uuid not null,
      segment_key text not null,
      country text not null,
      observed_at timestamptz not null,
      speed_kph real not null,
      free_flow_kph real not null
    );
    create index traffic_holdout_observed on traffic_holdout (observed_at);

    create table traffic_segment_contributors (
      segment_key text not null,
      contributor text not null,
      lat double precision not null,
      lng double precision not null,
      last_seen timestamptz not null,
      primary key (segment_key, contributor)
    );
    create index traffic_segment_contributors_position on traffic_segment_contributors (lat, lng);
  `,
};
