import type { GeofenceShape, ZoneBounds } from '../../solvers/geofences/geofence-index.js';
import type { SqlClient, SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

export interface GeofenceRecord {
  id: string;
  projectId: string;
  name: string;
  shape: GeofenceShape;
  hysteresisM: number;
  dwellSec: number | null;
  webhookUrl: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  project_id: string;
  name: string;
  shape: GeofenceShape;
  hysteresis_m: number;
  dwell_sec: number | null;
  webhook_url: string | null;
  metadata: Record<string, unknown> | null;
  created_at: Date | string;
}

const COLUMNS = 'id, project_id, name, shape, hysteresis_m, dwell_sec, webhook_url, metadata, created_at';
const toRecord = (row: Row): GeofenceRecord => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  shape: row.shape,
  hysteresisM: Number(row.hysteresis_m),
  dwellSec: row.dwell_sec === null ? null : Number(row.dwell_sec),
  webhookUrl: row.webhook_url,
  metadata: row.metadata,
  createdAt: isoOf(row.created_at),
});

export interface DeviceZoneState {
  geofenceId: string;
  enteredAtMs: number;
  dwellFired: boolean;
}

export interface GeofenceEventInput {
  geofenceId: string;
  type: 'enter' | 'leave' | 'dwell';
  at: string;
  data: Record<string, unknown>;
}

/**
 * Geofences of a project, the zones each device is inside, and the per-zone event log that is the webhook
 * outbox. Every read and write names the project: another project's zone is not found.
 */
export class GeofenceRepository {
  constructor(private readonly sql: SqlClient) {}

  async create(record: Omit<GeofenceRecord, 'createdAt'>, bounds: ZoneBounds): Promise<GeofenceRecord> {
    return this.sql.transaction(async (tx) => {
      const rows = await tx.query<Row>(
        `insert into geofences (id, project_id, name, shape, min_lat, min_lng, max_lat, max_lng, hysteresis_m, dwell_sec, webhook_url, metadata)
         values ($1, $2, $3, $4::text::jsonb, $5, $6, $7, $8, $9, $10, $11, $12::text::jsonb) returning ${COLUMNS}`,
        [
          record.id,
          record.projectId,
          record.name,
          JSON.stringify(record.shape),
          bounds.minLat,
          bounds.minLng,
          bounds.maxLat,
          bounds.maxLng,
          record.hysteresisM,
          record.dwellSec,
          record.webhookUrl,
          record.metadata === null ? null : JSON.stringify(record.metadata),
        ],
      );
      await this.bumpVersion(tx, record.projectId);
      return toRecord(rows[0]!);
    });
  }

  async count(projectId: string): Promise<number> {
    return Number((await this.sql.query<{ n: unknown }>('select count(*) as n from geofences where project_id = $1', [projectId]))[0]!.n);
  }

  async list(projectId: string, limit: number, offset: number): Promise<{ items: GeofenceRecord[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.sql.query<Row>(`select ${COLUMNS} from geofences where project_id = $1 order by created_at, id limit $2 offset $3`, [projectId, limit, offset]),
      this.count(projectId),
    ]);
    return { items: rows.map(toRecord), total };
  }

  /** Every zone of the project (for its index). */
  async all(projectId: string): Promise<GeofenceRecord[]> {
    return (await this.sql.query<Row>(`select ${COLUMNS} from geofences where project_id = $1`, [projectId])).map(toRecord);
  }

  async find(projectId: string, id: string): Promise<GeofenceRecord | null> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from geofences where id = $1 and project_id = $2`, [id, projectId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const rows = await tx.query('delete from geofences where id = $1 and project_id = $2 returning id', [id, projectId]);
      if (rows.length > 0) await this.bumpVersion(tx, projectId);
      return rows.length > 0;
    });
  }

  /** Changes whenever a zone of the project is created or deleted (any process): the index is rebuilt when it moved. */
  async version(projectId: string): Promise<number> {
    const rows = await this.sql.query<{ version: unknown }>('select version from geofence_index_versions where project_id = $1', [projectId]);
    return rows[0] ? Number(rows[0].version) : 0;
  }

  private async bumpVersion(tx: SqlExecutor, projectId: string): Promise<void> {
    await tx.query(
      `insert into geofence_index_versions (project_id, version) values ($1, 1)
       on conflict (project_id) do update set version = geofence_index_versions.version + 1`,
      [projectId],
    );
  }

  async deviceState(projectId: string, deviceId: string): Promise<DeviceZoneState[]> {
    const rows = await this.sql.query<{ geofence_id: string; entered_at: Date | string; dwell_fired: boolean }>(
      'select geofence_id, entered_at, dwell_fired from geofence_device_state where project_id = $1 and device_id = $2',
      [projectId, deviceId],
    );
    return rows.map((row) => ({ geofenceId: row.geofence_id, enteredAtMs: new Date(row.entered_at).getTime(), dwellFired: row.dwell_fired }));
  }

  /**
   * Applies a fix's transitions in one transaction. Each is conditional on the stored state (enter inserts
   * only if absent, leave deletes only if present, dwell flips only once), so two fixes of one device racing
   * in two processes produce each event once. Returns the events written, with their seq per zone.
   */
  async apply(
    projectId: string,
    deviceId: string,
    changes: { geofenceId: string; type: 'enter' | 'leave' | 'dwell'; atMs: number; data: Record<string, unknown>; fix: number }[],
  ): Promise<(GeofenceEventInput & { seq: number; webhookUrl: string | null; fix: number })[]> {
    if (changes.length === 0) return [];
    return this.sql.transaction(async (tx) => {
      const written: (GeofenceEventInput & { seq: number; webhookUrl: string | null; fix: number })[] = [];
      for (const change of changes) {
        const at = new Date(change.atMs).toISOString();
        const applied =
          change.type === 'enter'
            ? await tx.query(
                `insert into geofence_device_state (geofence_id, project_id, device_id, entered_at) select $1, $2, $3, $4 where exists (select 1 from geofences where id = $1 and project_id = $2)
                 on conflict do nothing returning geofence_id`,
                [change.geofenceId, projectId, deviceId, at],
              )
            : change.type === 'leave'
              ? await tx.query('delete from geofence_device_state where geofence_id = $1 and project_id = $2 and device_id = $3 returning geofence_id', [change.geofenceId, projectId, deviceId])
              : await tx.query(
                  'update geofence_device_state set dwell_fired = true where geofence_id = $1 and project_id = $2 and device_id = $3 and not dwell_fired returning geofence_id',
                  [change.geofenceId, projectId, deviceId],
                );
        if (applied.length === 0) continue;
        const zone = await tx.query<{ event_seq: number; webhook_url: string | null }>(
          'update geofences set event_seq = event_seq + 1 where id = $1 returning event_seq, webhook_url',
          [change.geofenceId],
        );
        if (!zone[0]) continue;
        const seq = Number(zone[0].event_seq);
        await tx.query('insert into geofence_events (geofence_id, seq, type, at, data) values ($1, $2, $3, $4, $5::text::jsonb)', [
          change.geofenceId,
          seq,
          change.type,
          at,
          JSON.stringify(change.data),
        ]);
        written.push({ geofenceId: change.geofenceId, type: change.type, at, data: change.data, seq, webhookUrl: zone[0].webhook_url, fix: change.fix });
      }
      return written;
    });
  }

  /** The webhook outbox: a zone's events after `since`, in seq order. */
  async eventsSince(geofenceId: string, since: number, limit: number): Promise<{ seq: number; type: string; at: string; data: Record<string, unknown> }[]> {
    const rows = await this.sql.query<{ seq: number; type: string; at: Date | string; data: Record<string, unknown> }>(
      'select seq, type, at, data from geofence_events where geofence_id = $1 and seq > $2 order by seq limit $3',
      [geofenceId, since, limit],
    );
    return rows.map((row) => ({ seq: Number(row.seq), type: row.type, at: isoOf(row.at), data: row.data }));
  }

  /** Zones with a webhook whose events go past their last settled delivery (resumed at start). */
  async awaitingDelivery(limit: number): Promise<{ id: string; webhookUrl: string }[]> {
    const rows = await this.sql.query<{ id: string; webhook_url: string }>(
      `select g.id, g.webhook_url from geofences g
       where g.webhook_url is not null and g.event_seq > coalesce((select max(d.seq) from geofence_webhook_deliveries d where d.geofence_id = g.id and d.outcome <> 'retrying'), 0)
       limit $1`,
      [limit],
    );
    return rows.map((row) => ({ id: row.id, webhookUrl: row.webhook_url }));
  }
}
