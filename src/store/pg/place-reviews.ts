/**
 * Reviews of places (docs/places.md "User content"): one per user and place. Every write and delete is scoped
 * to its author in its `where` clause and to the place the path names; `exists` tells a row of another author
 * apart only so the edge can answer 403 rather than 404. A place's rating and review count follow the reviews
 * through the trigger of migration 014, whatever removes a review (its author, an account deletion).
 */
import type { SqlClient } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

/** A review with its author's display name (the account's `name`; null when empty). */
export interface PlaceReviewRecord {
  id: string;
  placeId: string;
  userId: string;
  authorName: string | null;
  rating: number;
  text: string;
  createdAt: string;
  updatedAt: string;
}

export type ReviewSort = 'newest' | 'oldest' | 'highest' | 'lowest';

const REVIEW_ORDER: Record<ReviewSort, string> = {
  newest: 'r.created_at desc, r.id desc',
  oldest: 'r.created_at asc, r.id asc',
  highest: 'r.rating desc, r.created_at desc, r.id desc',
  lowest: 'r.rating asc, r.created_at desc, r.id desc',
};

interface ReviewRow extends Record<string, unknown> {
  id: string;
  place_id: string;
  user_id: string;
  author_name: string | null;
  rating: number;
  text: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const REVIEW_COLUMNS = `r.id, r.place_id, r.user_id, nullif(u.name, '') as author_name, r.rating, r.text, r.created_at, r.updated_at`;

const toReview = (row: ReviewRow): PlaceReviewRecord => ({
  id: row.id,
  placeId: row.place_id,
  userId: row.user_id,
  authorName: row.author_name,
  rating: Number(row.rating),
  text: row.text,
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

export class PlaceReviewRepository {
  constructor(private readonly sql: SqlClient) {}

  /** Adds the user's review of a place; null when the user has one already (one per user and place). */
  async create(id: string, placeId: string, userId: string, rating: number, text: string): Promise<PlaceReviewRecord | null> {
    const rows = await this.sql.query<{ id: string }>(
      `insert into place_reviews (id, place_id, user_id, rating, text) values ($1, $2, $3, $4, $5)
       on conflict (place_id, user_id) do nothing returning id`,
      [id, placeId, userId, rating, text],
    );
    return rows[0] ? this.find(placeId, rows[0].id) : null;
  }

  async find(placeId: string, id: string): Promise<PlaceReviewRecord | null> {
    const rows = await this.sql.query<ReviewRow>(
      `select ${REVIEW_COLUMNS} from place_reviews r join users u on u.id = r.user_id where r.place_id = $1 and r.id = $2`,
      [placeId, id],
    );
    return rows[0] ? toReview(rows[0]) : null;
  }

  async findByAuthor(placeId: string, userId: string): Promise<PlaceReviewRecord | null> {
    const rows = await this.sql.query<ReviewRow>(
      `select ${REVIEW_COLUMNS} from place_reviews r join users u on u.id = r.user_id where r.place_id = $1 and r.user_id = $2`,
      [placeId, userId],
    );
    return rows[0] ? toReview(rows[0]) : null;
  }

  /** One page of a place's reviews, the count of all of them and how many gave each star count (index 0 = one star). */
  async page(placeId: string, sort: ReviewSort, offset: number, limit: number): Promise<{ items: PlaceReviewRecord[]; total: number; distribution: number[] }> {
    const [rows, counts] = await Promise.all([
      this.sql.query<ReviewRow>(
        `select ${REVIEW_COLUMNS} from place_reviews r join users u on u.id = r.user_id where r.place_id = $1
         order by ${REVIEW_ORDER[sort]} limit $2 offset $3`,
        [placeId, limit, offset],
      ),
      this.sql.query<{ rating: number; total: number | string }>('select rating, count(*) as total from place_reviews where place_id = $1 group by rating', [placeId]),
    ]);
    const distribution = [0, 0, 0, 0, 0];
    for (const count of counts) distribution[Number(count.rating) - 1] = Number(count.total);
    return { items: rows.map(toReview), total: distribution.reduce((sum, value) => sum + value, 0), distribution };
  }

  /** Changes the author's own review (fields given only); null when the author has no review of that id at the place. */
  async update(placeId: string, id: string, userId: string, fields: { rating?: number; text?: string }): Promise<PlaceReviewRecord | null> {
    const rows = await this.sql.query<{ id: string }>(
      `update place_reviews set rating = coalesce($4, rating), text = coalesce($5, text), updated_at = clock_timestamp()
       where place_id = $1 and id = $2 and user_id = $3 returning id`,
      [placeId, id, userId, fields.rating ?? null, fields.text ?? null],
    );
    return rows[0] ? this.find(placeId, id) : null;
  }

  /** Deletes the author's own review; false when the author has none of that id at the place. */
  async delete(placeId: string, id: string, userId: string): Promise<boolean> {
    const rows = await this.sql.query('delete from place_reviews where place_id = $1 and id = $2 and user_id = $3 returning id', [placeId, id, userId]);
    return rows.length > 0;
  }

  async exists(placeId: string, id: string): Promise<boolean> {
    return (await this.sql.query('select 1 from place_reviews where place_id = $1 and id = $2', [placeId, id])).length > 0;
  }
}
