import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

export interface HistoryFields {
  kind: 'search' | 'visit';
  query: string | null;
  placeId: string | null;
  name: string | null;
  lat: number | null;
  lng: number | null;
}

export interface HistoryRecord extends HistoryFields {
  id: string;
  createdAt: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  kind: 'search' | 'visit';
  query: string | null;
  place_id: string | null;
  name: string | null;
  lat: number | null;
  lng: number | null;
  created_at: Date | string;
}

const COLUMNS = 'id, kind, query, place_id, name, lat, lng, created_at';
const toRecord = (row: Row): HistoryRecord => ({
  id: row.id,
  kind: row.kind,
  query: row.query,
  placeId: row.place_id,
  name: row.name,
  lat: row.lat === null ? null : Number(row.lat),
  lng: row.lng === null ? null : Number(row.lng),
  createdAt: isoOf(row.created_at),
});

/** Search and visit history; scoped to the owner. */
export class HistoryRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async add(userId: string, id: string, fields: HistoryFields): Promise<HistoryRecord> {
    const rows = await this.sql.query<Row>(
      `insert into history (id, user_id, kind, query, place_id, name, lat, lng) values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${COLUMNS}`,
      [id, userId, fields.kind, fields.query, fields.placeId, fields.name, fields.lat, fields.lng],
    );
    return toRecord(rows[0]!);
  }

  async page(userId: string, options: { limit: number; offset: number; kind?: string }): Promise<{ items: HistoryRecord[]; total: number }> {
    const kind = options.kind ?? null;
    const [rows, totals] = await Promise.all([
      this.sql.query<Row>(
        `select ${COLUMNS} from history where user_id = $1 and ($2::text is null or kind = $2)
         order by created_at desc, id desc limit $3 offset $4`,
        [userId, kind, options.limit, options.offset],
      ),
      this.sql.query<{ total: unknown }>('select count(*) as total from history where user_id = $1 and ($2::text is null or kind = $2)', [userId, kind]),
    ]);
    return { items: rows.map(toRecord), total: Number(totals[0]!.total) };
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return (await this.sql.query('delete from history where user_id = $1 and id = $2 returning id', [userId, id])).length > 0;
  }

  async clear(userId: string): Promise<number> {
    return (await this.sql.query('delete from history where user_id = $1 returning id', [userId])).length;
  }

  async listAll(userId: string): Promise<HistoryRecord[]> {
    return (await this.sql.query<Row>(`select ${COLUMNS} from history where user_id = $1 order by created_at desc, id desc`, [userId])).map(toRecord);
  }
}
