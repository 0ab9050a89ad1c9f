/**
 * The few columns of every place a map needs to choose its markers (`GET /map/poi`): read whole
 * into memory by the map data service, and re-read only when `changeStamp` moves.
 */
import type { SqlClient } from '../sql/sql-client.js';

export interface PlaceMarkerRow {
  id: string;
  slug: string;
  nameEn: string | null;
  nameAr: string | null;
  canonicalCategory: string;
  categories: string[];
  lat: number;
  lng: number;
  rating: number;
  reviewCount: number;
  popularity: number;
}

type Row = {
  id: string;
  slug: string;
  name_en: string | null;
  name_ar: string | null;
  canonical_category: string;
  categories: string[];
  lat: number | string;
  lng: number | string;
  rating: number | string;
  review_count: number | string;
  popularity: number | string;
};

export class PlaceMarkerRepository {
  constructor(private readonly sql: SqlClient) {}

  async all(): Promise<PlaceMarkerRow[]> {
    const rows = await this.sql.query<Row>('select id, slug, name_en, name_ar, canonical_category, categories, lat, lng, rating, review_count, popularity from places order by id');
    return rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      nameEn: row.name_en,
      nameAr: row.name_ar,
      canonicalCategory: row.canonical_category,
      categories: row.categories,
      lat: Number(row.lat),
      lng: Number(row.lng),
      rating: Number(row.rating),
      reviewCount: Number(row.review_count),
      popularity: Number(row.popularity),
    }));
  }

  /**
   * Moves whenever a marker's columns may have: a place added, removed or edited (updated_at), a rating
   * or its review count, or popularity changed (neither touches updated_at).
   */
  async changeStamp(): Promise<string> {
    const rows = await this.sql.query<{ n: number | string; u: unknown; r: number | string | null; g: number | string | null; p: number | string | null }>(
      'select count(*) as n, max(updated_at) as u, sum(review_count) as r, sum(rating) as g, sum(popularity) as p from places',
    );
    const row = rows[0]!;
    const updated = row.u instanceof Date ? row.u.toISOString() : String(row.u);
    return `${row.n}|${updated}|${row.r ?? 0}|${row.g ?? 0}|${row.p ?? 0}`;
  }
}
