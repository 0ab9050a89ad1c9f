import type { Migration } from '../migrate.js';

/**
 * Logistics zones operators draw on the map (issue #29; docs/map-data.md, Logistics zones): a
 * polygon or multipolygon as GeoJSON with its bounding box (for the bbox filter without PostGIS),
 * the zone type, a risk score 0–1, a cost multiplier and the routing policy.
 */
export const logisticsZonesMigration: Migration = {
  version: 25,
  name: 'logistics-zones',
  sql: `
    create table logistics_zones (
      id uuid primary key,
      name text not null,
      zone_type text not null,
      risk_score double precision not null check (risk_score >= 0 and risk_score <= 1),
      cost_multiplier double precision not null check (cost_multiplier >= 1 and cost_multiplier <= 10),
      routing_policy text not null check (routing_policy in ('avoid', 'penalize', 'allow')),
      geometry jsonb not null,
      min_lng double precision not null,
      min_lat double precision not null,
      max_lng double precision not null,
      max_lat double precision not null,
      active boolean not null default true,
      notes text,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index logistics_zones_box on logistics_zones (min_lng, max_lng, min_lat, max_lat);
  `,
};
