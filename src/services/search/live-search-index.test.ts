/**
 * The in-memory candidate index against the SQL store it stands in for, on the real default data (Nasr City
 * places): for generated queries (words of the places' own names and skeletons, prefixes, categories, meanings,
 * prices, open-now instants, origins and radii, every order) both give the same matches, the same count and —
 * when every match is read — the same order. And the index sees writes made after it loaded (operator fields,
 * reviews' aggregates, click counters, new places) before the next search. PGlite, or Postgres with DATABASE_URL.
 */
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routingPack } from '../../../test/support/routing-packs.js';
import { PlaceSearchRepository, type SearchCandidateFilter } from '../../store/pg/place-search.js';
import { PlaceRepository } from '../../store/pg/places.js';
import { createPgliteClient } from '../../store/sql/pglite-client.js';
import { createPostgresClient } from '../../store/sql/postgres-client.js';
import { applyMigrations } from '../../store/sql/migrate.js';
import { migrations } from '../../store/sql/migrations/index.js';
import type { SqlClient } from '../../store/sql/sql-client.js';
import { seedPlaces } from '../places/place-seeder.js';
import { LiveSearchIndex } from './live-search-index.js';
import { analyzeQuery, searchDocumentOf } from './search-text.js';

const databaseUrl = process.env.DATABASE_URL;
const schema = databaseUrl ? `live_index_test_${process.pid}_${Date.now().toString(36)}` : 'live_index_test';
let sql: SqlClient;
let places: PlaceRepository;
let store: PlaceSearchRepository;
let index: LiveSearchIndex;
let words: string[] = [];
let categories: string[] = [];
let amenities: string[] = [];
let ids: string[] = [];
let timeZone = 'Africa/Cairo';
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  sql = databaseUrl ? createPostgresClient({ url: databaseUrl, schema }) : await createPgliteClient({ dataDir: 'memory://', schema });
  await applyMigrations(sql, schema, migrations);
  places = new PlaceRepository(sql);
  store = new PlaceSearchRepository(sql, places);
  await seedPlaces({ pack: await routingPack('nasrCityPbf'), repository: places, countryAt: () => 'eg', logger });
  await store.reindex((place) => searchDocumentOf(place));
  index = new LiveSearchIndex(store, logger);
  await index.catchUp();
  const rows = await sql.query<{ id: string; doc: string | null; categories: string[]; amenities: string[]; time_zone: string }>(
    'select id, search_doc as doc, categories, amenities, time_zone from places',
  );
  words = [...new Set(rows.flatMap((row) => (row.doc ?? '').split(' ').filter(Boolean)))].sort();
  categories = [...new Set(rows.flatMap((row) => row.categories))].sort();
  amenities = [...new Set(rows.flatMap((row) => row.amenities))].sort();
  ids = rows.map((row) => row.id).sort();
  timeZone = rows[0]!.time_zone;
}, 120_000);
afterAll(async () => {
  if (databaseUrl) await sql.exec(`drop schema if exists "${schema}" cascade`);
  await sql.close();
});

/** A query word from the data: a whole word, a word's start or inside, or a skeleton key; typed or as a category. */
const wordArbitrary = () =>
  fc.record({ word: fc.constantFrom(...words), cut: fc.nat(), from: fc.nat(), asCategory: fc.boolean(), nameStart: fc.boolean() }).map(({ word, cut, from, asCategory, nameStart }) => {
    const letters = [...word.replace(/^~/, '')];
    const start = from % Math.max(1, letters.length - 1);
    const token = letters.slice(start, start + 1 + (cut % letters.length)).join('') || letters[0]!;
    const keys = word.startsWith('~') ? [word.slice(1)] : [];
    return { token, keys, categories: asCategory ? [categories[cut % categories.length]!] : [], nameStart: nameStart && [...token].length < 3 };
  });

const filterArbitrary = () =>
  fc
  .record({
    words: fc.array(wordArbitrary(), { maxLength: 2 }),
    typeahead: fc.boolean(),
    meaning: fc.option(fc.record({ categories: fc.subarray(categories, { maxLength: 2 }), amenities: fc.subarray(amenities, { maxLength: 1 }) }), { nil: undefined }),
    anyCategory: fc.option(fc.subarray(categories, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    priceLevels: fc.option(fc.subarray([1, 2, 3, 4], { minLength: 1 }), { nil: undefined }),
    openNow: fc.option(fc.record({ minute: fc.integer({ min: 0, max: 7 * 1440 - 1 }), irregular: fc.subarray(ids.length ? ids.slice(0, 5) : ['x'], { maxLength: 2 }) }), { nil: undefined }),
    origin: fc.option(fc.record({ lat: fc.double({ min: 30.04, max: 30.09, noNaN: true }), lng: fc.double({ min: 31.3, max: 31.36, noNaN: true }) }), { nil: undefined }),
    radiusKm: fc.option(fc.double({ min: 0.2, max: 4, noNaN: true }), { nil: undefined }),
    order: fc.constantFrom('distance' as const, 'prominence' as const, 'rating' as const, 'popularity' as const),
    exact: fc.boolean(),
  })
  .map((value): SearchCandidateFilter => ({
    words: value.words,
    typeahead: value.typeahead,
    meaning: value.meaning,
    anyCategory: value.anyCategory,
    priceLevels: value.priceLevels,
    openNow: value.openNow ? { zones: [{ timeZone, minuteOfWeek: value.openNow.minute }], openIrregularIds: value.openNow.irregular } : undefined,
    origin: value.origin,
    radiusKm: value.origin ? value.radiusKm : undefined,
    order: value.order,
    exactName: value.exact && value.words.length ? value.words.map((word) => word.token).join(' ') : undefined,
    plan: 'sparse',
    limit: 1_000,
  }));

describe('the in-memory candidate index', () => {
  it('loads every place', async () => {
    expect(index.size).toBe(await places.count());
  });

  it('matches, counts and orders as the SQL store does', async () => {
    await fc.assert(
      fc.asyncProperty(filterArbitrary(), async (filter) => {
        const [fromSql, fromMemory] = [await store.candidates(filter, 2_000), await index.candidates(filter, 2_000)];
        expect(fromMemory.total).toBe(fromSql.total);
        expect(fromMemory.totalCapped).toBe(fromSql.totalCapped);
        // the SQL order is exact when it reads every match (a sparse read below its pool); distance ties aside
        const slugs = (answer: typeof fromSql) => answer.candidates.map((candidate) => candidate.slug);
        if (filter.order === 'distance' && filter.origin) expect(slugs(fromMemory).sort()).toEqual(slugs(fromSql).sort());
        else expect(slugs(fromMemory)).toEqual(slugs(fromSql));
      }),
      { numRuns: 150, seed: 2411 },
    );
  }, 120_000);

  it('counts up to the cap and keeps the best `limit` in order', async () => {
    const all = await index.candidates({ words: [], typeahead: false, order: 'prominence', plan: 'dense', limit: 10 }, 20);
    expect(all).toMatchObject({ total: 20, totalCapped: true });
    expect(all.candidates.map((candidate) => candidate.slug)).toEqual((await store.candidates({ words: [], typeahead: false, order: 'prominence', plan: 'dense', limit: 10 }, 20)).candidates.map((candidate) => candidate.slug));
  });

  it('sees writes committed after it loaded, before the next search', async () => {
    const word = (text: string) => analyzeQuery(text).tokens.map((token) => ({ token: token.token, keys: token.keys, categories: [] }));
    const priced = (): SearchCandidateFilter => ({ words: [], typeahead: false, priceLevels: [4], order: 'prominence', plan: 'sparse', limit: 50 });
    expect((await index.candidates(priced(), 1_000)).candidates.map((candidate) => candidate.slug)).not.toContain('starbucks');
    await places.setOperatorFields('starbucks', { priceLevel: 4 });
    expect((await index.candidates(priced(), 1_000)).candidates.map((candidate) => candidate.slug)).toContain('starbucks');
    // a counter written by SQL alone (no repository hook): the most popular place changes
    await sql.query("update places set popularity = popularity + 1000 where slug = 'starbucks'");
    const prominent = await index.candidates({ words: [], typeahead: false, order: 'prominence', plan: 'dense', limit: 1 }, 1);
    expect(prominent.candidates[0]!.slug).toBe('starbucks');
    // a new name, indexed: found by its new words
    await sql.query("update places set name_en = 'Zyzzyva Roastery', updated_at = clock_timestamp() where slug = 'starbucks'");
    await store.reindex((place) => searchDocumentOf(place));
    expect((await index.candidates({ words: word('zyzzyva'), typeahead: false, order: 'prominence', plan: 'sparse', limit: 5 }, 10)).candidates.map((candidate) => candidate.slug)).toEqual(['starbucks']);
  });
});
