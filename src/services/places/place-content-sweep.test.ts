/**
 * Files no record names are swept (photos an account deletion removed by cascade, logos no place shows),
 * on PGlite with the real migrations, a directory photo store and a real place and user.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryPhotoStore } from '../../store/files/photo-store.js';
import { PlacePhotoRepository } from '../../store/pg/place-photos.js';
import { PlaceQuestionRepository } from '../../store/pg/place-questions.js';
import { PlaceReviewRepository } from '../../store/pg/place-reviews.js';
import { PlaceRepository } from '../../store/pg/places.js';
import { createPgliteClient } from '../../store/sql/pglite-client.js';
import { applyMigrations } from '../../store/sql/migrate.js';
import { migrations } from '../../store/sql/migrations/index.js';
import type { SqlClient } from '../../store/sql/sql-client.js';
import { PlaceContentService } from './place-content-service.js';

let sql: SqlClient;
let directory: string;
let store: DirectoryPhotoStore;
let service: PlaceContentService;
let now = Date.now();
const PLACE = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';

beforeAll(async () => {
  sql = await createPgliteClient({ dataDir: 'memory://', schema: 'sweep_test' });
  await applyMigrations(sql, 'sweep_test', migrations);
  await sql.query(`insert into users (id, email, name) values ($1, 'sweep@example.jo', 'Sweep')`, [USER]);
  await sql.query(
    `insert into places (id, osm_type, osm_id, slug, name_en, categories, canonical_category, lat, lng, time_zone)
     values ($1, 'node', 1, 'sweep-cafe', 'Sweep Cafe', '{cafe}', 'cafe', 30.06, 31.33, 'Africa/Cairo')`,
    [PLACE],
  );
  directory = mkdtempSync(join(tmpdir(), 'photo-sweep-'));
  store = new DirectoryPhotoStore(directory);
  const places = new PlaceRepository(sql);
  service = new PlaceContentService({
    reviews: new PlaceReviewRepository(sql),
    questions: new PlaceQuestionRepository(sql),
    photos: new PlacePhotoRepository(sql),
    places,
    store,
    findPlace: (slug) => places.findBySlug(slug),
    siteUrl: 'http://localhost:8080',
    now: () => now,
  });
});

afterAll(async () => {
  await sql?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('sweepOrphanFiles', () => {
  it('deletes files no record names once they are older than the grace period', async () => {
    const kept = 'place-photos/33333333-3333-4333-8333-333333333333.jpg';
    const orphan = 'place-photos/44444444-4444-4444-8444-444444444444.jpg';
    const unusedLogo = 'place-logos/55555555-5555-4555-8555-555555555555.png';
    const shownLogo = 'place-logos/66666666-6666-4666-8666-666666666666.png';
    for (const key of [kept, orphan, unusedLogo, shownLogo]) await store.put(key, Buffer.from('bytes'));
    await new PlacePhotoRepository(sql).create({ id: '33333333-3333-4333-8333-333333333333', placeId: PLACE, userId: USER, storageKey: kept, contentType: 'image/jpeg', width: 10, height: 10, bytes: 5, caption: null });
    await sql.query(`update places set logo_path = '/uploads/place-logos/66666666-6666-4666-8666-666666666666.png' where id = $1`, [PLACE]);
    // younger than the grace period: an upload may be between its file and its row
    expect(await service.sweepOrphanFiles()).toBe(0);
    now += 2 * 60 * 60_000;
    expect(await service.sweepOrphanFiles()).toBe(2);
    expect((await store.list('place-photos')).map((entry) => entry.key)).toEqual([kept]);
    expect((await store.list('place-logos')).map((entry) => entry.key)).toEqual([shownLogo]);
    // the account goes, its photo row by cascade; the next sweep takes the file
    await sql.query('delete from users where id = $1', [USER]);
    expect(await service.sweepOrphanFiles()).toBe(1);
    expect(await store.get(kept)).toBeNull();
  });

  it('refuses keys of any other shape', async () => {
    await expect(store.put('../etc/passwd', Buffer.from('x'))).rejects.toThrow(/Refused/);
    await expect(store.get('place-photos/../../x.jpg')).rejects.toThrow(/Refused/);
  });
});
