/**
 * Saved itineraries (spec part 3 §2.4, §4.3; docs/itineraries.md). Every query but the public read by
 * share slug is scoped to the owner: another user's itinerary is simply not found.
 */
import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

/** A stop as stored (spec part 3 §2.4). */
export interface ItineraryStopRecord {
  lat: number;
  lng: number;
  name?: string | undefined;
  placeId?: string | undefined;
  note?: string | undefined;
  dwellMin: number;
}

export interface ItineraryFields {
  name: string;
  stops: ItineraryStopRecord[];
  notes: string | null;
  plan: Record<string, unknown> | null;
  isPublic: boolean;
  /** Set exactly when `isPublic`. */
  shareSlug: string | null;
}

export interface ItineraryRecord extends ItineraryFields {
  id: string;
  createdAt: string;
  updatedAt: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  name: string;
  stops: ItineraryStopRecord[] | string;
  notes: string | null;
  plan: Record<string, unknown> | string | null;
  is_public: boolean;
  share_slug: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = 'id, name, stops, notes, plan, is_public, share_slug, created_at, updated_at';
const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
const toRecord = (row: Row): ItineraryRecord => ({
  id: row.id,
  name: row.name,
  stops: json(row.stops),
  notes: row.notes,
  plan: row.plan === null ? null : json(row.plan),
  isPublic: row.is_public,
  shareSlug: row.share_slug,
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

export class ItineraryRepository {
  constructor(private readonly sql: SqlExecutor) {}

  /** Stores a new itinerary unless the owner already has `cap` of them (then null). */
  async create(userId: string, id: string, fields: ItineraryFields, cap: number): Promise<ItineraryRecord | null> {
    const rows = await this.sql.query<Row>(
      `insert into itineraries (id, user_id, name, stops, notes, plan, is_public, share_slug)
       select $1, $2, $3, $4::text::jsonb, $5, $6::text::jsonb, $7, $8
       where (select count(*) from itineraries where user_id = $2) < $9
       returning ${COLUMNS}`,
      [id, userId, fields.name, JSON.stringify(fields.stops), fields.notes, fields.plan === null ? null : JSON.stringify(fields.plan), fields.isPublic, fields.shareSlug, cap],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** The owner's itineraries, newest first. */
  async list(userId: string, limit: number): Promise<ItineraryRecord[]> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from itineraries where user_id = $1 order by created_at desc, id desc limit $2`, [userId, limit]);
    return rows.map(toRecord);
  }

  async find(userId: string, id: string): Promise<ItineraryRecord | null> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from itineraries where user_id = $1 and id = $2`, [userId, id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** A public itinerary by its share slug (anyone's). */
  async findShared(shareSlug: string): Promise<ItineraryRecord | null> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from itineraries where share_slug = $1 and is_public`, [shareSlug]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Replaces the fields; null when the itinerary is not the owner's. */
  async update(userId: string, id: string, fields: ItineraryFields): Promise<ItineraryRecord | null> {
    const rows = await this.sql.query<Row>(
      `update itineraries set name = $3, stops = $4::text::jsonb, notes = $5, plan = $6::text::jsonb, is_public = $7, share_slug = $8,
         updated_at = clock_timestamp()
       where user_id = $1 and id = $2
       returning ${COLUMNS}`,
      [userId, id, fields.name, JSON.stringify(fields.stops), fields.notes, fields.plan === null ? null : JSON.stringify(fields.plan), fields.isPublic, fields.shareSlug],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return (await this.sql.query('delete from itineraries where user_id = $1 and id = $2 returning id', [userId, id])).length > 0;
  }

  /** Everything the owner has (the account export). */
  async listAll(userId: string): Promise<ItineraryRecord[]> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from itineraries where user_id = $1 order by created_at desc, id desc`, [userId]);
    return rows.map(toRecord);
  }
}
