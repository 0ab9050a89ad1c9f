/** Logistics zones (migration 025; docs/map-data.md, Logistics zones). */
import type { LogisticsZone, ZoneRoutingPolicy, ZoneType } from '../../domain/logistics-zone.js';
import type { SqlClient } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

export type LogisticsZoneFields = Omit<LogisticsZone, 'id' | 'createdAt' | 'updatedAt'>;

const COLUMNS = 'id, name, zone_type, risk_score, cost_multiplier, routing_policy, geometry, min_lng, min_lat, max_lng, max_lat, active, notes, created_at, updated_at';

function zoneOf(row: Record<string, unknown>): LogisticsZone {
  return {
    id: String(row.id),
    name: String(row.name),
    zoneType: row.zone_type as ZoneType,
    riskScore: Number(row.risk_score),
    costMultiplier: Number(row.cost_multiplier),
    routingPolicy: row.routing_policy as ZoneRoutingPolicy,
    geometry: (typeof row.geometry === 'string' ? JSON.parse(row.geometry) : row.geometry) as LogisticsZone['geometry'],
    bbox: [Number(row.min_lng), Number(row.min_lat), Number(row.max_lng), Number(row.max_lat)],
    active: Boolean(row.active),
    notes: (row.notes as string | null) ?? null,
    createdAt: isoOf(row.created_at as Date | string),
    updatedAt: isoOf(row.updated_at as Date | string),
  };
}

function values(zone: LogisticsZoneFields): unknown[] {
  return [zone.name, zone.zoneType, zone.riskScore, zone.costMultiplier, zone.routingPolicy, JSON.stringify(zone.geometry), ...zone.bbox, zone.active, zone.notes];
}

export class LogisticsZoneRepository {
  constructor(private readonly sql: SqlClient) {}

  async create(id: string, zone: LogisticsZoneFields, createdBy: string): Promise<LogisticsZone> {
    const [row] = await this.sql.query(
      `insert into logistics_zones (id, name, zone_type, risk_score, cost_multiplier, routing_policy, geometry, min_lng, min_lat, max_lng, max_lat, active, notes, created_by)
       values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $13, $14) returning ${COLUMNS}`,
      [id, ...values(zone), createdBy],
    );
    return zoneOf(row!);
  }

  async update(id: string, zone: LogisticsZoneFields): Promise<LogisticsZone | undefined> {
    const [row] = await this.sql.query(
      `update logistics_zones set name = $2, zone_type = $3, risk_score = $4, cost_multiplier = $5, routing_policy = $6, geometry = $7::jsonb,
         min_lng = $8, min_lat = $9, max_lng = $10, max_lat = $11, active = $12, notes = $13, updated_at = now()
       where id = $1 returning ${COLUMNS}`,
      [id, ...values(zone)],
    );
    return row ? zoneOf(row) : undefined;
  }

  async get(id: string): Promise<LogisticsZone | undefined> {
    const [row] = await this.sql.query(`select ${COLUMNS} from logistics_zones where id = $1`, [id]);
    return row ? zoneOf(row) : undefined;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.sql.query('delete from logistics_zones where id = $1 returning id', [id])).length > 0;
  }

  /** Zones meeting the box (all when none), newest first, at most `limit`. */
  async list(options: { bbox?: [number, number, number, number]; activeOnly: boolean; limit: number }): Promise<LogisticsZone[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (options.activeOnly) where.push('active');
    if (options.bbox) {
      params.push(...options.bbox);
      where.push('max_lng >= $1 and min_lat <= $4 and min_lng <= $3 and max_lat >= $2');
    }
    params.push(options.limit);
    return (
      await this.sql.query(`select ${COLUMNS} from logistics_zones ${where.length ? `where ${where.join(' and ')}` : ''} order by created_at desc, id limit $${params.length}`, params)
    ).map(zoneOf);
  }

  async count(activeOnly: boolean): Promise<number> {
    const [row] = await this.sql.query<{ count: string | number }>(`select count(*) as count from logistics_zones ${activeOnly ? 'where active' : ''}`);
    return Number(row?.count ?? 0);
  }
}
