/**
 * The place catalogue (spec part 2 §2.4–2.6, §3, §4.4), black-box against a started server on the
 * default data (Nasr City, seeded from the map data pack at start): every /places parameter, detail,
 * hours, thumb, facets, categories, the operator fields, the holiday annotation on a holiday date,
 * openNow at a fixed instant (`at`), paging stability under equal distances and bad input.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from './support/admin-cli.js';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { sharedDeployment, usingRealServices } from './support/services.js';

let server: ServerProcess;
let api: ApiClient;
let admin: Awaited<ReturnType<typeof registerUser>>;
let dataDir: string | undefined;
/** Every place of the catalogue, by slug order of the name sort. */
let all: any[];

/** Monday 6 April 2026 10:00 in Cairo (UTC+2): an ordinary day. */
const ORDINARY = '2026-04-06T10:00:00%2B02:00';
/** Monday 13 April 2026 10:00 in Cairo: Sham El Nessim, a public holiday that affects business hours. */
const HOLIDAY = '2026-04-13T10:00:00%2B02:00';

beforeAll(async () => {
  if (usingRealServices) {
    const deployment = sharedDeployment('places');
    server = await startServerProcess(deployment);
    api = apiClient(server.baseUrl);
    admin = await registerUser(api, 'place-operator');
    expect((await runAdminCli(['grant-role', admin.email, 'admin'], { DATABASE_URL: deployment.DATABASE_URL!, DATABASE_SCHEMA: deployment.DATABASE_SCHEMA! })).code).toBe(0);
  } else {
    // the embedded database is one process's: register, stop, grant with the CLI, start again on the same directory
    dataDir = mkdtempSync(join(tmpdir(), 'places-'));
    const first = await startServerProcess({ DATA_DIR: dataDir });
    admin = await registerUser(apiClient(first.baseUrl), 'place-operator');
    await first.stop();
    const granted = await runAdminCli(['grant-role', admin.email, 'admin'], { DATA_DIR: dataDir });
    expect(granted.code, granted.stderr).toBe(0);
    server = await startServerProcess({ DATA_DIR: dataDir });
    api = apiClient(server.baseUrl);
  }
  all = [];
  for (let page = 1; ; page++) {
    const response = await api.get(`/places?sort=name&limit=100&page=${page}`);
    all.push(...response.body.items);
    if (all.length >= response.body.total) break;
  }
}, 180_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const bySlug = (slug: string) => all.find((place) => place.slug === slug);
const withHours = (raw: string) => all.find((place) => place.openingHours?.raw === raw);

describe('GET /places', () => {
  it('lists the seeded catalogue in the default order, 50 a page, with the filters echoed', async () => {
    const response = await api.get('/places');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 1, limit: 50, sort: 'relevance', category: null, amenities: [], openNow: false, minRating: null, near: null, radiusKm: null, attribution: '© OpenStreetMap contributors, ODbL' });
    expect(response.body.total).toBeGreaterThanOrEqual(190);
    expect(response.body.items).toHaveLength(50);
    const tabarak = all.find((place) => place.osm.type === 'way' && place.osm.id === 31820663);
    expect(tabarak).toMatchObject({
      slug: 'tabarak-for-children',
      nameEn: 'Tabarak for Children',
      nameAr: 'مستشفى تبارك للولادة والأطفال',
      canonicalCategorySlug: 'hospital',
      center: 'POINT(31.3340724 30.0667208)',
      contact: { phone: null, website: null },
      sponsored: false,
      claimStatus: 'unclaimed',
      rating: 0,
      entrances: [],
    });
    expect(tabarak).not.toHaveProperty('distanceKm');
    expect(new Set(all.map((place) => place.slug)).size).toBe(all.length);
  });

  it('matches q as a case-insensitive substring of the Arabic or English name', async () => {
    const arabic = await api.get(`/places?q=${encodeURIComponent('صيدلية')}&limit=100`);
    expect(arabic.body.total).toBeGreaterThanOrEqual(3);
    for (const place of arabic.body.items) expect(`${place.nameAr} ${place.nameEn}`).toContain('صيدلية');
    const english = await api.get('/places?q=PHARMACY&limit=100');
    expect(english.body.total).toBeGreaterThanOrEqual(2);
    for (const place of english.body.items) expect(`${place.nameEn}|${place.nameAr}`.toLowerCase()).toContain('pharmacy');
    expect((await api.get(`/places?q=${encodeURIComponent('تبارك')}`)).body.items.map((place: any) => place.slug)).toEqual(['tabarak-for-children']);
    expect((await api.get('/places?q=%25')).body.total).toBe(0);
  });

  it('filters by one category (canonical or not), refusing unknown and several', async () => {
    const pharmacies = await api.get('/places?category=pharmacy&limit=100');
    expect(pharmacies.body.total).toBeGreaterThanOrEqual(5);
    expect(pharmacies.body.category).toBe('pharmacy');
    for (const place of pharmacies.body.items) expect(place.categories).toContain('pharmacy');
    // banks with an ATM are banks first and ATMs too
    const atms = await api.get('/places?category=atm&limit=100');
    expect(atms.body.items.some((place: any) => place.canonicalCategorySlug === 'bank')).toBe(true);
    for (const query of ['category=pharmacy,bank', 'category=nightlife-of-mars']) {
      const refused = await api.get(`/places?${query}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_ERROR' });
      expect(refused.body.message[0]).toMatch(/^query\.category: /);
    }
  });

  it('keeps places with every amenity asked for; a group slug matches any of its options', async () => {
    const wifi = await api.get('/places?amenities=wifi&limit=100');
    expect(wifi.body.total).toBeGreaterThanOrEqual(5);
    expect(wifi.body.amenities).toEqual(['wifi']);
    for (const place of wifi.body.items) expect(place.amenities).toContain('wifi');
    const both = await api.get('/places?amenities=wifi,takeaway&limit=100');
    for (const place of both.body.items) expect(place.amenities).toEqual(expect.arrayContaining(['wifi', 'takeaway']));
    expect(both.body.total).toBeLessThanOrEqual(wifi.body.total);
    const accessible = await api.get('/places?amenities=accessibility&limit=100');
    expect(accessible.body.total).toBe(all.filter((place) => place.amenities.some((slug: string) => slug.startsWith('wheelchair'))).length);
    expect((await api.get('/places?amenities=teleporter')).status).toBe(400);
  });

  it('openNow keeps places open or closing at the instant, in their own timezone, and drops places without hours', async () => {
    // Friday 10 April 2026, 23:00 in Cairo
    const late = await api.get('/places?openNow=true&at=2026-04-10T23:00:00%2B02:00&limit=100');
    expect(late.body.openNow).toBe(true);
    const slugs = late.body.items.map((place: any) => place.slug);
    expect(slugs).toContain(withHours('24/7').slug);
    expect(slugs).toContain(withHours('Mo-Su 08:00-02:00').slug);
    expect(slugs).not.toContain(withHours('Mo-Su 11:00-22:00').slug);
    expect(slugs).not.toContain(withHours('Su-Th 09:00-17:00').slug);
    for (const place of late.body.items) {
      expect(place.openingHours).not.toBeNull();
      expect(['open', 'closing']).toContain(place.openState);
    }
    // 21:30: the 11:00-22:00 place closes within the hour and still counts
    const closing = await api.get('/places?openNow=yes&at=2026-04-10T21:30:00%2B02:00&limit=100');
    const furniture = closing.body.items.find((place: any) => place.slug === withHours('Mo-Su 11:00-22:00').slug);
    expect(furniture).toMatchObject({ openState: 'closing', openText: 'Closing soon · Closes 22:00' });
    const everyone = await api.get('/places?openNow=false&limit=1');
    expect(everyone.body.total).toBe(all.length);
    expect((await api.get('/places?openNow=perhaps')).status).toBe(400);
  });

  it('sorts by name, rating, newest and oldest, echoing the resolved sort', async () => {
    const byName = await api.get('/places?sort=NAME&limit=100');
    expect(byName.body.sort).toBe('name');
    const names = byName.body.items.map((place: any) => (place.nameEn ?? place.nameAr).toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const sort of ['rating', 'newest', 'oldest']) expect((await api.get(`/places?sort=${sort}`)).body.sort).toBe(sort);
    const oldest = (await api.get('/places?sort=oldest&limit=100')).body.items.map((place: any) => place.slug);
    const newest = (await api.get(`/places?sort=newest&limit=100&page=${Math.ceil(all.length / 100)}`)).body.items.map((place: any) => place.slug);
    expect(oldest[0]).toBe(newest.at(-1));
    expect((await api.get('/places?sort=popular')).status).toBe(400);
  });

  it('minRating keeps rated places only (none are rated before reviews exist)', async () => {
    expect((await api.get('/places?minRating=0')).body).toMatchObject({ total: all.length, minRating: 0 });
    expect((await api.get('/places?minRating=4.5')).body).toMatchObject({ total: 0, items: [], minRating: 4.5 });
    expect((await api.get('/places?minRating=6')).status).toBe(400);
    expect((await api.get('/places?minRating=high')).status).toBe(400);
  });

  it('near adds distanceKm, sorts nearest first over pages, and radiusKm limits the set and its total', async () => {
    const near = await api.get('/places?near=30.0667,31.334&limit=100');
    expect(near.body).toMatchObject({ near: '30.0667,31.334', sort: 'distance', total: all.length });
    expect(near.body.items[0].slug).toBe('tabarak-for-children');
    const distances = near.body.items.map((place: any) => place.distanceKm);
    expect(distances).toEqual([...distances].sort((a: number, b: number) => a - b));
    const within = await api.get('/places?near=30.0667,31.334&radiusKm=0.5&limit=100');
    expect(within.body.radiusKm).toBe(0.5);
    expect(within.body.total).toBe(within.body.items.length);
    expect(within.body.total).toBe(distances.filter((distance: number) => distance <= 0.5).length);
    for (const place of within.body.items) expect(place.distanceKm).toBeLessThanOrEqual(0.5);
  });

  it('keeps a stable order across pages for equal distances', async () => {
    // distanceKm is rounded to metres, and from between two places many tie at that rounding (exact
    // ties, places at one point, are covered by src/store/pg/places.test.ts)
    const [a, b] = all.slice(0, 2).map((place) => place.center.match(/POINT\((\S+) (\S+)\)/).slice(1).map(Number));
    const origin = `${(a[1] + b[1]) / 2},${(a[0] + b[0]) / 2}`;
    const whole = (await api.get(`/places?near=${origin}&limit=100`)).body.items.map((place: any) => `${place.slug}@${place.distanceKm}`);
    const pages: string[] = [];
    for (let page = 1; page <= 25; page++) pages.push(...(await api.get(`/places?near=${origin}&limit=4&page=${page}`)).body.items.map((place: any) => `${place.slug}@${place.distanceKm}`));
    expect(pages).toEqual(whole);
    // equal distances at the rounding of distanceKm exist here and are ordered by slug
    const ties = whole.filter((entry: string, index: number) => index > 0 && entry.split('@')[1] === whole[index - 1]!.split('@')[1]);
    expect(ties.length).toBeGreaterThan(0);
  });

  it('pages with page and limit (default 50, at most 100)', async () => {
    const second = await api.get('/places?sort=name&page=2&limit=7');
    expect(second.body).toMatchObject({ page: 2, limit: 7 });
    expect(second.body.items.map((place: any) => place.slug)).toEqual(all.slice(7, 14).map((place) => place.slug));
    expect((await api.get('/places?limit=500')).body.limit).toBe(100);
    expect((await api.get('/places?page=999&limit=10')).body.items).toEqual([]);
  });

  it('refuses bad input with the error body', async () => {
    for (const [query, field] of [
      ['limit=abc', 'limit'],
      ['limit=0', 'limit'],
      ['page=0', 'page'],
      ['near=91,31', 'near'],
      ['near=30,181', 'near'],
      ['near=30', 'near'],
      ['near=abc,def', 'near'],
      ['radiusKm=5', 'radiusKm'],
      ['near=30,31&radiusKm=-1', 'radiusKm'],
      ['at=yesterday', 'at'],
      ['page=200&limit=100', 'page'],
    ] as const) {
      const response = await api.get(`/places?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_ERROR' });
      expect(response.body.details.issues.map((issue: any) => issue.path)).toContain(field);
      expect(response.headers.get('x-request-id')).toBe(response.body.requestId);
    }
  });
});

describe('operator fields and sponsored', () => {
  it('an operator sponsors and verifies a place; sponsored filters truthy, falsy, and ignores the rest', async () => {
    const target = bySlug('tabarak-for-children');
    expect((await api.patch('/admin/places/tabarak-for-children', { sponsored: true }, undefined)).status).toBe(401);
    const plain = await registerUser(api, 'not-an-operator');
    expect((await api.patch('/admin/places/tabarak-for-children', { sponsored: true }, plain.token)).status).toBe(403);
    const set = await api.patch('/admin/places/tabarak-for-children', { sponsored: true, claimStatus: 'verified' }, admin.token);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ slug: 'tabarak-for-children', sponsored: true, claimStatus: 'verified' });
    expect((await api.patch('/admin/places/no-such-place', { sponsored: true }, admin.token)).status).toBe(404);
    expect((await api.patch('/admin/places/tabarak-for-children', { claimStatus: 'owned' }, admin.token)).status).toBe(400);
    expect((await api.patch('/admin/places/tabarak-for-children', {}, admin.token)).status).toBe(400);

    for (const truthy of ['true', '1', 'yes', 'on', 'YES']) {
      const response = await api.get(`/places?sponsored=${truthy}`);
      expect(response.body.items.map((place: any) => place.slug)).toEqual([target.slug]);
      expect(response.body.sponsored).toBe(true);
    }
    for (const falsy of ['false', '0', 'no', 'off']) {
      const response = await api.get(`/places?sponsored=${falsy}&limit=100`);
      expect(response.body.total).toBe(all.length - 1);
      expect(response.body.items.some((place: any) => place.slug === target.slug)).toBe(false);
    }
    for (const ignored of ['', 'maybe']) expect((await api.get(`/places?sponsored=${ignored}`)).body).toMatchObject({ total: all.length, sponsored: null });
    // relevance: sponsored first
    expect((await api.get('/places')).body.items[0]).toMatchObject({ slug: target.slug, sponsored: true, claimStatus: 'verified' });
    await api.patch('/admin/places/tabarak-for-children', { sponsored: false }, admin.token);
    expect((await api.get('/places?sponsored=true')).body.total).toBe(0);
  });
});

describe('GET /places/{slug}', () => {
  it('answers the detail with arrival intelligence from the road graph and empty user content', async () => {
    const response = await api.get(`/places/tabarak-for-children?at=${ORDINARY}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ slug: 'tabarak-for-children', holiday: null, reviews: [], photos: [], questions: [], entrances: [], attribution: '© OpenStreetMap contributors, ODbL' });
    const arrival = response.body.arrivalIntelligence;
    expect(arrival.recommendedEntrance).toMatchObject({ type: 'place', source: 'place-point', location: { lng: 31.3340724, lat: 30.0667208 } });
    expect(arrival.dropOff).toMatchObject({ streetName: 'Al Doctor Anwar Al Mofty Street' });
    expect(arrival.dropOff.distanceM).toBeLessThan(50);
    expect(arrival.lastFiftyMeters).toMatch(/^From Al Doctor Anwar Al Mofty Street, the place is \d+ m to the /);
    const arabic = await api.get('/places/tabarak-for-children?locale=ar');
    expect(arabic.body.name).toBe('مستشفى تبارك للولادة والأطفال');
    expect(arabic.body.arrivalIntelligence.lastFiftyMeters).toMatch(/^من شارع الدكتور انور المفتي/);
    // the OSM element slug navigation uses names the same place
    expect((await api.get('/places/way-31820663')).body.slug).toBe('tabarak-for-children');
  });

  it('answers 200 null for an unknown slug', async () => {
    const response = await api.get('/places/no-such-place');
    expect(response.status).toBe(200);
    expect(response.body).toBeNull();
    expect((await api.get('/places/way-1')).body).toBeNull();
  });

  it('adds the holiday and annotates openText on a holiday, without changing the state', async () => {
    const place = withHours('Mo-Su 08:00-23:30');
    const ordinary = await api.get(`/places/${place.slug}?at=${ORDINARY}`);
    expect(ordinary.body).toMatchObject({ holiday: null, openState: 'open', openText: 'Open · Closes 23:30' });
    const holiday = await api.get(`/places/${place.slug}?at=${HOLIDAY}`);
    expect(holiday.body.holiday).toEqual({ name: 'Spring Festival (Sham El Nessim)', nameAr: 'شم النسيم', type: 'public', affectsBusinessHours: true });
    expect(holiday.body.openState).toBe('open');
    expect(holiday.body.openText).toBe('Open · Closes 23:30 · Spring Festival (Sham El Nessim) · hours may vary');
    const arabic = await api.get(`/places/${place.slug}?at=${HOLIDAY}`, undefined, { 'accept-language': 'ar-EG,ar;q=0.9' });
    expect(arabic.body.openText).toBe('مفتوح · يغلق 23:30 · شم النسيم · قد تختلف المواعيد');
    // a closed place stays closed on the holiday (08:00 is before 11:00)
    const closed = await api.get(`/places/${withHours('Mo-Su 11:00-22:00').slug}?at=2026-04-13T08:00:00%2B02:00`);
    expect(closed.body).toMatchObject({ openState: 'closed', openText: 'Closed · Opens 11:00 · Spring Festival (Sham El Nessim) · hours may vary' });
  });
});

describe('GET /places/{slug}/hours', () => {
  it('gives the weekly shape, the OSM value, the zone, the state and the next change', async () => {
    const place = withHours('Su-Th 09:00-17:00');
    const response = await api.get(`/places/${place.slug}/hours?at=2026-04-10T10:00:00%2B02:00`);
    expect(response.body).toMatchObject({
      slug: place.slug,
      timeZone: 'Africa/Cairo',
      available: true,
      raw: 'Su-Th 09:00-17:00',
      weekly: { sunday: '09:00-17:00', monday: '09:00-17:00', friday: 'closed', saturday: 'closed' },
      openState: 'closed',
      openText: 'Closed · Opens Sun 09:00',
      nextChange: { weekday: 'sunday', time: '09:00' },
      holiday: null,
    });
    expect(Object.keys(response.body.weekly)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
    expect((await api.get('/places/tabarak-for-children/hours')).body).toMatchObject({ available: false, weekly: null, openState: null, openText: null });
    expect((await api.get('/places/no-such-place/hours')).body).toBeNull();
  });
});

describe('GET /places/thumb', () => {
  it('answers rating null when unrated, no image without logo or photo, open state with the holiday', async () => {
    const place = withHours('24/7');
    const response = await api.get(`/places/thumb?slug=${place.slug}&at=${HOLIDAY}`);
    expect(response.body).toEqual({
      url: null,
      source: null,
      rating: null,
      openState: 'open',
      openText: 'Open 24 hours · Spring Festival (Sham El Nessim) · hours may vary',
      holiday: { name: 'Spring Festival (Sham El Nessim)', nameAr: 'شم النسيم', type: 'public', affectsBusinessHours: true },
      imageUrl: null,
      imageSource: null,
      imageWidth: null,
      imageHeight: null,
    });
    const unknown = await api.get('/places/thumb?slug=no-such-place');
    expect(unknown.status).toBe(200);
    expect(Object.values(unknown.body).every((value) => value === null)).toBe(true);
    expect((await api.get('/places/thumb')).status).toBe(400);
  });
});

describe('GET /places/facets', () => {
  it('counts enabled options per group over the scanned places, sorted by count', async () => {
    const response = await api.get('/places/facets');
    expect(response.body).toMatchObject({ scanned: all.length, capped: false });
    const service = response.body.groups.find((group: any) => group.id === 'service');
    expect(service.name).toBe('Service');
    const counts = service.options.map((option: any) => option.count);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
    const wifi = service.options.find((option: any) => option.slug === 'wifi');
    expect(wifi).toMatchObject({ label: 'Wi-Fi', count: all.filter((place) => place.amenities.includes('wifi')).length });
    const cuisine = response.body.groups.find((group: any) => group.id === 'cuisine');
    expect(cuisine.total).toBeGreaterThan(0);
    for (const group of response.body.groups) for (const option of group.options) expect(option.count).toBeGreaterThan(0);
    const narrowed = await api.get(`/places/facets?q=${encodeURIComponent('صيدلية')}&locale=ar`);
    expect(narrowed.body.scanned).toBe((await api.get(`/places?q=${encodeURIComponent('صيدلية')}`)).body.total);
    expect(narrowed.body.groups.find((group: any) => group.id === 'service').name).toBe('الخدمة');
  });
});

describe('GET /places/categories', () => {
  it('lists the taxonomy with English and Arabic names, aliases and Maki icons', async () => {
    const response = await api.get('/places/categories');
    expect(response.body.count).toBeGreaterThanOrEqual(60);
    const pharmacy = response.body.categories.find((category: any) => category.slug === 'pharmacy');
    expect(pharmacy).toMatchObject({ name: 'Pharmacy', nameEn: 'Pharmacy', nameAr: 'صيدلية', icon: 'pharmacy', group: 'health' });
    expect(pharmacy.aliases).toEqual(expect.arrayContaining(['saydaliya', 'أجزخانة']));
    expect((await api.get('/places/categories?locale=ar')).body.categories.find((category: any) => category.slug === 'mosque').name).toBe('مسجد');
    // every category a place carries is in the list
    const slugs = new Set(response.body.categories.map((category: any) => category.slug));
    for (const place of all) for (const slug of place.categories) expect(slugs.has(slug)).toBe(true);
  });
});
