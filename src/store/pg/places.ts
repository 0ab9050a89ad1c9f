/**
 * The place catalogue's repository (spec part 2 §2.4, §4.4; docs/places.md "Storage"). Places are keyed
 * by their OSM element: seeding upserts, never duplicates, and never touches what operators and users
 * own (slug, sponsored, claim status, logo, rating, review count, popularity).
 */
import { randomUUID } from 'node:crypto';
import type { ClaimStatus, PlaceEntranceRecord, PlaceRecord, PlaceSeed, StoredOpeningHours } from '../../domain/place.js';
import type { SqlClient } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

export type PlaceSort = 'relevance' | 'rating' | 'name' | 'newest' | 'oldest';

/** The open-now test: per timezone the local minute of the week, plus places whose hours vary by week, evaluated by the caller. */
export interface OpenNowFilter {
  zones: { timeZone: string; minuteOfWeek: number }[];
  /** Places whose hours are not the same every week and are open now (evaluated outside SQL). */
  openIrregularIds: string[];
}

export interface PlaceListFilter {
  /** Lower-cased text that `nameEn` or `nameAr` must contain. */
  q?: string;
  sponsored?: boolean;
  /** Places with this category (canonical or not). */
  category?: string;
  /** Places with any of these categories (search). */
  anyCategory?: string[];
  /** Places with every one of these amenity options. */
  amenities?: string[];
  openNow?: OpenNowFilter;
  minRating?: number;
  near?: { lat: number; lng: number };
  /** With `near`: places within this many kilometres. */
  radiusKm?: number;
  /** Ignored with `near` (nearest first, then slug). */
  sort: PlaceSort;
  offset: number;
  limit: number;
}

export interface ListedPlace extends PlaceRecord {
  /** Kilometres from `near` (haversine), when given. */
  distanceKm?: number;
}

export interface PlacePage {
  items: ListedPlace[];
  total: number;
}

export interface CategoryRow {
  slug: string;
  nameEn: string;
  nameAr: string;
  icon: string;
  group: string;
  aliases: readonly string[];
}

interface Row extends Record<string, unknown> {
  id: string;
  osm_type: PlaceRecord['osmType'];
  osm_id: string | number | bigint;
  slug: string;
  name_en: string | null;
  name_ar: string | null;
  name_en_source: PlaceRecord['nameEnSource'];
  name_ar_source: PlaceRecord['nameArSource'];
  categories: string[];
  canonical_category: string;
  lat: number;
  lng: number;
  country_code: string | null;
  time_zone: string;
  phone: string | null;
  website: string | null;
  opening_hours: StoredOpeningHours | string | null;
  amenities: string[];
  tags: Record<string, string> | string;
  entrances: PlaceEntranceRecord[] | string;
  sponsored: boolean;
  claim_status: ClaimStatus;
  logo_path: string | null;
  rating: number;
  review_count: number;
  popularity: number;
  created_at: Date | string;
  updated_at: Date | string;
  distance_km?: number;
  week_intervals?: number[] | null;
}

const COLUMNS = `p.id, p.osm_type, p.osm_id, p.slug, p.name_en, p.name_ar, p.name_en_source, p.name_ar_source, p.categories,
  p.canonical_category, p.lat, p.lng, p.country_code, p.time_zone, p.phone, p.website, p.opening_hours, p.amenities, p.tags,
  p.entrances, p.sponsored, p.claim_status, p.logo_path, p.rating, p.review_count, p.popularity, p.created_at, p.updated_at`;

const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

function toRecord(row: Row): ListedPlace {
  const hours = row.opening_hours === null ? null : json<StoredOpeningHours>(row.opening_hours);
  const record: ListedPlace = {
    id: row.id,
    osmType: row.osm_type,
    osmId: Number(row.osm_id),
    slug: row.slug,
    slugBase: row.slug,
    nameEn: row.name_en,
    nameAr: row.name_ar,
    nameEnSource: row.name_en_source,
    nameArSource: row.name_ar_source,
    categories: row.categories,
    canonicalCategory: row.canonical_category,
    lat: Number(row.lat),
    lng: Number(row.lng),
    countryCode: row.country_code,
    timeZone: row.time_zone,
    phone: row.phone,
    website: row.website,
    openingHours: hours,
    weekIntervals: [],
    amenities: row.amenities,
    tags: json(row.tags),
    entrances: json(row.entrances),
    sponsored: row.sponsored,
    claimStatus: row.claim_status,
    logoPath: row.logo_path,
    rating: Number(row.rating),
    reviewCount: Number(row.review_count),
    popularity: Number(row.popularity),
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
  if (row.distance_km !== undefined && row.distance_km !== null) record.distanceKm = Number(row.distance_km);
  return record;
}

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE_LAT = (Math.PI * EARTH_RADIUS_KM) / 180;
/** Radii `near` without `radiusKm` widens through until a page is full; past the last, the whole catalogue. */
const NEAR_STEPS_KM = [2, 8, 32, 128, 512, 2048];

/** Haversine distance in km from ($lat, $lng) given as parameter numbers. */
export function distanceSql(latParam: number, lngParam: number): string {
  return `(${EARTH_RADIUS_KM} * 2 * asin(least(1, sqrt(power(sin(radians(p.lat - $${latParam}) / 2), 2)
    + cos(radians($${latParam})) * cos(radians(p.lat)) * power(sin(radians(p.lng - $${lngParam}) / 2), 2)))))`;
}

/** The box of a circle (degrees), or undefined where it would wrap the antimeridian or a pole. */
export function boxAround(lat: number, lng: number, radiusKm: number): { west: number; south: number; east: number; north: number } | undefined {
  const dLat = radiusKm / KM_PER_DEGREE_LAT;
  const cos = Math.cos((Math.min(89.9, Math.abs(lat) + dLat) * Math.PI) / 180);
  const dLng = radiusKm / (KM_PER_DEGREE_LAT * cos);
  const box = { west: lng - dLng, south: lat - dLat, east: lng + dLng, north: lat + dLat };
  if (box.west < -180 || box.east > 180 || box.south < -90 || box.north > 90 || dLng >= 180) return undefined;
  return box;
}

const ORDER: Record<PlaceSort, string> = {
  relevance: 'p.sponsored desc, p.rating desc, p.created_at desc, p.slug',
  rating: 'p.rating desc, p.review_count desc, p.slug',
  name: 'lower(coalesce(p.name_en, p.name_ar)), p.slug',
  newest: 'p.created_at desc, p.slug',
  oldest: 'p.created_at asc, p.slug',
};

/** Escapes LIKE wildcards in text matched literally. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (match) => `\\${match}`);
}

/** The slugs a new place may get, in order of preference. */
function slugCandidates(seed: PlaceSeed): string[] {
  return [seed.slugBase, `${seed.slugBase}-${seed.osmId}`, `${seed.slugBase}-${seed.osmType}-${seed.osmId}`];
}

export class Query {
  readonly params: unknown[] = [];
  readonly where: string[] = [];
  add(value: unknown): number {
    this.params.push(value);
    return this.params.length;
  }
}

/** How long a filtered set's size is reused (ms): pages and origins of one search share it. */
const TOTAL_TTL_MS = 5_000;
const TOTAL_CACHE_SIZE = 1_000;

/** A cached count: the query's promise, and its number once it has one. */
interface CountEntry {
  at: number;
  total: Promise<number>;
  value?: number;
}

export class PlaceRepository {
  /**
   * Sizes of filtered sets (no `near`): `near` without a radius and every list answer `total` with them,
   * and counting 100 000 rows costs more than the page. Kept 5 s and dropped on this process's writes;
   * another process's write (an operator's) shows within 5 s. Once counted, the number itself is handed out,
   * not the (long-lived, settled) promise: while every `near` page awaited that promise, each request's page
   * survived the next scavenge and was promoted (1.6–1.9 MB a scavenge against ~20 KB, scavenges 4.4 → 2 ms
   * at 100 000 places; docs/benchmarks.md "Session 25"). How the await kept it alive was not isolated: a
   * small program awaiting an old settled promise does not do it, with or without async hooks.
   */
  private readonly totals = new Map<string, CountEntry>();

  constructor(private readonly sql: SqlClient) {}

  /** The filtered set's size: a number once counted (within TOTAL_TTL_MS), else the count under way. */
  private countFiltered(filter: PlaceListFilter): Promise<number> | number {
    const { offset: _offset, limit: _limit, near: _near, radiusKm: _radius, sort: _sort, ...rest } = filter;
    const key = JSON.stringify(rest);
    const now = Date.now();
    const cached = this.totals.get(key);
    if (cached && now - cached.at < TOTAL_TTL_MS) return cached.value ?? cached.total;
    const query = this.filterQuery(filter);
    const where = query.where.length ? `where ${query.where.join(' and ')}` : '';
    const total = this.sql.query<{ total: number | string }>(`select count(*) as total from places p ${where}`, query.params).then((rows) => Number(rows[0]!.total));
    if (this.totals.size >= TOTAL_CACHE_SIZE) this.totals.clear();
    const entry: CountEntry = { at: now, total };
    this.totals.set(key, entry);
    // a failed count drops its own entry, not one a later count put in its place
    total.then(
      (value) => (entry.value = value),
      () => this.totals.get(key) === entry && this.totals.delete(key),
    );
    return total;
  }

  /**
   * Inserts new places and updates seeded fields of known ones (same OSM element), in one transaction.
   * A new place gets its slug here: the name's slug, else that plus the OSM id, else plus type and id.
   */
  async upsertSeeds(seeds: readonly PlaceSeed[]): Promise<{ inserted: number; updated: number }> {
    // one row per OSM element (a statement may not update a row twice): the last seed of an element wins
    const unique = [...new Map(seeds.map((seed) => [`${seed.osmType}/${seed.osmId}`, seed])).values()];
    try {
      return await this.upsertInTransaction(unique);
    } finally {
      this.totals.clear();
    }
  }

  private upsertInTransaction(seeds: readonly PlaceSeed[]): Promise<{ inserted: number; updated: number }> {
    return this.sql.transaction(async (tx) => {
      // slugs only for places not seen before: the name's slug, else with the OSM id, else with type and id
      const known = new Set(
        (await tx.query<{ key: string }>(
          `select osm_type || '/' || osm_id as key from places where (osm_type, osm_id) in (select * from unnest($1::text[], $2::bigint[]))`,
          [seeds.map((seed) => seed.osmType), seeds.map((seed) => seed.osmId)],
        )).map((row) => row.key),
      );
      const fresh = seeds.filter((seed) => !known.has(`${seed.osmType}/${seed.osmId}`));
      const candidates = fresh.flatMap((seed) => slugCandidates(seed));
      const taken = new Set((await tx.query<{ slug: string }>('select slug from places where slug = any($1::text[])', [candidates])).map((row) => row.slug));
      const slugs = new Map<string, string>();
      for (const seed of fresh) {
        const slug = slugCandidates(seed).find((candidate) => !taken.has(candidate)) ?? `${seed.osmType}-${seed.osmId}-${randomUUID().slice(0, 8)}`;
        taken.add(slug);
        slugs.set(`${seed.osmType}/${seed.osmId}`, slug);
      }
      const records = seeds.map((seed) => ({
        id: randomUUID(),
        osm_type: seed.osmType,
        osm_id: seed.osmId,
        slug: slugs.get(`${seed.osmType}/${seed.osmId}`) ?? null,
        name_en: seed.nameEn,
        name_ar: seed.nameAr,
        name_en_source: seed.nameEnSource,
        name_ar_source: seed.nameArSource,
        categories: seed.categories,
        canonical_category: seed.canonicalCategory,
        lat: seed.lat,
        lng: seed.lng,
        country_code: seed.countryCode,
        time_zone: seed.timeZone,
        phone: seed.phone,
        website: seed.website,
        opening_hours: seed.openingHours,
        hours_week_stable: seed.openingHours?.weekStable ?? null,
        amenities: seed.amenities,
        tags: seed.tags,
        entrances: seed.entrances,
      }));
      // one statement for the batch: new places inserted with their slug, known ones updated (slug and what
      // operators and users own untouched); xmax = 0 marks a row this statement inserted
      const rows = await tx.query<{ id: string; osm_type: string; osm_id: string | number | bigint; inserted: boolean }>(
        `insert into places (id, osm_type, osm_id, slug, name_en, name_ar, name_en_source, name_ar_source, categories, canonical_category,
           lat, lng, country_code, time_zone, phone, website, opening_hours, hours_week_stable, amenities, tags, entrances)
         select r.id, r.osm_type, r.osm_id, coalesce(r.slug, r.osm_type || '-' || r.osm_id), r.name_en, r.name_ar, r.name_en_source, r.name_ar_source,
           array(select json_array_elements_text(r.categories)), r.canonical_category, r.lat, r.lng, r.country_code, r.time_zone, r.phone, r.website,
           r.opening_hours, r.hours_week_stable, array(select json_array_elements_text(r.amenities)), r.tags, r.entrances
         from json_to_recordset($1::text::json) as r(id uuid, osm_type text, osm_id bigint, slug text, name_en text, name_ar text, name_en_source text,
           name_ar_source text, categories json, canonical_category text, lat double precision, lng double precision, country_code text, time_zone text,
           phone text, website text, opening_hours jsonb, hours_week_stable boolean, amenities json, tags jsonb, entrances jsonb)
         on conflict (osm_type, osm_id) do update set name_en = excluded.name_en, name_ar = excluded.name_ar, name_en_source = excluded.name_en_source,
           name_ar_source = excluded.name_ar_source, categories = excluded.categories, canonical_category = excluded.canonical_category,
           lat = excluded.lat, lng = excluded.lng, country_code = excluded.country_code, time_zone = excluded.time_zone, phone = excluded.phone,
           website = excluded.website, opening_hours = excluded.opening_hours, hours_week_stable = excluded.hours_week_stable,
           amenities = excluded.amenities, tags = excluded.tags, entrances = excluded.entrances, updated_at = clock_timestamp()
         returning id, osm_type, osm_id, (xmax = 0) as inserted`,
        [JSON.stringify(records)],
      );
      const idOf = new Map(rows.map((row) => [`${row.osm_type}/${Number(row.osm_id)}`, row.id]));
      const ids = [...idOf.values()];
      await tx.query('delete from place_open_intervals where place_id = any($1::uuid[])', [ids]);
      const intervals = seeds.flatMap((seed) => seed.weekIntervals.map(([start, end]) => [idOf.get(`${seed.osmType}/${seed.osmId}`)!, start, end] as const));
      if (intervals.length > 0) {
        await tx.query(
          'insert into place_open_intervals (place_id, start_minute, end_minute) select * from unnest($1::uuid[], $2::int[], $3::int[])',
          [intervals.map((interval) => interval[0]), intervals.map((interval) => interval[1]), intervals.map((interval) => interval[2])],
        );
      }
      const inserted = rows.filter((row) => row.inserted).length;
      return { inserted, updated: rows.length - inserted };
    });
  }

  async findBySlug(slug: string): Promise<PlaceRecord | null> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from places p where p.slug = $1`, [slug]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async findByOsm(osmType: string, osmId: number): Promise<PlaceRecord | null> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from places p where p.osm_type = $1 and p.osm_id = $2`, [osmType, osmId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async findByIds(ids: readonly string[]): Promise<PlaceRecord[]> {
    if (ids.length === 0) return [];
    // a search's page: one round trip, not two
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from places p where p.id = any($1::uuid[])`, [ids], { prepared: true });
    return rows.map(toRecord);
  }

  /** Places whose hours differ from week to week (dates, holidays): `openNow` evaluates them outside SQL. */
  async irregularHours(): Promise<{ id: string; raw: string; timeZone: string }[]> {
    const rows = await this.sql.query<{ id: string; raw: string; time_zone: string }>(
      `select id, opening_hours->>'raw' as raw, time_zone from places where hours_week_stable = false`,
    );
    return rows.map((row) => ({ id: row.id, raw: row.raw, timeZone: row.time_zone }));
  }

  /** The WHERE terms of a filter (search adds its own to them). */
  filterQuery(filter: PlaceListFilter): Query {
    const query = new Query();
    const where = query.where;
    if (filter.q) {
      const pattern = query.add(`%${likeLiteral(filter.q.toLowerCase())}%`);
      // the names lower-cased on write (migration 030): lower() per tested row was most of a rare word's walk
      where.push(`(p.name_en_lower like $${pattern} or p.name_ar_lower like $${pattern})`);
    }
    if (filter.sponsored !== undefined) where.push(`p.sponsored = $${query.add(filter.sponsored)}`);
    // the canonical slug is always one of `categories` (the seeder puts it first)
    if (filter.category) where.push(`p.categories @> array[$${query.add(filter.category)}::text]`);
    if (filter.anyCategory?.length) where.push(`p.categories && $${query.add(filter.anyCategory)}::text[]`);
    if (filter.amenities?.length) where.push(`p.amenities @> $${query.add(filter.amenities)}::text[]`);
    if (filter.minRating !== undefined && filter.minRating > 0) where.push(`p.rating >= $${query.add(filter.minRating)}`);
    if (filter.openNow) {
      const zones = query.add(filter.openNow.zones.map((zone) => zone.timeZone));
      const minutes = query.add(filter.openNow.zones.map((zone) => zone.minuteOfWeek));
      const irregular = query.add(filter.openNow.openIrregularIds);
      where.push(`((p.hours_week_stable and exists (
          select 1 from place_open_intervals i join unnest($${zones}::text[], $${minutes}::int[]) as z(zone, minute) on z.zone = p.time_zone
          where i.place_id = p.id and i.start_minute <= z.minute and i.end_minute > z.minute))
        or p.id = any($${irregular}::uuid[]))`);
    }
    return query;
  }

  /**
   * Rows of a page as one JSON text (json_agg, in the query's order): PGlite decodes every field of
   * every row in JavaScript, which for 50 places of 28 columns cost more than the query itself; one text
   * value and JSON.parse cost a third. The same SQL runs on Postgres.
   */
  private async jsonRows(select: string, order: string, params: readonly unknown[]): Promise<Row[]> {
    const rows = await this.sql.query<{ page: string | null }>(`select json_agg(p order by ${order})::text as page from (${select}) p`, params);
    return rows[0]?.page ? (JSON.parse(rows[0].page) as Row[]) : [];
  }

  /** GET /places: one page of the filtered set and its size; with `near`, nearest first (ties by slug) with `distanceKm`. */
  async list(filter: PlaceListFilter): Promise<PlacePage> {
    if (filter.near) return this.listNear(filter, filter.near);
    const query = this.filterQuery(filter);
    const where = query.where.length ? `where ${query.where.join(' and ')}` : '';
    const limit = query.add(filter.limit);
    const offset = query.add(filter.offset);
    const [rows, total] = await Promise.all([
      this.jsonRows(`select ${COLUMNS} from places p ${where} order by ${ORDER[filter.sort]} limit $${limit} offset $${offset}`, ORDER[filter.sort], query.params),
      this.countFiltered(filter),
    ]);
    return { items: rows.map(toRecord), total };
  }

  /**
   * Nearest first. Within a radius (given, or widened step by step until a page fills: a full page within
   * r holds the nearest places overall, since everything outside r is farther), a GiST box prefilter,
   * then exact haversine distance and the radius; ties by slug keep pages stable.
   */
  private async listNear(filter: PlaceListFilter, near: { lat: number; lng: number }): Promise<PlacePage> {
    const wanted = filter.offset + filter.limit;
    const radii = filter.radiusKm !== undefined ? [filter.radiusKm] : [...NEAR_STEPS_KM, undefined];
    const totalPromise = filter.radiusKm === undefined ? this.countFiltered(filter) : undefined;
    for (const radius of radii) {
      const query = this.filterQuery(filter);
      const lat = query.add(near.lat);
      const lng = query.add(near.lng);
      const distance = distanceSql(lat, lng);
      const where = [...query.where];
      if (radius !== undefined) {
        const box = boxAround(near.lat, near.lng, radius);
        if (box) where.push(`point(p.lng, p.lat) <@ box(point($${query.add(box.west)}, $${query.add(box.south)}), point($${query.add(box.east)}, $${query.add(box.north)}))`);
        where.push(`${distance} <= $${query.add(radius)}`);
      }
      const clause = where.length ? `where ${where.join(' and ')}` : '';
      const last = radius === undefined || radius === filter.radiusKm;
      const limit = query.add(last ? filter.limit : wanted);
      const offset = last ? query.add(filter.offset) : undefined;
      const rows = await this.jsonRows(
        `select ${COLUMNS}, ${distance} as distance_km, count(*) over () as in_radius from places p ${clause}
         order by distance_km, p.slug limit $${limit}${offset ? ` offset $${offset}` : ''}`,
        'p.distance_km, p.slug',
        query.params,
      );
      if (!last && rows.length < wanted) continue;
      const items = (last ? rows : rows.slice(filter.offset)).map(toRecord);
      if (totalPromise !== undefined) return { items, total: typeof totalPromise === 'number' ? totalPromise : await totalPromise };
      // within a given radius the set is the rows the window counted; an empty page past its end counts separately
      const total = rows[0] ? Number(rows[0].in_radius) : filter.offset === 0 ? 0 : await this.countNear(filter, near, radius!);
      return { items, total };
    }
    throw new Error('unreachable: the last radius step is unbounded');
  }

  private async countNear(filter: PlaceListFilter, near: { lat: number; lng: number }, radius: number): Promise<number> {
    const query = this.filterQuery(filter);
    const distance = distanceSql(query.add(near.lat), query.add(near.lng));
    const where = [...query.where, `${distance} <= $${query.add(radius)}`];
    const rows = await this.sql.query<{ total: number | string }>(`select count(*) as total from places p where ${where.join(' and ')}`, query.params);
    return Number(rows[0]!.total);
  }

  /** GET /places/facets: the amenity and category arrays of at most `cap` places (the first `cap` by slug) matching `q`. */
  async facetScan(q: string | undefined, cap: number): Promise<{ rows: { amenities: string[]; categories: string[] }[]; capped: boolean }> {
    const query = this.filterQuery({ q, sort: 'relevance', offset: 0, limit: cap });
    const where = query.where.length ? `where ${query.where.join(' and ')}` : '';
    const rows = await this.sql.query<{ amenities: string[]; categories: string[] }>(
      `select p.amenities, p.categories from places p ${where} order by p.slug limit $${query.add(cap + 1)}`,
      query.params,
    );
    return { rows: rows.slice(0, cap), capped: rows.length > cap };
  }

  /** Operator fields (admin): sponsored and claim status. Null when no place has the slug. */
  async setOperatorFields(slug: string, fields: { sponsored?: boolean; claimStatus?: ClaimStatus; priceLevel?: number | null }): Promise<(PlaceRecord & { priceLevel: number | null }) | null> {
    this.totals.clear();
    const rows = await this.sql.query<Row & { price_level: number | null }>(
      `update places p set sponsored = coalesce($2, p.sponsored), claim_status = coalesce($3, p.claim_status),
         price_level = case when $4 then $5::smallint else p.price_level end, updated_at = clock_timestamp()
       where p.slug = $1 returning ${COLUMNS}, p.price_level`,
      [slug, fields.sponsored ?? null, fields.claimStatus ?? null, fields.priceLevel !== undefined, fields.priceLevel ?? null],
    );
    // again after the write: a count taken while it ran would hold the old figure
    this.totals.clear();
    return rows[0] ? { ...toRecord(rows[0]), priceLevel: rows[0].price_level === null ? null : Number(rows[0].price_level) } : null;
  }

  /** Recomputed aggregates of a place's reviews (the review store calls this after each write). */
  async setRating(placeId: string, rating: number, reviewCount: number): Promise<void> {
    this.totals.clear();
    await this.sql.query('update places set rating = $2, review_count = $3 where id = $1', [placeId, rating, reviewCount]);
    this.totals.clear();
  }

  async count(): Promise<number> {
    const rows = await this.sql.query<{ total: number | string }>('select count(*) as total from places');
    return Number(rows[0]!.total);
  }

  /** Replaces the category table with the taxonomy (names, icons, aliases), in its order. */
  async replaceCategories(categories: readonly CategoryRow[]): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.query('delete from place_categories');
      await tx.query(
        `insert into place_categories (slug, name_en, name_ar, icon, category_group, aliases, position)
         select slug, name_en, name_ar, icon, grp, string_to_array(aliases, chr(31)), position
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) with ordinality as t(slug, name_en, name_ar, icon, grp, aliases, position)`,
        [
          categories.map((category) => category.slug),
          categories.map((category) => category.nameEn),
          categories.map((category) => category.nameAr),
          categories.map((category) => category.icon),
          categories.map((category) => category.group),
          categories.map((category) => category.aliases.join('\u001f')),
        ],
      );
    });
  }

  /** The stamp of the last seed from a source (the map data pack's sha256 and the seeder's version). */
  async seedStamp(source: string): Promise<string | null> {
    const rows = await this.sql.query<{ stamp: string }>('select stamp from place_seed_runs where source = $1', [source]);
    return rows[0]?.stamp ?? null;
  }

  async recordSeed(source: string, stamp: string, places: number): Promise<void> {
    await this.sql.query(
      `insert into place_seed_runs (source, stamp, places) values ($1, $2, $3)
       on conflict (source) do update set stamp = excluded.stamp, places = excluded.places, seeded_at = clock_timestamp()`,
      [source, stamp, places],
    );
  }
}
