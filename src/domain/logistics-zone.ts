/** A logistics zone operators draw on the map (issue #29; docs/map-data.md, Logistics zones). */
import type { Polygon, MultiPolygon } from 'geojson';

export const ZONE_ROUTING_POLICIES = ['avoid', 'penalize', 'allow'] as const;
export type ZoneRoutingPolicy = (typeof ZONE_ROUTING_POLICIES)[number];

export const ZONE_TYPES = ['restricted', 'congestion', 'low_emission', 'loading', 'hazard', 'security', 'other'] as const;
export type ZoneType = (typeof ZONE_TYPES)[number];

export interface LogisticsZone {
  id: string;
  name: string;
  zoneType: ZoneType;
  /** 0 (none) to 1 (highest). */
  riskScore: number;
  /** Factor on the cost of travel inside the zone (1 = unchanged). */
  costMultiplier: number;
  routingPolicy: ZoneRoutingPolicy;
  geometry: Polygon | MultiPolygon;
  /** [west, south, east, north] of the geometry. */
  bbox: [number, number, number, number];
  active: boolean;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
}
