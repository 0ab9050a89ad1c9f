/**
 * The place repository on the real default data (Nasr City): seeding is idempotent and keyed by OSM
 * element, slugs stay once issued, filters and `near` paging behave as GET /places needs. Runs on
 * PGlite, or on Postgres when DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteClient } from '../sql/pglite-client.js';
import { createPostgresClient } from '../sql/postgres-client.js';
import { applyMigrations } from '../sql/migrate.js';
import { migrations } from '../sql/migrations/index.js';
import type { SqlClient } from '../sql/sql-client.js';
import { PlaceRepository } from './places.js';
import { seedPlaces, seedsOf } from '../../services/places/place-seeder.js';
import type { MapPack } from '../../datapack/map-pack.js';
import { pino } from 'pino';
import { routingPack } from '../../../test/support/routing-packs.js';

const databaseUrl = process.env.DATABASE_URL;
const schema = databaseUrl ? `places_test_${process.pid}_${Date.now().toString(36)}` : 'places_test';
let sql: SqlClient;
let pack: MapPack;
let repository: PlaceRepository;
const logger = pino({ level: 'silent' });
const egypt = () => 'eg';

beforeAll(async () => {
  sql = databaseUrl ? createPostgresClient({ url: databaseUrl, schema }) : await createPgliteClient({ dataDir: 'memory://', schema });
  await applyMigrations(sql, schema, migrations);
  pack = await routingPack('nasrCityPbf');
  repository = new PlaceRepository(sql);
}, 120_000);
afterAll(async () => {
  if (databaseUrl) await sql.exec(`drop schema if exists "${schema}" cascade`);
  await sql.close();
});

describe('seeding', () => {
  it('seeds every named POI once, and a second seed updates without duplicating or renaming slugs', async () => {
    const seeds = seedsOf(pack, egypt);
    expect(seeds.length).toBeGreaterThan(150);
    const first = await seedPlaces({ pack, repository, countryAt: egypt, logger });
    expect(first).toMatchObject({ seeded: true, inserted: seeds.length, updated: 0 });
    const tabarak = await repository.findByOsm('way', 31820663);
    expect(tabarak).toMatchObject({ nameAr: 'مستشفى تبارك للولادة والأطفال', canonicalCategory: 'hospital', countryCode: 'EG', timeZone: 'Africa/Cairo' });
    // unchanged pack: nothing to do; forced: every place updated, none inserted, slugs kept
    expect((await seedPlaces({ pack, repository, countryAt: egypt, logger })).seeded).toBe(false);
    const again = await seedPlaces({ pack, repository, countryAt: egypt, logger, force: true });
    expect(again).toMatchObject({ inserted: 0, updated: seeds.length });
    expect(await repository.count()).toBe(seeds.length);
    expect((await repository.findByOsm('way', 31820663))!.slug).toBe(tabarak!.slug);
  });

  it('issues unique slugs from the names', async () => {
    const page = await repository.list({ sort: 'name', offset: 0, limit: 100 });
    const all = [...page.items, ...(await repository.list({ sort: 'name', offset: 100, limit: 100 })).items, ...(await repository.list({ sort: 'name', offset: 200, limit: 100 })).items];
    expect(new Set(all.map((place) => place.slug)).size).toBe(all.length);
    expect(all.every((place) => /^[a-z0-9-]+$/.test(place.slug))).toBe(true);
    expect(await repository.findBySlug('tabarak-for-children')).toMatchObject({ osmId: 31820663 });
  });
});

describe('list', () => {
  it('matches a case-insensitive substring of either name, Arabic or English', async () => {
    const arabic = await repository.list({ q: 'تبارك', sort: 'relevance', offset: 0, limit: 50 });
    expect(arabic.items.map((place) => place.osmId)).toContain(31820663);
    const english = await repository.list({ q: 'TABARAK', sort: 'relevance', offset: 0, limit: 50 });
    expect(english.items.map((place) => place.osmId)).toContain(31820663);
    const wildcard = await repository.list({ q: '%', sort: 'relevance', offset: 0, limit: 50 });
    expect(wildcard.total).toBe(0);
  });

  it('pages nearest first with stable order for equal distances, and counts the radius', async () => {
    const near = { lat: 30.0667, lng: 31.334 };
    const whole = await repository.list({ near, sort: 'relevance', offset: 0, limit: 100 });
    const paged = [...(await repository.list({ near, sort: 'relevance', offset: 0, limit: 7 })).items, ...(await repository.list({ near, sort: 'relevance', offset: 7, limit: 7 })).items];
    expect(paged.map((place) => place.slug)).toEqual(whole.items.slice(0, 14).map((place) => place.slug));
    const distances = whole.items.map((place) => place.distanceKm!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(whole.total).toBe(await repository.count());
    const within = await repository.list({ near, radiusKm: 1, sort: 'relevance', offset: 0, limit: 100 });
    expect(within.items.every((place) => place.distanceKm! <= 1)).toBe(true);
    expect(within.total).toBe(within.items.length);
    expect(within.total).toBe(whole.items.filter((place) => place.distanceKm! <= 1).length);
  });

  it('orders places at exactly the same distance by slug, the same on every page', async () => {
    // six copies of a real place at its very point: equal distances from anywhere
    const tabarak = (await repository.findByOsm('way', 31820663))!;
    await sql.exec(`insert into places (id, osm_type, osm_id, slug, name_en, name_ar, categories, canonical_category, lat, lng, time_zone)
      select gen_random_uuid(), 'node', 9000000000 + g, 'copy-' || (7 - g), name_en, name_ar, categories, canonical_category, lat, lng, time_zone
      from places, generate_series(1, 6) g where osm_type = 'way' and osm_id = 31820663`);
    const near = { lat: tabarak.lat + 0.0002, lng: tabarak.lng - 0.0001 };
    const whole = (await repository.list({ near, sort: 'relevance', offset: 0, limit: 20 })).items;
    const paged = [];
    for (let offset = 0; offset < 18; offset += 3) paged.push(...(await repository.list({ near, sort: 'relevance', offset, limit: 3 })).items);
    expect(paged.map((place) => place.slug)).toEqual(whole.slice(0, 18).map((place) => place.slug));
    const tied = whole.filter((place) => place.lat === tabarak.lat && place.lng === tabarak.lng).map((place) => place.slug);
    expect(tied).toEqual(['copy-1', 'copy-2', 'copy-3', 'copy-4', 'copy-5', 'copy-6', 'tabarak-for-children']);
    await sql.exec(`delete from places where slug like 'copy-%'`);
  });
});
