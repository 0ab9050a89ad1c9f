import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

export interface SavedListRecord {
  id: string;
  name: string;
  description: string;
  placeCount: number;
  createdAt: string;
  updatedAt: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  name: string;
  description: string;
  place_count: unknown;
  created_at: Date | string;
  updated_at: Date | string;
}

const SELECT = `select l.id, l.name, l.description, l.created_at, l.updated_at,
  (select count(*) from saved_places p where p.list_id = l.id) as place_count from saved_lists l`;
const toRecord = (row: Row): SavedListRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  placeCount: Number(row.place_count ?? 0),
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

/** Saved lists (collections of saved places); scoped to the owner. Deleting a list keeps its places, unlisted. */
export class SavedListRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async create(userId: string, id: string, fields: { name: string; description: string }): Promise<SavedListRecord> {
    await this.sql.query('insert into saved_lists (id, user_id, name, description) values ($1, $2, $3, $4)', [id, userId, fields.name, fields.description]);
    return (await this.find(userId, id))!;
  }

  async list(userId: string): Promise<SavedListRecord[]> {
    const rows = await this.sql.query<Row>(`${SELECT} where l.user_id = $1 order by l.created_at desc, l.id desc limit 500`, [userId]);
    return rows.map(toRecord);
  }

  async find(userId: string, id: string): Promise<SavedListRecord | null> {
    const rows = await this.sql.query<Row>(`${SELECT} where l.user_id = $1 and l.id = $2`, [userId, id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async update(userId: string, id: string, fields: { name?: string; description?: string }): Promise<SavedListRecord | null> {
    const rows = await this.sql.query(
      `update saved_lists set name = coalesce($3, name), description = coalesce($4, description), updated_at = clock_timestamp()
       where user_id = $1 and id = $2 returning id`,
      [userId, id, fields.name ?? null, fields.description ?? null],
    );
    return rows.length ? this.find(userId, id) : null;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return (await this.sql.query('delete from saved_lists where user_id = $1 and id = $2 returning id', [userId, id])).length > 0;
  }
}
