/**
 * The search store on the real default data (Nasr City places seeded from the pack): indexing runs once
 * per change, the word, prefix, skeleton and category conditions select what the ranking expects, and
 * click counters feed popularity until they age out. PGlite, or Postgres when DATABASE_URL is set.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routingPack } from '../../../test/support/routing-packs.js';
import { seedPlaces } from '../../services/places/place-seeder.js';
import { analyzeQuery, searchDocumentOf } from '../../services/search/search-text.js';
import { createPgliteClient } from '../sql/pglite-client.js';
import { createPostgresClient } from '../sql/postgres-client.js';
import { applyMigrations } from '../sql/migrate.js';
import { migrations } from '../sql/migrations/index.js';
import type { SqlClient } from '../sql/sql-client.js';
import { PlaceSearchRepository, type SearchCandidateFilter } from './place-search.js';
import { PlaceRepository } from './places.js';

const databaseUrl = process.env.DATABASE_URL;
const schema = databaseUrl ? `place_search_test_${process.pid}_${Date.now().toString(36)}` : 'place_search_test';
let sql: SqlClient;
let places: PlaceRepository;
let search: PlaceSearchRepository;

beforeAll(async () => {
  sql = databaseUrl ? createPostgresClient({ url: databaseUrl, schema }) : await createPgliteClient({ dataDir: 'memory://', schema });
  await applyMigrations(sql, schema, migrations);
  places = new PlaceRepository(sql);
  search = new PlaceSearchRepository(sql, places);
  await seedPlaces({ pack: await routingPack('nasrCityPbf'), repository: places, countryAt: () => 'eg', logger: pino({ level: 'silent' }) });
}, 120_000);
afterAll(async () => {
  if (databaseUrl) await sql.exec(`drop schema if exists "${schema}" cascade`);
  await sql.close();
});

const build = (place: Parameters<typeof searchDocumentOf>[0]) => searchDocumentOf(place);
const filter = (text: string, extra: Partial<SearchCandidateFilter> = {}): SearchCandidateFilter => ({
  words: analyzeQuery(text).tokens.map((token) => ({ token: token.token, keys: token.keys, categories: [] })),
  typeahead: false,
  order: 'prominence',
  plan: 'sparse',
  limit: 50,
  ...extra,
});
const slugs = async (value: SearchCandidateFilter) => (await search.candidates(value, 1_000)).candidates.map((candidate) => candidate.slug).sort();

describe('indexing', () => {
  it('indexes every place once, and again only what changed', async () => {
    const total = await places.count();
    expect(await search.reindex(build)).toBe(total);
    expect(await search.reindex(build)).toBe(0);
    await places.setOperatorFields('starbucks', { sponsored: false });
    expect(await search.reindex(build)).toBe(1);
  });
});

describe('candidates', () => {
  it('finds names by whole words and word starts in both scripts', async () => {
    expect(await slugs(filter('starbucks'))).toEqual(['starbucks']);
    expect(await slugs(filter('ستاربكس'))).toEqual(['starbucks']);
    expect(await slugs(filter('ورد الشام'))).toEqual(['wardelsham', 'wrd-al-sham']);
    expect(await slugs(filter('tib', { typeahead: true }))).toEqual(['tiba-mall', 'tiba-mall-cinema', 'tibh-mol']);
  });

  it('answers one- and two-letter typeahead from the prefix array', async () => {
    const found = await slugs(filter('kf', { typeahead: true }));
    expect(found).toEqual(expect.arrayContaining(['kfc', 'kfc-chicken', 'kfc-500103161']));
    expect(found.every((slug) => slug.includes('kfc') || slug.includes('kentucky'))).toBe(true);
  });

  it('takes the category of a category word, a meaning, a price and a radius', async () => {
    const pharmacies = await slugs({ words: [{ token: 'pharmacy', keys: [], categories: ['pharmacy'] }], typeahead: false, order: 'prominence', plan: 'sparse', limit: 50 });
    expect(pharmacies).toEqual(expect.arrayContaining(['sandy-pharmacy', 'dawaa', 'africia']));
    const meaning = await search.candidates({ words: [{ token: 'hungry', keys: [], categories: [] }], typeahead: false, meaning: { categories: ['restaurant'], amenities: [] }, order: 'prominence', plan: 'dense', limit: 100 }, 1_000);
    expect(meaning.candidates.length).toBeGreaterThan(5);
    expect(meaning.candidates.every((candidate) => candidate.categories.includes('restaurant'))).toBe(true);
    await places.setOperatorFields('starbucks', { priceLevel: 3 });
    expect(await slugs({ words: [], typeahead: false, priceLevels: [3, 4], order: 'prominence', plan: 'sparse', limit: 50 })).toEqual(['starbucks']);
    const origin = { lat: 30.0667, lng: 31.334 };
    const near = await search.candidates({ words: [], typeahead: false, origin, radiusKm: 0.5, order: 'distance', plan: 'dense', limit: 400 }, 1_000);
    expect(near.total).toBeGreaterThan(0);
    expect(near.total).toBeLessThan(await places.count());
  });

  it('reads the same matches whether it walks an order index or reads them all (the two plans)', async () => {
    for (const value of [filter('kfc'), filter('k', { typeahead: true }), { ...filter(''), words: [], anyCategory: ['pharmacy', 'atm'] }]) {
      const sparse = await search.candidates({ ...value, plan: 'sparse', limit: 400 }, 1_000);
      const dense = await search.candidates({ ...value, plan: 'dense', limit: 400 }, 1_000);
      expect(sparse.total).toBe(dense.total);
      expect(sparse.candidates.map((candidate) => candidate.slug).sort()).toEqual(dense.candidates.map((candidate) => candidate.slug).sort());
    }
  });

  it('knows how many places each category has, and how many are priced', async () => {
    const stats = await search.statistics();
    expect(stats.places).toBe(await places.count());
    expect(stats.categories.get('pharmacy')).toBe((await search.candidates({ ...filter(''), words: [], anyCategory: ['pharmacy'], plan: 'sparse' }, 1_000)).total);
    expect(stats.priced).toBeGreaterThanOrEqual(1);
  });

  it('counts matches up to the cap', async () => {
    const all = await search.candidates({ words: [], typeahead: false, order: 'prominence', plan: 'dense', limit: 10 }, 20);
    expect(all).toMatchObject({ total: 20, totalCapped: true });
    expect(all.candidates).toHaveLength(10);
  });
});

describe('bounded reads (more matches than counted)', () => {
  const typed = (extra: Partial<SearchCandidateFilter> = {}) => filter('k', { typeahead: true, ...extra });

  it('counts up to the cap and says when more match', async () => {
    const all = await search.candidates(typed({ limit: 400 }), 1_000);
    expect(all.totalCapped).toBe(false);
    const n = all.total;
    expect(n).toBeGreaterThan(6);
    expect(all.candidates).toHaveLength(n);
    expect(await search.candidates(typed({ limit: 400 }), n)).toMatchObject({ total: n, totalCapped: false });
    const capped = await search.candidates(typed({ limit: 400 }), n - 1);
    expect(capped).toMatchObject({ total: n - 1, totalCapped: true });
    // every candidate of a capped read is a match
    const matches = new Set(all.candidates.map((candidate) => candidate.slug));
    expect(capped.candidates.every((candidate) => matches.has(candidate.slug))).toBe(true);
  });

  it('keeps the nearest match among the candidates, whichever matches the pool holds', async () => {
    const all = (await search.candidates(typed({ limit: 400 }), 1_000)).candidates;
    for (const place of all) {
      const origin = { lat: place.lat, lng: place.lng };
      const found = await search.candidates(typed({ origin, order: 'distance', limit: 3, window: 1 }), 1);
      expect(found).toMatchObject({ total: 1, totalCapped: true });
      expect(found.candidates.length).toBeLessThanOrEqual(3);
      const nearest = Math.min(...found.candidates.map((candidate) => Math.hypot(candidate.lat - place.lat, candidate.lng - place.lng)));
      expect(nearest, place.slug).toBe(0);
    }
  });

  it('keeps the most prominent match and the exact names among the candidates', async () => {
    const all = (await search.candidates(typed({ limit: 400 }), 1_000)).candidates;
    for (const place of all.slice(-4)) {
      await sql.query('update places set popularity = 50 where id = $1', [place.id]);
      try {
        const found = await search.candidates(typed({ limit: 2, window: 1 }), 1);
        expect(found.candidates[0]!.slug).toBe(place.slug);
      } finally {
        await sql.query('update places set popularity = 0 where id = $1', [place.id]);
      }
    }
    // places named exactly "kfc" come first even when every other match is more prominent
    const kfc = (await search.candidates(filter('kfc', { limit: 400 }), 1_000)).candidates;
    const named = kfc.filter((candidate) => candidate.names.includes('kfc')).map((candidate) => candidate.slug);
    expect(named.length).toBeGreaterThan(0);
    expect(kfc.length).toBeGreaterThan(named.length + 1);
    const others = kfc.filter((candidate) => !named.includes(candidate.slug)).map((candidate) => candidate.id);
    await sql.query('update places set popularity = 50 where id = any($1::uuid[])', [others]);
    try {
      const found = await search.candidates(filter('kfc', { exactName: 'kfc', limit: named.length + 1, window: 1 }), 1);
      expect(found.candidates.slice(0, named.length).map((candidate) => candidate.slug).sort()).toEqual([...named].sort());
    } finally {
      await sql.query('update places set popularity = 0 where id = any($1::uuid[])', [others]);
    }
  });

  it('puts the best rated match first when more match than the pool holds (no index to walk for rating)', async () => {
    const all = (await search.candidates(typed({ limit: 400 }), 1_000)).candidates;
    const before = new Map(all.map((candidate) => [candidate.id, candidate]));
    for (const place of [all[0]!, all[all.length - 1]!]) {
      await sql.query('update places set rating = 5, review_count = 1000000 where id = $1', [place.id]);
      try {
        const found = await search.candidates(typed({ order: 'rating', limit: 2, window: 1 }), 1);
        expect(found).toMatchObject({ total: 1, totalCapped: true });
        expect(found.candidates[0]!.slug, place.slug).toBe(place.slug);
      } finally {
        await sql.query('update places set rating = $2, review_count = $3 where id = $1', [place.id, before.get(place.id)!.rating, before.get(place.id)!.reviewCount]);
      }
    }
  });
});

describe('events', () => {
  it('clicks raise popularity; pruning drops old days and recomputes it', async () => {
    expect(await search.recordClick('tiba-mall', '2026-01-01')).toBe(true);
    expect(await search.recordClick('tiba-mall', '2026-03-01')).toBe(true);
    expect(await search.recordClick('tiba-mall', '2026-03-01')).toBe(true);
    expect(await search.recordClick('no-such-place', '2026-03-01')).toBe(false);
    await search.recordSearch('kfc', '2026-01-01', false);
    expect((await places.findBySlug('tiba-mall'))!.popularity).toBe(3);
    expect(await search.prune('2026-02-01')).toBe(2);
    expect((await places.findBySlug('tiba-mall'))!.popularity).toBe(2);
    const stored = await sql.query<{ n: number | string }>('select count(*) as n from search_query_days');
    expect(Number(stored[0]!.n)).toBe(0);
  });
});
