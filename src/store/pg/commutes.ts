import type { SqlExecutor, SqlClient } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

export interface CommuteRecord {
  id: string;
  userId: string;
  name: string;
  home: { lat: number; lng: number };
  work: { lat: number; lng: number };
  arriveBy: string;
  bufferMin: number;
  costing: 'auto' | 'truck';
  country: string;
  /** 0 = Sunday … 6 = Saturday, ascending. */
  weekdays: number[];
  alertsEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export type CommuteFields = Omit<CommuteRecord, 'id' | 'userId' | 'createdAt' | 'updatedAt'>;

interface Row extends Record<string, unknown> {
  id: string;
  user_id: string;
  name: string;
  home_lat: number;
  home_lng: number;
  work_lat: number;
  work_lng: number;
  arrive_by: string;
  buffer_min: number;
  costing: 'auto' | 'truck';
  country: string;
  weekdays: number[] | string;
  alerts_enabled: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = 'id, user_id, name, home_lat, home_lng, work_lat, work_lng, arrive_by, buffer_min, costing, country, weekdays, alerts_enabled, created_at, updated_at';

/** Postgres returns smallint[] as an array; some drivers as `{1,2}` text. */
function weekdaysOf(value: number[] | string): number[] {
  if (Array.isArray(value)) return value.map(Number);
  return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
}

const toRecord = (row: Row): CommuteRecord => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  home: { lat: Number(row.home_lat), lng: Number(row.home_lng) },
  work: { lat: Number(row.work_lat), lng: Number(row.work_lng) },
  arriveBy: row.arrive_by,
  bufferMin: Number(row.buffer_min),
  costing: row.costing,
  country: row.country,
  weekdays: weekdaysOf(row.weekdays),
  alertsEnabled: row.alerts_enabled,
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

const valuesOf = (fields: CommuteFields) => [
  fields.name,
  fields.home.lat,
  fields.home.lng,
  fields.work.lat,
  fields.work.lng,
  fields.arriveBy,
  fields.bufferMin,
  fields.costing,
  fields.country,
  `{${fields.weekdays.join(',')}}`,
  fields.alertsEnabled,
];

/** Saved commutes (always per user) and the once-a-day record of their leave-now alerts. */
export class CommuteRepository {
  constructor(private readonly sql: SqlClient) {}

  async list(userId: string): Promise<CommuteRecord[]> {
    return (await this.sql.query<Row>(`select ${COLUMNS} from commutes where user_id = $1 order by created_at, id`, [userId])).map(toRecord);
  }

  async count(userId: string): Promise<number> {
    return Number((await this.sql.query<{ n: unknown }>('select count(*) as n from commutes where user_id = $1', [userId]))[0]!.n);
  }

  async find(userId: string, id: string): Promise<CommuteRecord | null> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from commutes where id = $1 and user_id = $2`, [id, userId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async create(userId: string, id: string, fields: CommuteFields): Promise<CommuteRecord> {
    const rows = await this.sql.query<Row>(
      `insert into commutes (id, user_id, name, home_lat, home_lng, work_lat, work_lng, arrive_by, buffer_min, costing, country, weekdays, alerts_enabled)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::smallint[], $13) returning ${COLUMNS}`,
      [id, userId, ...valuesOf(fields)],
    );
    return toRecord(rows[0]!);
  }

  async update(userId: string, id: string, fields: CommuteFields): Promise<CommuteRecord | null> {
    const rows = await this.sql.query<Row>(
      `update commutes set name = $3, home_lat = $4, home_lng = $5, work_lat = $6, work_lng = $7, arrive_by = $8, buffer_min = $9,
         costing = $10, country = $11, weekdays = $12::smallint[], alerts_enabled = $13, updated_at = now()
       where id = $1 and user_id = $2 returning ${COLUMNS}`,
      [id, userId, ...valuesOf(fields)],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return (await this.sql.query('delete from commutes where id = $1 and user_id = $2 returning id', [id, userId])).length > 0;
  }

  /**
   * Commutes with alerts on, not yet alerted on `localDate`, that travel on `dow`, after `afterId`
   * (keyset pages of `limit`), of users not disabled.
   */
  async dueCandidates(localDate: string, dow: number, afterId: string | null, limit: number): Promise<CommuteRecord[]> {
    const rows = await this.sql.query<Row>(
      `select ${COLUMNS.split(', ').map((column) => `c.${column}`).join(', ')} from commutes c join users u on u.id = c.user_id
       where c.alerts_enabled and not u.disabled and $2::smallint = any (c.weekdays) and ($3::uuid is null or c.id > $3::uuid)
         and not exists (select 1 from commute_alerts a where a.commute_id = c.id and a.local_date = $1::date)
       order by c.id limit $4`,
      [localDate, dow, afterId, limit],
    );
    return rows.map(toRecord);
  }

  /**
   * Records the day's alert and writes its inbox notification (and push deliveries to the user's tokens) in one
   * transaction. The (commute, day) key lets exactly one process win; the others write nothing. Returns the
   * notification id when this call fired it.
   */
  async fireOnce(
    commute: Pick<CommuteRecord, 'id' | 'userId'>,
    localDate: string,
    notification: { id: string; title: string; body: string; data: Record<string, unknown> },
  ): Promise<string | undefined> {
    return this.sql.transaction(async (tx: SqlExecutor) => {
      const claimed = await tx.query(
        'insert into commute_alerts (commute_id, local_date, notification_id) values ($1, $2::date, $3) on conflict do nothing returning commute_id',
        [commute.id, localDate, notification.id],
      );
      if (claimed.length === 0) return undefined;
      await tx.query(`insert into notifications (id, user_id, type, title, body, url, data) values ($1, $2, 'commute_leave_now', $3, $4, null, $5::text::jsonb)`, [
        notification.id,
        commute.userId,
        notification.title,
        notification.body,
        JSON.stringify(notification.data),
      ]);
      await tx.query('insert into push_outbox (notification_id, token) select $1, token from push_tokens where user_id = $2 on conflict do nothing', [notification.id, commute.userId]);
      return notification.id;
    });
  }
}
