/**
 * Records of photos of places (docs/places.md "User content"; the bytes are in the photo store): moderation
 * status, the featured flag and the order photos are shown in. Deletes are scoped to the uploader.
 */
import type { SqlClient } from '../sql/sql-client.js';
import { isoOf, isoOrNull } from './row-mapping.js';

export type PhotoStatus = 'pending' | 'approved' | 'rejected';

export interface PlacePhotoRecord {
  id: string;
  placeId: string;
  userId: string;
  authorName: string | null;
  storageKey: string;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
  caption: string | null;
  status: PhotoStatus;
  featured: boolean;
  rejectionReason: string | null;
  moderatedAt: string | null;
  createdAt: string;
}

export type NewPlacePhoto = Pick<PlacePhotoRecord, 'id' | 'placeId' | 'userId' | 'storageKey' | 'contentType' | 'width' | 'height' | 'bytes' | 'caption'>;

interface PhotoRow extends Record<string, unknown> {
  id: string;
  place_id: string;
  user_id: string;
  author_name: string | null;
  storage_key: string;
  content_type: string;
  width: number;
  height: number;
  bytes: number;
  caption: string | null;
  status: PhotoStatus;
  featured: boolean;
  rejection_reason: string | null;
  moderated_at: Date | string | null;
  created_at: Date | string;
}

const PHOTO_COLUMNS = `f.id, f.place_id, f.user_id, nullif(u.name, '') as author_name, f.storage_key, f.content_type, f.width, f.height,
  f.bytes, f.caption, f.status, f.featured, f.rejection_reason, f.moderated_at, f.created_at`;
const PHOTO_FROM = 'place_photos f join users u on u.id = f.user_id';
/** The order photos are shown in, and the best one picked (spec part 2 §2.4): featured first, then oldest. */
const PHOTO_ORDER = 'f.featured desc, f.created_at asc, f.id asc';

const toPhoto = (row: PhotoRow): PlacePhotoRecord => ({
  id: row.id,
  placeId: row.place_id,
  userId: row.user_id,
  authorName: row.author_name,
  storageKey: row.storage_key,
  contentType: row.content_type,
  width: Number(row.width),
  height: Number(row.height),
  bytes: Number(row.bytes),
  caption: row.caption,
  status: row.status,
  featured: row.featured,
  rejectionReason: row.rejection_reason,
  moderatedAt: isoOrNull(row.moderated_at),
  createdAt: isoOf(row.created_at),
});

export class PlacePhotoRepository {
  constructor(private readonly sql: SqlClient) {}

  async create(photo: NewPlacePhoto): Promise<PlacePhotoRecord> {
    await this.sql.query(
      `insert into place_photos (id, place_id, user_id, storage_key, content_type, width, height, bytes, caption)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [photo.id, photo.placeId, photo.userId, photo.storageKey, photo.contentType, photo.width, photo.height, photo.bytes, photo.caption],
    );
    return (await this.find(photo.id))!;
  }

  async find(id: string): Promise<PlacePhotoRecord | null> {
    const rows = await this.sql.query<PhotoRow>(`select ${PHOTO_COLUMNS} from ${PHOTO_FROM} where f.id = $1`, [id]);
    return rows[0] ? toPhoto(rows[0]) : null;
  }

  /** An approved photo by its storage key (what the public image URL names); null for any other status. */
  async findApprovedByKey(storageKey: string): Promise<PlacePhotoRecord | null> {
    const rows = await this.sql.query<PhotoRow>(`select ${PHOTO_COLUMNS} from ${PHOTO_FROM} where f.storage_key = $1 and f.status = 'approved'`, [storageKey]);
    return rows[0] ? toPhoto(rows[0]) : null;
  }

  /** A place's approved photos in the order shown: featured first, then oldest. */
  async approvedPage(placeId: string, offset: number, limit: number): Promise<{ items: PlacePhotoRecord[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.sql.query<PhotoRow>(
        `select ${PHOTO_COLUMNS} from ${PHOTO_FROM} where f.place_id = $1 and f.status = 'approved' order by ${PHOTO_ORDER} limit $2 offset $3`,
        [placeId, limit, offset],
      ),
      this.sql.query<{ total: number | string }>(`select count(*) as total from place_photos where place_id = $1 and status = 'approved'`, [placeId]),
    ]);
    return { items: rows.map(toPhoto), total: Number(count[0]!.total) };
  }

  /** The best approved photo of each place that has one: featured, else the oldest. */
  async bestOf(placeIds: readonly string[]): Promise<PlacePhotoRecord[]> {
    if (placeIds.length === 0) return [];
    const rows = await this.sql.query<PhotoRow>(
      `select distinct on (f.place_id) ${PHOTO_COLUMNS} from ${PHOTO_FROM}
       where f.place_id = any($1::uuid[]) and f.status = 'approved' order by f.place_id, ${PHOTO_ORDER}`,
      [placeIds],
      // every list and search page: one round trip, not two
      { prepared: true },
    );
    return rows.map(toPhoto);
  }

  /** The uploader's own photos (any status), newest first. */
  async byUploader(userId: string, offset: number, limit: number): Promise<{ items: PlacePhotoRecord[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.sql.query<PhotoRow>(`select ${PHOTO_COLUMNS} from ${PHOTO_FROM} where f.user_id = $1 order by f.created_at desc, f.id desc limit $2 offset $3`, [userId, limit, offset]),
      this.sql.query<{ total: number | string }>('select count(*) as total from place_photos where user_id = $1', [userId]),
    ]);
    return { items: rows.map(toPhoto), total: Number(count[0]!.total) };
  }

  /** Photos the user uploaded since an instant (the per-user upload cap). */
  async countUploadedSince(userId: string, sinceMs: number): Promise<number> {
    const rows = await this.sql.query<{ total: number | string }>('select count(*) as total from place_photos where user_id = $1 and created_at >= $2', [
      userId,
      new Date(sinceMs),
    ]);
    return Number(rows[0]!.total);
  }

  /** Deletes the uploader's own photo; its storage key, or null when the uploader has none of that id at the place. */
  async delete(placeId: string, id: string, userId: string): Promise<string | null> {
    const rows = await this.sql.query<{ storage_key: string }>(
      'delete from place_photos where place_id = $1 and id = $2 and user_id = $3 returning storage_key',
      [placeId, id, userId],
    );
    return rows[0]?.storage_key ?? null;
  }

  async exists(placeId: string, id: string): Promise<boolean> {
    return (await this.sql.query('select 1 from place_photos where place_id = $1 and id = $2', [placeId, id])).length > 0;
  }

  /** The moderation queue: photos of one status, oldest first. */
  async queue(status: PhotoStatus, offset: number, limit: number): Promise<{ items: PlacePhotoRecord[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.sql.query<PhotoRow>(`select ${PHOTO_COLUMNS} from ${PHOTO_FROM} where f.status = $1 order by f.created_at, f.id limit $2 offset $3`, [status, limit, offset]),
      this.sql.query<{ total: number | string }>('select count(*) as total from place_photos where status = $1', [status]),
    ]);
    return { items: rows.map(toPhoto), total: Number(count[0]!.total) };
  }

  /**
   * An operator's decision. Featuring a photo approves it and unfeatures the place's other one (one featured
   * photo per place); a photo that is not approved is never featured. Null when no photo has the id.
   */
  async moderate(id: string, decision: { status?: PhotoStatus; featured?: boolean; reason?: string | null }, moderatorId: string): Promise<PlacePhotoRecord | null> {
    const found = await this.sql.transaction(async (tx) => {
      const current = await tx.query<{ place_id: string; status: PhotoStatus; featured: boolean }>('select place_id, status, featured from place_photos where id = $1 for update', [id]);
      if (!current[0]) return false;
      const status = decision.status ?? (decision.featured ? 'approved' : current[0].status);
      const featured = status === 'approved' ? (decision.featured ?? current[0].featured) : false;
      if (featured) await tx.query('update place_photos set featured = false where place_id = $1 and featured and id <> $2', [current[0].place_id, id]);
      await tx.query(
        `update place_photos set status = $2, featured = $3, rejection_reason = $4, moderated_by = $5, moderated_at = clock_timestamp() where id = $1`,
        [id, status, featured, status === 'rejected' ? (decision.reason ?? null) : null, moderatorId],
      );
      return true;
    });
    return found ? this.find(id) : null;
  }

  /** Replaces a place's logo path (null removes it); the previous path, or undefined when no place has the id. */
  async replaceLogo(placeId: string, path: string | null): Promise<{ previous: string | null } | undefined> {
    return this.sql.transaction(async (tx) => {
      const rows = await tx.query<{ logo_path: string | null }>('select logo_path from places where id = $1 for update', [placeId]);
      if (!rows[0]) return undefined;
      await tx.query('update places set logo_path = $2, updated_at = clock_timestamp() where id = $1', [placeId, path]);
      return { previous: rows[0].logo_path };
    });
  }

  /** Whether a place shows this logo path (what the public logo URL names). */
  async isLogoInUse(path: string): Promise<boolean> {
    return (await this.sql.query('select 1 from places where logo_path = $1 limit 1', [path])).length > 0;
  }

  /** Of these storage keys, those a photo record names (any status). */
  async recordedKeys(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.sql.query<{ storage_key: string }>('select storage_key from place_photos where storage_key = any($1::text[])', [keys]);
    return new Set(rows.map((row) => row.storage_key));
  }

  /** Of these logo paths, those some place shows. */
  async logosInUse(paths: readonly string[]): Promise<Set<string>> {
    if (paths.length === 0) return new Set();
    const rows = await this.sql.query<{ logo_path: string }>('select distinct logo_path from places where logo_path = any($1::text[])', [paths]);
    return new Set(rows.map((row) => row.logo_path));
  }
}
