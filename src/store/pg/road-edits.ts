import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf, isoOrNull } from './row-mapping.js';
import type { RoadEditKind } from '../../domain/feedback.js';

/** A closed or restricted line (`[lon, lat]` points) or area (rings of `[lon, lat]`, the first the outer one). */
export type RoadEditGeometry = { type: 'line'; coordinates: [number, number][] } | { type: 'area'; rings: [number, number][][] };

export interface RoadEditRecord {
  id: string;
  kind: RoadEditKind;
  geometry: RoadEditGeometry;
  reason: string;
  featureKey: string | null;
  startsAt: string;
  endsAt: string | null;
  createdAt: string;
  removedAt: string | null;
}

interface Row extends Record<string, unknown> {
  id: string;
  kind: string;
  geometry: RoadEditGeometry | string;
  reason: string;
  feature_key: string | null;
  starts_at: Date | string;
  ends_at: Date | string | null;
  created_at: Date | string;
  removed_at: Date | string | null;
}

const COLUMNS = 'id, kind, geometry, reason, feature_key, starts_at, ends_at, created_at, removed_at';
const toRecord = (row: Row): RoadEditRecord => ({
  id: row.id,
  kind: row.kind as RoadEditKind,
  geometry: typeof row.geometry === 'string' ? (JSON.parse(row.geometry) as RoadEditGeometry) : row.geometry,
  reason: row.reason,
  featureKey: row.feature_key,
  startsAt: isoOf(row.starts_at),
  endsAt: isoOrNull(row.ends_at),
  createdAt: isoOf(row.created_at),
  removedAt: isoOrNull(row.removed_at),
});
/** In force at `$1`: started, not ended, not removed. */
const ACTIVE = 'removed_at is null and starts_at <= $1 and (ends_at is null or ends_at > $1)';

/** Operator road edits (closures, access restrictions) and the per-user sign disregards. */
export class RoadEditRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async create(edit: Omit<RoadEditRecord, 'createdAt' | 'removedAt' | 'startsAt' | 'endsAt'> & { startsAt: Date; endsAt: Date | null; createdBy: string; at: Date }): Promise<void> {
    await this.sql.query(
      `insert into road_edits (id, kind, geometry, reason, feature_key, starts_at, ends_at, created_by, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [edit.id, edit.kind, JSON.stringify(edit.geometry), edit.reason, edit.featureKey, edit.startsAt, edit.endsAt, edit.createdBy, edit.at],
    );
  }

  async find(id: string): Promise<RoadEditRecord | undefined> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from road_edits where id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** Edits not removed (in force or scheduled), newest first. */
  async listCurrent(limit: number): Promise<RoadEditRecord[]> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from road_edits where removed_at is null order by created_at desc limit $1`, [limit]);
    return rows.map(toRecord);
  }

  async active(at: Date, limit: number): Promise<RoadEditRecord[]> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from road_edits where ${ACTIVE} order by created_at desc limit $2`, [at, limit]);
    return rows.map(toRecord);
  }

  async remove(id: string, at: Date): Promise<boolean> {
    const rows = await this.sql.query('update road_edits set removed_at = $2 where id = $1 and removed_at is null returning id', [id, at]);
    return rows.length === 1;
  }

  async addDisregards(userId: string, featureKeys: readonly string[], at: Date): Promise<void> {
    if (!featureKeys.length) return;
    await this.sql.query(
      `insert into sign_disregards (user_id, feature_key, created_at) select $1, key, $3 from unnest($2::text[]) as key on conflict do nothing`,
      [userId, featureKeys, at],
    );
  }

  async disregards(userId: string): Promise<{ featureKey: string; createdAt: string }[]> {
    const rows = await this.sql.query<{ feature_key: string; created_at: Date | string }>(
      'select feature_key, created_at from sign_disregards where user_id = $1 order by created_at, feature_key',
      [userId],
    );
    return rows.map((row) => ({ featureKey: row.feature_key, createdAt: isoOf(row.created_at) }));
  }

  async removeDisregard(userId: string, featureKey: string): Promise<boolean> {
    const rows = await this.sql.query('delete from sign_disregards where user_id = $1 and feature_key = $2 returning feature_key', [userId, featureKey]);
    return rows.length === 1;
  }
}
