import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

export interface SavedPlaceFields {
  name: string;
  lat: number;
  lng: number;
  detail: string;
  placeId: string | null;
  icon: string | null;
  note: string;
  tags: string[];
  listId: string | null;
}

export interface SavedPlaceRecord extends SavedPlaceFields {
  id: string;
  createdAt: string;
  updatedAt: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  name: string;
  lat: number;
  lng: number;
  detail: string;
  place_id: string | null;
  icon: string | null;
  note: string;
  tags: string[];
  list_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = 'id, name, lat, lng, detail, place_id, icon, note, tags, list_id, created_at, updated_at';
const toRecord = (row: Row): SavedPlaceRecord => ({
  id: row.id,
  name: row.name,
  lat: Number(row.lat),
  lng: Number(row.lng),
  detail: row.detail,
  placeId: row.place_id,
  icon: row.icon,
  note: row.note,
  tags: row.tags,
  listId: row.list_id,
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

/** Saved places (favourites); every query is scoped to the owner, and a list must be the owner's too. */
export class SavedPlaceRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async create(userId: string, id: string, fields: SavedPlaceFields): Promise<SavedPlaceRecord | null> {
    const rows = await this.sql.query<Row>(
      `insert into saved_places (id, user_id, name, lat, lng, detail, place_id, icon, note, tags, list_id)
       select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11
       where $11::uuid is null or exists (select 1 from saved_lists where id = $11 and user_id = $2)
       returning ${COLUMNS}`,
      [id, userId, fields.name, fields.lat, fields.lng, fields.detail, fields.placeId, fields.icon, fields.note, fields.tags, fields.listId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** The newest `limit` places, optionally of one list. */
  async listNewest(userId: string, limit: number, listId?: string): Promise<SavedPlaceRecord[]> {
    const rows = await this.sql.query<Row>(
      `select ${COLUMNS} from saved_places where user_id = $1 and ($3::uuid is null or list_id = $3)
       order by created_at desc, id desc limit $2`,
      [userId, limit, listId ?? null],
    );
    return rows.map(toRecord);
  }

  async find(userId: string, id: string): Promise<SavedPlaceRecord | null> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from saved_places where user_id = $1 and id = $2`, [userId, id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Replaces the fields; null when the place (or the list it moves to) is not the owner's. */
  async update(userId: string, id: string, fields: SavedPlaceFields): Promise<SavedPlaceRecord | null> {
    const rows = await this.sql.query<Row>(
      `update saved_places set name = $3, lat = $4, lng = $5, detail = $6, place_id = $7, icon = $8, note = $9, tags = $10,
         list_id = $11, updated_at = clock_timestamp()
       where user_id = $1 and id = $2 and ($11::uuid is null or exists (select 1 from saved_lists where id = $11 and user_id = $1))
       returning ${COLUMNS}`,
      [userId, id, fields.name, fields.lat, fields.lng, fields.detail, fields.placeId, fields.icon, fields.note, fields.tags, fields.listId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return (await this.sql.query('delete from saved_places where user_id = $1 and id = $2 returning id', [userId, id])).length > 0;
  }

  async listAll(userId: string): Promise<SavedPlaceRecord[]> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from saved_places where user_id = $1 order by created_at desc, id desc`, [userId]);
    return rows.map(toRecord);
  }
}
