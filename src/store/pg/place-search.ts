/**
 * Search over the place catalogue (spec part 2 §4.3; docs/places.md "Search"): the search documents
 * the indexer writes, candidate retrieval for /search and /search/suggestions, and the daily event
 * counters of POST /search/events that feed popularity. Ranking happens in the search service; this
 * store returns at most `limit` candidates in an order an index can serve (distance from the origin,
 * else prominence), with the filters applied.
 */
import { withFields } from '../../shared/objects.js';
import type { SqlClient, SqlExecutor } from '../sql/sql-client.js';
import { type OpenNowFilter, type PlaceRepository, boxAround, distanceSql, likeLiteral } from './places.js';

export interface IndexablePlace {
  id: string;
  nameEn: string | null;
  nameAr: string | null;
  tags: Record<string, string>;
}

export interface StoredSearchDocument {
  doc: string;
  names: string[];
  prefixes: string[];
}

/** One query word as SQL matches it. */
export interface SearchWord {
  token: string;
  /** Consonant skeletons (full mode). */
  keys: readonly string[];
  /** Categories the word names (the place's category may stand in for it). */
  categories: readonly string[];
  /** A one- or two-letter word typed alone: the start of a name, not of any of its words. */
  nameStart?: boolean;
}

export interface SearchCandidateFilter {
  /** Words every text match has (empty: no text condition). */
  words: readonly SearchWord[];
  /** Word starts only (no insides, no skeletons). */
  typeahead: boolean;
  /** Places of these categories or amenities also qualify (meaning-based matching). */
  meaning?: { categories: readonly string[]; amenities: readonly string[] };
  /** `category` parameter: any of these. */
  anyCategory?: readonly string[];
  priceLevels?: readonly number[];
  openNow?: OpenNowFilter;
  origin?: { lat: number; lng: number };
  /** With origin: within this many km (haversine). */
  radiusKm?: number;
  /** SQL order of the candidates. */
  order: 'distance' | 'prominence' | 'rating' | 'popularity';
  /** Places with this exact name (the query's words) come first in the store's order (relevance). */
  exactName?: string;
  /**
   * `sparse`: few matches (a text query, a rare category): read them all through the GIN indexes, then
   * sort. `dense`: many (browse, common categories, meanings): walk an index in `order`, stop at `limit`.
   */
  plan: 'sparse' | 'dense';
  limit: number;
  /**
   * Rows the caller pages through (page × limit; default `limit`): when more places match than a sparse read
   * pools, the best this many in `order` are read by walking the order index and join the candidates.
   */
  window?: number;
}

export interface SearchCandidate {
  id: string;
  slug: string;
  doc: string;
  names: string[];
  categories: string[];
  amenities: string[];
  nameEn: string | null;
  nameAr: string | null;
  canonicalCategory: string;
  lat: number;
  lng: number;
  reviewCount: number;
  popularity: number;
  rating: number;
  priceLevel: number | null;
}

interface CandidateRow extends Record<string, unknown> {
  id: string;
  slug: string;
  search_doc: string | null;
  search_names: string[] | null;
  categories: string[];
  amenities: string[];
  name_en: string | null;
  name_ar: string | null;
  canonical_category: string;
  lat: number;
  lng: number;
  review_count: number;
  popularity: number;
  rating: number;
  price_level: number | null;
}

const CANDIDATE_COLUMNS = `p.id, p.slug, p.search_doc, p.search_names, p.categories, p.amenities, p.name_en, p.name_ar, p.canonical_category,
  p.lat, p.lng, p.review_count, p.popularity, p.rating, p.price_level`;

const ORDERS = {
  prominence: 'p.popularity desc, p.review_count desc, p.rating desc, p.slug',
  rating: 'p.rating desc, p.review_count desc, p.slug',
  popularity: 'p.popularity desc, p.review_count desc, p.slug',
} as const;

function toCandidate(row: CandidateRow): SearchCandidate {
  return {
    id: row.id,
    slug: row.slug,
    doc: row.search_doc ?? '',
    names: row.search_names ?? [],
    categories: row.categories,
    amenities: row.amenities,
    nameEn: row.name_en,
    nameAr: row.name_ar,
    canonicalCategory: row.canonical_category,
    lat: Number(row.lat),
    lng: Number(row.lng),
    reviewCount: Number(row.review_count),
    popularity: Number(row.popularity),
    rating: Number(row.rating),
    priceLevel: row.price_level === null ? null : Number(row.price_level),
  };
}

/**
 * The first `filter.limit` rows in the store's order (exact names first, then the filter's order, ties by
 * slug bytewise), each place once: the sparse pool merged with the order walk.
 */
function bestOf(rows: readonly CandidateRow[], filter: SearchCandidateFilter): CandidateRow[] {
  const unique = [...new Map(rows.map((row) => [row.id, row])).values()];
  const name = filter.exactName;
  const exact = (row: CandidateRow) => (name !== undefined && (row.search_names ?? []).includes(name) ? 1 : 0);
  const origin = filter.order === 'distance' ? filter.origin : undefined;
  // the planar distance `<->` of the SQL order
  const distance = (row: CandidateRow) => (origin ? Math.hypot(Number(row.lng) - origin.lng, Number(row.lat) - origin.lat) : 0);
  const keys = (row: CandidateRow): number[] => {
    if (origin) return [distance(row)];
    if (filter.order === 'rating') return [-Number(row.rating), -Number(row.review_count)];
    if (filter.order === 'popularity') return [-Number(row.popularity), -Number(row.review_count)];
    return [-Number(row.popularity), -Number(row.review_count), -Number(row.rating)];
  };
  const sortable = unique.map((row) => ({ row, keys: [-exact(row), ...keys(row)] }));
  sortable.sort((a, b) => {
    for (let index = 0; index < a.keys.length; index++) if (a.keys[index] !== b.keys[index]) return a.keys[index]! - b.keys[index]!;
    return a.row.slug < b.row.slug ? -1 : a.row.slug > b.row.slug ? 1 : 0;
  });
  return sortable.slice(0, filter.limit).map((entry) => entry.row);
}

/** A place as the in-memory candidate index holds it (docs/places.md "In-memory candidate index"). */
export interface SearchIndexRecord extends SearchCandidate {
  prefixes: string[];
  timeZone: string;
  hoursWeekStable: boolean | null;
  /** Open intervals of its week, [start, end) minutes from Monday 00:00 local. */
  intervals: [number, number][];
}

interface SearchIndexRow extends CandidateRow {
  search_prefixes: string[] | null;
  time_zone: string;
  hours_week_stable: boolean | null;
  intervals: [number, number][];
}

/** What a read of the index saw: transactions from `xmax` on, and those `running`, had not committed. */
export interface IndexSnapshot {
  xmax: string;
  running: string[];
}

/** Places read per statement when the index loads or catches up. */
const INDEX_PAGE = 10_000;

/** Places indexed per statement. */
const INDEX_BATCH = 1_000;

export class PlaceSearchRepository {
  constructor(
    private readonly sql: SqlClient,
    private readonly places: PlaceRepository,
  ) {}

  /**
   * Writes the search document of every place not indexed since it last changed, `build` computing it;
   * returns how many were indexed. `search_indexed_at` takes the row's `updated_at`, so a change that
   * lands meanwhile is indexed on the next run.
   */
  async reindex(build: (place: IndexablePlace) => StoredSearchDocument): Promise<number> {
    let total = 0;
    for (;;) {
      // updated_at as text keeps its microseconds: the update below matches it exactly
      const rows = await this.sql.query<{ id: string; name_en: string | null; name_ar: string | null; tags: Record<string, string> | string; stamp: string }>(
        `select id, name_en, name_ar, tags, updated_at::text as stamp from places where search_indexed_at is distinct from updated_at order by id limit ${INDEX_BATCH}`,
      );
      if (rows.length === 0) return total;
      const docs = rows.map((row) => build({ id: row.id, nameEn: row.name_en, nameAr: row.name_ar, tags: typeof row.tags === 'string' ? JSON.parse(row.tags) : row.tags }));
      // text[] per row travels as JSON (Postgres has no ragged arrays); a row changed meanwhile keeps its mark and is indexed next run
      const updated = await this.sql.query(
        `update places p set search_doc = s.doc,
           search_names = array(select jsonb_array_elements_text(s.names::jsonb)),
           search_prefixes = array(select jsonb_array_elements_text(s.prefixes::jsonb)),
           search_indexed_at = p.updated_at
         from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[]) as s(id, doc, names, prefixes, stamp)
         where p.id = s.id and p.updated_at = s.stamp::timestamptz returning p.id`,
        [rows.map((row) => row.id), docs.map((doc) => doc.doc), docs.map((doc) => JSON.stringify(doc.names)), docs.map((doc) => JSON.stringify(doc.prefixes)), rows.map((row) => row.stamp)],
      );
      total += updated.length;
      // nothing matched its stamp: every row of the batch changed meanwhile (or a stamp does not round-trip); the next run retries
      if (updated.length === 0 || rows.length < INDEX_BATCH) return total;
    }
  }

  private where(filter: SearchCandidateFilter) {
    const query = this.places.filterQuery({ anyCategory: filter.anyCategory ? [...filter.anyCategory] : undefined, openNow: filter.openNow, sort: 'relevance', offset: 0, limit: 0 });
    const where = query.where;
    const text: string[] = [];
    for (const word of filter.words) {
      const alternatives: string[] = [];
      if ([...word.token].length < 3) alternatives.push(`p.search_prefixes @> array[$${query.add(word.nameStart ? `^${word.token}` : word.token)}::text]`);
      else alternatives.push(`p.search_doc like $${query.add(`% ${likeLiteral(word.token)}%`)}`);
      if (!filter.typeahead) {
        if ([...word.token].length >= 4) alternatives.push(`p.search_doc like $${query.add(`%${likeLiteral(word.token)}%`)}`);
        for (const key of word.keys) alternatives.push(`p.search_doc like $${query.add(`% ~${likeLiteral(key)} %`)}`);
      }
      if (word.categories.length) alternatives.push(`p.categories && $${query.add(word.categories)}::text[]`);
      text.push(`(${alternatives.join(' or ')})`);
    }
    const meaning: string[] = [];
    if (filter.meaning?.categories.length) meaning.push(`p.categories && $${query.add(filter.meaning.categories)}::text[]`);
    if (filter.meaning?.amenities.length) meaning.push(`p.amenities && $${query.add(filter.meaning.amenities)}::text[]`);
    const matches = [text.length ? `(${text.join(' and ')})` : '', ...meaning].filter(Boolean);
    if (matches.length) where.push(`(${matches.join(' or ')})`);
    if (filter.priceLevels?.length) where.push(`p.price_level = any($${query.add(filter.priceLevels)}::int[])`);
    if (filter.origin && filter.radiusKm !== undefined) {
      const box = boxAround(filter.origin.lat, filter.origin.lng, filter.radiusKm);
      if (box) where.push(`point(p.lng, p.lat) <@ box(point($${query.add(box.west)}, $${query.add(box.south)}), point($${query.add(box.east)}, $${query.add(box.north)}))`);
      where.push(`${distanceSql(query.add(filter.origin.lat), query.add(filter.origin.lng))} <= $${query.add(filter.radiusKm)}`);
    }
    return query;
  }

  /**
   * At most `limit` candidates in the filter's order, and how many match in all (counted up to `countCap`).
   *
   * Two plans (docs/places.md "Query plans"): a text query matches few places, so its matches are read
   * through the GIN indexes (a materialised CTE: the planner must not walk an order index and test every
   * row against the words instead) and sorted; a query without words (browse, categories, meaning)
   * matches many, so the store walks an index in the wanted order (GiST nearest-first with an origin,
   * the prominence btree without) and stops after `limit` rows.
   *
   * The sparse read is bounded: it reads at most `countCap + 1` matches (in the bitmap's order), which is
   * all of them whenever `total` is exact. When more match (`totalCapped`), the candidates are the best of
   * that pool, of up to `limit` exact-name matches (GIN over `search_names`) and, for the
   * distance and prominence orders, of the best `window` matches in that order, read by walking the order
   * index: at least one row in catalogue / (countCap + 1) matches then, so the walk stops early.
   */
  async candidates(filter: SearchCandidateFilter, countCap: number): Promise<{ candidates: SearchCandidate[]; total: number; totalCapped: boolean }> {
    const query = this.where(filter);
    const clause = query.where.length ? `where ${query.where.join(' and ')}` : '';
    const filterParams = [...query.params];
    let order: string;
    if (filter.order === 'distance' && filter.origin) {
      // the distance operator alone, so the GiST index of 013 can answer nearest-first (ties: the service orders by haversine, then slug)
      order = `point(p.lng, p.lat) <-> point($${query.add(filter.origin.lng)}, $${query.add(filter.origin.lat)})`;
    } else order = ORDERS[filter.order === 'distance' ? 'prominence' : filter.order];
    const orderParams = [...query.params];
    const walkable = order === ORDERS.prominence || (filter.order === 'distance' && filter.origin !== undefined);
    const limit = query.add(filter.limit);
    let rows: CandidateRow[];
    let total: number;
    if (filter.plan === 'sparse') {
      const pool = countCap + 1;
      const poolParam = query.add(pool);
      // a sparse read sorts its matches anyway: exact names first keeps them in the candidates when matches outnumber them
      const exactParam = filter.exactName ? query.add(filter.exactName) : undefined;
      const exact = exactParam ? `p.search_names @> array[$${exactParam}::text]` : 'false';
      // Matches are read through the GIN bitmaps into a narrow materialised CTE (id and sort keys), at most
      // `pool` of them, plus up to `limit` exact-name matches; the best `limit` sorted out of them, and only those rows
      // read in full. enable_seqscan off: the planner's estimates for LIKE and array tests are coarse, and a
      // sparse query must never scan the catalogue.
      // slugs compared bytewise: any fixed order breaks ties here (the service ranks again), and C is the cheapest
      const sorted = `p.exact desc, ${order.replace('p.slug', 'p.slug collate "C"')}`;
      const keys = `p.id, ${exact} as exact, p.popularity, p.review_count, p.rating, p.slug, p.lat, p.lng`;
      const exactPool = exactParam
        ? `, e as materialized (select ${keys} from places p ${clause ? `${clause} and` : 'where'} p.search_names @> array[$${exactParam}::text] limit $${limit})`
        : '';
      const found = await this.sql.transaction(async (tx) => {
        await tx.query('set local enable_seqscan = off');
        const poolStatement = `with m as materialized (select ${keys} from places p ${clause} limit $${poolParam})${exactPool},
           top as (select p.* from (select * from m${exactParam ? ' union select * from e' : ''}) as p order by ${sorted} limit $${limit})
           select ${CANDIDATE_COLUMNS.replace(/\bp\./g, 'q.')}, (select count(*) from m) as total
           from top as p join places q on q.id = p.id order by ${sorted}`;
        const pooled = await this.jsonRows<CandidateRow & { total: number | string }>(tx, poolStatement, query.params);
        const matched = pooled[0] ? Number(pooled[0].total) : 0;
        if (matched <= countCap) return { rows: pooled as CandidateRow[], matched };
        if (!walkable) {
          // the rating and popularity orders have no index to walk, and the pool is the first matches the bitmap
          // gave, not the best rated: sort every match, as before the bound (LIMIT NULL is no limit)
          const everyMatch = [...query.params];
          everyMatch[poolParam - 1] = null;
          return { rows: (await this.jsonRows<CandidateRow>(tx, poolStatement, everyMatch)) as CandidateRow[], matched };
        }
        // more match than the pool holds: the best `window` in the filter's order too, walking the order index
        // (GiST nearest-first, or the prominence btree; bitmaps off: a bitmap read would fetch every match again)
        await tx.query('set local enable_bitmapscan = off');
        const walked = await this.jsonRows<CandidateRow>(
          tx,
          `select ${CANDIDATE_COLUMNS} from places p ${clause} order by ${order} limit $${orderParams.length + 1}`,
          [...orderParams, Math.min(filter.window ?? filter.limit, filter.limit)],
        );
        return { rows: bestOf([...pooled, ...walked], filter), matched };
      });
      rows = found.rows;
      total = found.matched;
    } else {
      const [found, counted] = await Promise.all([
        this.jsonRows<CandidateRow>(this.sql, `select ${CANDIDATE_COLUMNS} from places p ${clause} order by ${order} limit $${limit}`, query.params),
        this.countOf(clause, filterParams, countCap),
      ]);
      rows = found;
      total = counted;
    }
    return {
      candidates: rows.map(toCandidate),
      total: Math.min(total, countCap),
      totalCapped: total > countCap,
    };
  }

  /**
   * Rows as one JSON text (json_agg): PGlite decodes every field of every row in JavaScript, which for a
   * few hundred candidates costs more than the query; the service orders them again, so the aggregate's
   * order does not matter. The same SQL runs on Postgres.
   */
  private async jsonRows<T>(sql: SqlExecutor, select: string, params: readonly unknown[]): Promise<T[]> {
    const rows = await sql.query<{ page: string | null }>(`select json_agg(c)::text as page from (${select}) as c`, params);
    return rows[0]?.page ? (JSON.parse(rows[0].page) as T[]) : [];
  }

  private async countOf(clause: string, params: readonly unknown[], cap: number): Promise<number> {
    const rows = await this.sql.query<{ total: number | string }>(`select count(*) as total from (select 1 from places p ${clause} limit ${cap + 1}) as matches`, params);
    return Number(rows[0]!.total);
  }

  /**
   * The places written by transactions the snapshot `since` did not see (those that began after it, and those
   * running then; every place without one), each with the transaction that last wrote it, and the snapshot
   * they were read in: passed as the next `since`, no committed write is missed or read twice. Why a snapshot
   * and not a counter or a time: a write that commits late may carry an older number than one already read,
   * and a long transaction elsewhere must not send every read back to where it began.
   */
  async indexChanges(since: IndexSnapshot | undefined): Promise<{ changes: { id: string; xid: string }[]; snapshot: IndexSnapshot }> {
    const rows = await this.sql.query<{ changes: string | null; snapshot: string }>(
      `select (select json_agg(json_build_array(p.id, p.search_xid::text))::text from places p
           where p.search_xid >= $1::xid8 or p.search_xid = any($2::xid8[])) as changes,
         pg_current_snapshot()::text as snapshot`,
      [since?.xmax ?? '0', since?.running ?? []],
      // before every search: one round trip, not two
      { prepared: true },
    );
    const changes = rows[0]!.changes ? (JSON.parse(rows[0]!.changes) as [string, string][]) : [];
    // xmin:xmax:running,running (pg_snapshot's text form)
    const [, xmax, running] = rows[0]!.snapshot.split(':');
    return { changes: changes.map(([id, xid]) => ({ id, xid })), snapshot: { xmax: xmax!, running: running ? running.split(',') : [] } };
  }

  /** Places as the in-memory index holds them, with the transaction that last wrote each (INDEX_PAGE a statement). */
  async indexRecords(ids: readonly string[]): Promise<(SearchIndexRecord & { xid: string })[]> {
    const records: (SearchIndexRecord & { xid: string })[] = [];
    for (let start = 0; start < ids.length; start += INDEX_PAGE) {
      const rows = await this.jsonRows<SearchIndexRow & { xid: string }>(
        this.sql,
        `select ${CANDIDATE_COLUMNS}, p.search_prefixes, p.time_zone, p.hours_week_stable, p.search_xid::text as xid,
           coalesce((select json_agg(json_build_array(i.start_minute, i.end_minute)) from place_open_intervals i where i.place_id = p.id), '[]') as intervals
         from places p where p.id = any($1::uuid[])`,
        [ids.slice(start, start + INDEX_PAGE)],
      );
      for (const row of rows) {
        records.push(withFields(toCandidate(row), { prefixes: row.search_prefixes ?? [], timeZone: row.time_zone, hoursWeekStable: row.hours_week_stable, intervals: row.intervals, xid: row.xid }));
      }
    }
    return records;
  }

  /** Places per category (the service's estimate of how many a category or meaning filter keeps). */
  async statistics(): Promise<{ places: number; priced: number; categories: Map<string, number> }> {
    const [rows, totals] = await Promise.all([
      this.sql.query<{ category: string; n: number | string }>('select c.category, count(*) as n from places p, unnest(p.categories) as c(category) group by c.category'),
      this.sql.query<{ places: number | string; priced: number | string }>('select count(*) as places, count(price_level) as priced from places'),
    ]);
    return { places: Number(totals[0]!.places), priced: Number(totals[0]!.priced), categories: new Map(rows.map((row) => [row.category, Number(row.n)])) };
  }

  /** A click on a place: today's counter and its popularity. False when no place has the slug. */
  async recordClick(slug: string, day: string): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const rows = await tx.query<{ id: string }>('update places set popularity = popularity + 1 where slug = $1 returning id', [slug]);
      const id = rows[0]?.id;
      if (!id) return false;
      await tx.query(
        `insert into place_click_days (place_id, day, clicks) values ($1, $2::date, 1)
         on conflict (place_id, day) do update set clicks = place_click_days.clicks + 1`,
        [id, day],
      );
      return true;
    });
  }

  /** A search: today's counter of the normalised query (and of searches without results). */
  async recordSearch(query: string, day: string, withoutResults: boolean): Promise<void> {
    await this.sql.query(
      `insert into search_query_days (day, query, searches, without_results) values ($1::date, $2, 1, $3)
       on conflict (day, query) do update set searches = search_query_days.searches + 1, without_results = search_query_days.without_results + excluded.without_results`,
      [day, query, withoutResults ? 1 : 0],
    );
  }

  /**
   * Drops counters of days before `firstKeptDay` and sets every place's popularity to its clicks of the
   * days kept. Returns the counter rows removed.
   */
  async prune(firstKeptDay: string): Promise<number> {
    return this.sql.transaction(async (tx) => {
      const clicks = await tx.query<{ n: number | string }>('with gone as (delete from place_click_days where day < $1::date returning 1) select count(*) as n from gone', [firstKeptDay]);
      const searches = await tx.query<{ n: number | string }>('with gone as (delete from search_query_days where day < $1::date returning 1) select count(*) as n from gone', [firstKeptDay]);
      await tx.query(
        `update places p set popularity = coalesce(s.clicks, 0)
         from places q left join (select place_id, sum(clicks) as clicks from place_click_days group by place_id) as s on s.place_id = q.id
         where p.id = q.id and (q.popularity > 0 or s.clicks is not null) and p.popularity is distinct from coalesce(s.clicks, 0)`,
      );
      return Number(clicks[0]!.n) + Number(searches[0]!.n);
    });
  }
}
