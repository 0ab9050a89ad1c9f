/**
 * Place search (spec part 2 §4.3), black-box against a started server on the default data (the Nasr
 * City places seeded from the map data pack): GET /search with every parameter (English, Arabic and
 * Arabizi queries against real names, typeahead prefixes, semantic on and off, category, openNow at a
 * fixed instant, near/origin, radiusKm, sort, price, paging), the §4.3 ranking rule for a far exact
 * match, popularity from clicks, GET /search/suggestions, POST /search/events and its throttle, and bad
 * input → 400 with the spec's error body.
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

/** Monday 6 April 2026 10:00 in Cairo (UTC+2), and 03:00 the same night. */
const MORNING = encodeURIComponent('2026-04-06T10:00:00+02:00');
const NIGHT = encodeURIComponent('2026-04-06T03:00:00+02:00');
/** Tabarak hospital, in the middle of the seeded places. */
const NASR_CITY = '30.0667,31.334';
/** 40 km north of Nasr City: every place is beyond 25 km. */
const FAR_NORTH = '30.43,31.334';

beforeAll(async () => {
  if (usingRealServices) {
    const deployment = sharedDeployment('search');
    server = await startServerProcess(deployment);
    api = apiClient(server.baseUrl);
    admin = await registerUser(api, 'search-operator');
    expect((await runAdminCli(['grant-role', admin.email, 'admin'], { DATABASE_URL: deployment.DATABASE_URL!, DATABASE_SCHEMA: deployment.DATABASE_SCHEMA! })).code).toBe(0);
  } else {
    // the embedded database is one process's: register, stop, grant with the CLI, start again on the same directory
    dataDir = mkdtempSync(join(tmpdir(), 'search-'));
    const first = await startServerProcess({ DATA_DIR: dataDir });
    admin = await registerUser(apiClient(first.baseUrl), 'search-operator');
    await first.stop();
    const granted = await runAdminCli(['grant-role', admin.email, 'admin'], { DATA_DIR: dataDir });
    expect(granted.code, granted.stderr).toBe(0);
    server = await startServerProcess({ DATA_DIR: dataDir });
    api = apiClient(server.baseUrl);
  }
}, 180_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const search = (query: string) => api.get(`/search?${query}`);
const slugsOf = (body: any) => body.items.map((item: any) => item.slug);
const q = (text: string) => `q=${encodeURIComponent(text)}`;

describe('GET /search: text', () => {
  it('finds real names in English with exact matches first, in the place list shape', async () => {
    const response = await search(q('KFC'));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ query: 'KFC', mode: 'full', semantic: false, index: { mode: 'text', concepts: [], embeddings: 'off' }, page: 1, limit: 20, sort: 'relevance', attribution: '© OpenStreetMap contributors, ODbL' });
    const kinds = response.body.items.map((item: any) => item.match.kind);
    expect(kinds.slice(0, 4)).toEqual(['exact', 'exact', 'exact', 'exact']);
    expect(slugsOf(response.body)).toEqual(expect.arrayContaining(['kfc', 'kfc-chicken', 'kentucky-fried-chicken-kfc']));
    expect(response.body.total).toBe(response.body.items.length);
    const first = response.body.items[0];
    expect(first).toMatchObject({ nameEn: 'KFC', canonicalCategorySlug: expect.any(String), center: expect.stringMatching(/^POINT\(31\.\d+ 30\.\d+\)$/), priceLevel: null, popularity: expect.any(Number), rating: 0 });
    expect(first).not.toHaveProperty('distanceKm');
  });

  it('finds Arabic names whatever the spelling of alef, ta marbuta, ya, diacritics and tatweel', async () => {
    for (const text of ['صيدلية ساندي', 'صيدليه ساندى', 'صَيْدَلِيّة ســاندي']) {
      const response = await search(q(text));
      expect(slugsOf(response.body)[0], text).toBe('sandy-pharmacy');
      expect(response.body.items[0].match.kind, text).toBe('exact');
    }
    expect((await search(q('صيدليه ساندى'))).body.normalizedQuery).toBe('صيدليه ساندي');
    // the article is optional: "الشام" and "شام" are one word
    expect(slugsOf((await search(q('ورد شام'))).body).sort()).toEqual(['wardelsham', 'wrd-al-sham']);
    expect(slugsOf((await search(q('ستاربكس'))).body)).toEqual(['starbucks']);
    // punctuation names nothing
    expect((await search(q('!!! ؟'))).body).toMatchObject({ total: 0, items: [] });
  });

  it('reads Arabizi: chat-alphabet digits become letters, and skeletons meet Arabic-only names', async () => {
    const hamza = await search(q('7amza'));
    expect(hamza.body.normalizedQuery).toBe('hamza');
    expect(slugsOf(hamza.body)).toEqual(['hamza-restaurant']);
    const rabaa = await search(q('rab3a el 3adaweya'));
    expect(slugsOf(rabaa.body)).toEqual(expect.arrayContaining(['rabaa-al-adaweya', 'rabaa-al-adaweya-hospital', 'rabaa-al-adaweya-mosque']));
    // "2ahwa" (قهوة, a café word) and "kokh" (الكوخ): the café Qahoa Al-Kokh
    expect(slugsOf((await search(q('2ahwa el kokh'))).body)).toContain('qahoa-al-kokh');
  });

  it('a category word also finds places of that category: "pharmacy" finds Dawaa, name matches first', async () => {
    const response = await search(`${q('pharmacy')}&limit=50`);
    const slugs = slugsOf(response.body);
    expect(slugs.slice(0, 2).sort()).toEqual(['makram-pharmacy', 'sandy-pharmacy']);
    expect(slugs).toEqual(expect.arrayContaining(['dawaa', 'africia', 'mena-adly']));
    expect(response.body.items.every((item: any) => item.categories.includes('pharmacy'))).toBe(true);
  });

  it('mode=typeahead matches word starts in both scripts, 8 by default', async () => {
    const tib = await search(`${q('tib')}&mode=typeahead`);
    expect(tib.body).toMatchObject({ mode: 'typeahead', limit: 8 });
    expect(slugsOf(tib.body).sort()).toEqual(['tiba-mall', 'tiba-mall-cinema', 'tibh-mol']);
    expect(tib.body.items[0].match.kind).toBe('prefix');
    expect(slugsOf((await search(`${q('ستار')}&mode=typeahead`)).body)).toEqual(['starbucks']);
    expect(slugsOf((await search(`${q('k')}&mode=typeahead&limit=50`)).body)).toEqual(expect.arrayContaining(['kfc', 'kazyon-supermarket', 'kilim']));
    // word starts only: the inside of "Radioshack" is found by a full search, not while typing
    expect((await search(`${q('shack')}&mode=typeahead`)).body.total).toBe(1);
    expect(slugsOf((await search(q('oshack'))).body)).toEqual(['radioshack']);
    expect((await search(`${q('oshack')}&mode=typeahead`)).body.total).toBe(0);
  });
});

describe('GET /search: meaning-based matching', () => {
  it('semantic=on maps hunger in English, Arabic and Arabizi to restaurants and fast food (index.mode hybrid); off finds nothing', async () => {
    for (const text of ['hungry', 'جوعان', 'ja3an']) {
      const off = await search(q(text));
      expect(off.body, text).toMatchObject({ total: 0, semantic: false, index: { mode: 'text' } });
      const on = await search(`${q(text)}&semantic=on&limit=50`);
      expect(on.body, text).toMatchObject({ semantic: true, index: { mode: 'hybrid', concepts: [{ id: 'hungry', categories: expect.arrayContaining(['restaurant', 'fast-food', 'cafe']) }] } });
      const categories = on.body.items.map((item: any) => item.canonicalCategorySlug);
      expect(categories[0], text).toBe('restaurant');
      expect(new Set(categories), text).toEqual(new Set(['restaurant', 'fast-food', 'cafe', 'bakery', 'sweets']));
      expect(on.body.items.every((item: any) => item.match.kind === 'meaning')).toBe(true);
    }
  });

  it('"pharmacy open now" is the pharmacy category and the openNow filter at the instant asked', async () => {
    const morning = await search(`${q('pharmacy open now')}&semantic=on&at=${MORNING}`);
    expect(morning.body).toMatchObject({ openNow: true, openNowFromQuery: true, index: { mode: 'hybrid' } });
    expect(morning.body.index.concepts.map((concept: any) => concept.id)).toEqual(['category:pharmacy', 'open-now']);
    expect(slugsOf(morning.body)).toEqual(['sandy-pharmacy']);
    expect(morning.body.items[0].openState).toBe('open');
    // in Arabic, and the same words without semantic=on are text only
    expect(slugsOf((await search(`${q('صيدلية مفتوح')}&semantic=on&at=${MORNING}`)).body)).toEqual(['sandy-pharmacy']);
    expect((await search(`${q('pharmacy open now')}&at=${MORNING}`)).body).toMatchObject({ total: 0, openNow: false, index: { mode: 'text' } });
  });

  it('mode=typeahead disables meaning-based matching', async () => {
    const response = await search(`${q('hungry')}&semantic=on&mode=typeahead`);
    expect(response.body).toMatchObject({ semantic: false, total: 0, index: { mode: 'text', concepts: [] } });
  });

  it('semantic=on leaves a name search as it was when no concept is in it', async () => {
    const response = await search(`${q('starbucks')}&semantic=on`);
    expect(response.body).toMatchObject({ index: { mode: 'text' } });
    expect(slugsOf(response.body)).toEqual(['starbucks']);
  });
});

describe('GET /search: filters, origin, sort and paging', () => {
  it('category takes up to 10 slugs, any of them', async () => {
    const response = await search('category=pharmacy,atm&limit=50');
    expect(response.body.category).toEqual(['pharmacy', 'atm']);
    expect(response.body.total).toBeGreaterThanOrEqual(8);
    expect(response.body.items.every((item: any) => item.categories.includes('pharmacy') || item.categories.includes('atm'))).toBe(true);
    const ten = 'pharmacy,atm,bank,cafe,restaurant,fast-food,bakery,hospital,clinic,dentist';
    expect((await search(`category=${ten}`)).status).toBe(200);
    expect(slugsOf((await search(`${q('kfc')}&category=restaurant`)).body)).toEqual(['kfc-500103161']);
  });

  it('openNow keeps places open at the instant, evaluated in Cairo time', async () => {
    const morning = await search(`openNow=true&category=cafe&at=${MORNING}`);
    expect(slugsOf(morning.body)).toEqual(['partido-cafe']);
    expect((await search(`openNow=true&category=cafe&at=${NIGHT}`)).body.total).toBe(0);
    // 24/7 pharmacy and ATMs at three in the morning
    expect(slugsOf((await search(`openNow=1&category=pharmacy,atm&at=${NIGHT}`)).body).sort()).toEqual(['national-bank-of-egypt', 'nbe-national-bank-of-egypt', 'sandy-pharmacy']);
  });

  it('near (or origin) adds distanceKm, radiusKm limits it, sort=distance orders by it', async () => {
    const near = await search(`category=bank&near=${NASR_CITY}&sort=distance&limit=50`);
    expect(near.body).toMatchObject({ near: NASR_CITY, sort: 'distance' });
    const distances = near.body.items.map((item: any) => item.distanceKm);
    expect(distances.length).toBeGreaterThan(5);
    expect(distances).toEqual([...distances].sort((a: number, b: number) => a - b));
    const origin = await search(`category=bank&origin=${NASR_CITY}&sort=distance&limit=50`);
    expect(slugsOf(origin.body)).toEqual(slugsOf(near.body));
    const within = await search(`category=bank&near=${NASR_CITY}&radiusKm=1&limit=50`);
    expect(within.body.radiusKm).toBe(1);
    expect(within.body.total).toBe(distances.filter((distance: number) => distance <= 1).length);
    for (const item of within.body.items) expect(item.distanceKm).toBeLessThanOrEqual(1);
  });

  it('with an origin, an exact name match beyond 25 km competes on distance with partial matches (§4.3)', async () => {
    const plain = await search(q('kfc'));
    expect(plain.body.items.at(-1).match.kind).not.toBe('exact');
    const far = await search(`${q('kfc')}&near=${FAR_NORTH}`);
    const distances = far.body.items.map((item: any) => item.distanceKm);
    expect(Math.min(...distances)).toBeGreaterThan(25);
    // exact and partial alike: nearest first
    expect(distances).toEqual([...distances].sort((a: number, b: number) => a - b));
    expect(new Set(far.body.items.map((item: any) => item.match.text)).size).toBeLessThanOrEqual(2);
  });

  it('price keeps places of the price levels given (operators set them)', async () => {
    expect((await search('price=2')).body).toMatchObject({ total: 0, price: [2] });
    expect((await api.patch('/admin/places/starbucks', { priceLevel: 2 }, admin.token)).body).toMatchObject({ slug: 'starbucks', priceLevel: 2 });
    expect((await api.patch('/admin/places/tom-and-basel', { priceLevel: 1 }, admin.token)).status).toBe(200);
    expect(slugsOf((await search('price=2')).body)).toEqual(['starbucks']);
    const both = await search('price=1,2');
    expect(both.body.price).toEqual([1, 2]);
    expect(slugsOf(both.body).sort()).toEqual(['starbucks', 'tom-and-basel']);
    expect(both.body.items.find((item: any) => item.slug === 'starbucks').priceLevel).toBe(2);
    expect((await api.patch('/admin/places/tom-and-basel', { priceLevel: null }, admin.token)).body.priceLevel).toBeNull();
    expect((await api.patch('/admin/places/starbucks', { priceLevel: 5 }, admin.token)).status).toBe(400);
  });

  it('pages through the ranked set with page and limit (at most 50)', async () => {
    const whole = slugsOf((await search('category=restaurant,fast-food&limit=50')).body);
    const pages: string[] = [];
    for (let page = 1; page <= Math.ceil(whole.length / 4); page++) pages.push(...slugsOf((await search(`category=restaurant,fast-food&limit=4&page=${page}`)).body));
    expect(pages).toEqual(whole);
    expect((await search('limit=500')).body.limit).toBe(50);
    expect((await search('sort=rating')).body.sort).toBe('rating');
    expect((await search('sort=popularity')).body.sort).toBe('popularity');
  });
});

describe('POST /search/events and popularity', () => {
  it('records searches and clicks for a signed-in caller; clicks lift a place among equal matches', async () => {
    const user = await registerUser(api, 'searcher');
    const before = slugsOf((await search(q('pizza hut'))).body);
    expect(before).toEqual(['pizza-hut', 'pizza-hut-4556485989', 'pizza-hut-665496843']);
    expect((await api.post('/search/events', { type: 'search', query: 'pizza hut', resultCount: 3 }, user.token)).body).toMatchObject({ recorded: true, type: 'search' });
    for (let click = 0; click < 2; click++) {
      const recorded = await api.post('/search/events', { type: 'click', placeSlug: 'pizza-hut-665496843', query: 'pizza hut', position: 2 }, user.token);
      expect(recorded.status).toBe(201);
    }
    const after = await search(q('pizza hut'));
    expect(slugsOf(after.body)[0]).toBe('pizza-hut-665496843');
    expect(after.body.items[0].popularity).toBe(2);
    expect((await search('sort=popularity&limit=1')).body.items[0].slug).toBe('pizza-hut-665496843');
  });

  it('refuses anonymous callers, unknown places and malformed events', async () => {
    const user = await registerUser(api, 'bad-events');
    expect((await api.post('/search/events', { type: 'click', placeSlug: 'starbucks' })).status).toBe(401);
    expect((await api.post('/search/events', { type: 'click', placeSlug: 'no-such-place' }, user.token)).body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    for (const body of [{ type: 'click' }, { type: 'search' }, { type: 'view', placeSlug: 'starbucks' }, { type: 'click', placeSlug: 'starbucks', ip: '1.2.3.4' }, { type: 'click', placeSlug: 'starbucks', position: -1 }]) {
      const refused = await api.post('/search/events', body, user.token);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_ERROR' });
    }
  });

  it('throttles at 60 events a minute per client address with the spec error body', async () => {
    const user = await registerUser(api, 'event-throttle');
    const post = (index: number) => api.post('/search/events', { type: 'search', query: `throttle ${index}` }, user.token);
    // the window is the clock minute and earlier tests spent some of it: go by the headers, and start again if the minute turns
    for (let attempt = 0; attempt < 3; attempt++) {
      const first = await post(0);
      expect(first.status).toBe(201);
      expect(first.headers.get('x-ratelimit-limit')).toBe('60');
      const remaining = Number(first.headers.get('x-ratelimit-remaining'));
      const statuses: number[] = [];
      for (let event = 1; event <= remaining + 1; event++) statuses.push((await post(event)).status);
      if (statuses.at(-1) !== 429 && Number(first.headers.get('x-ratelimit-reset')) < 10) continue;
      expect(statuses.slice(0, remaining).every((status) => status === 201)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      const refused = await post(99);
      expect(refused.body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      return;
    }
    throw new Error('the throttle window kept turning over');
  });
});

describe('GET /search/suggestions', () => {
  it('empty q: everyday categories first, then landmark places, in the locale', async () => {
    const english = await api.get('/search/suggestions');
    expect(english.body.locale).toBe('en');
    const types = english.body.suggestions.map((suggestion: any) => suggestion.type);
    expect(types).toEqual(['category', 'category', 'category', 'category', 'category', 'place', 'place', 'place', 'place', 'place']);
    expect(english.body.suggestions.slice(0, 3).map((suggestion: any) => suggestion.label)).toEqual(['Restaurant', 'Café', 'Pharmacy']);
    expect(english.body.suggestions[5]).toMatchObject({ type: 'place', category: 'mall', slug: 'tiba-mall', label: 'Tiba Mall · Shopping mall', lat: expect.any(Number), lng: expect.any(Number) });
    const arabic = await api.get('/search/suggestions?locale=ar');
    expect(arabic.body.suggestions.slice(0, 3).map((suggestion: any) => suggestion.label)).toEqual(['مطعم', 'مقهى', 'صيدلية']);
    expect(arabic.body.suggestions[5].name).toBe('طيبة مول');
    expect((await api.get('/search/suggestions?q=', undefined, { 'accept-language': 'ar-EG' })).body.locale).toBe('ar');
  });

  it('a prefix gives matching categories, then places starting with it', async () => {
    const pharm = await api.get(`/search/suggestions?q=${encodeURIComponent('pharm')}`);
    expect(pharm.body.suggestions[0]).toMatchObject({ type: 'category', category: 'pharmacy', label: 'Pharmacy' });
    expect(pharm.body.suggestions.filter((suggestion: any) => suggestion.type === 'place').map((suggestion: any) => suggestion.slug).sort()).toEqual(['makram-pharmacy', 'sandy-pharmacy']);
    const arabic = await api.get(`/search/suggestions?q=${encodeURIComponent('صيد')}&locale=ar`);
    expect(arabic.body.suggestions[0]).toMatchObject({ type: 'category', category: 'pharmacy', label: 'صيدلية' });
    expect(arabic.body.suggestions.some((suggestion: any) => suggestion.slug === 'sandy-pharmacy' && suggestion.name === 'صيدلية ساندي')).toBe(true);
    const near = await api.get(`/search/suggestions?q=kfc&near=${NASR_CITY}&limit=3`);
    expect(near.body.suggestions).toHaveLength(3);
    expect(near.body.suggestions.every((suggestion: any) => typeof suggestion.distanceKm === 'number')).toBe(true);
  });
});

describe('bad input', () => {
  it('answers 400 with the spec error body naming the field', async () => {
    for (const [query, field] of [
      ['limit=abc', 'limit'],
      ['limit=0', 'limit'],
      ['page=0', 'page'],
      ['page=9&limit=50', 'page'],
      ['near=91,31', 'near'],
      ['near=30,181', 'near'],
      ['near=abc', 'near'],
      ['origin=30,31&near=30.1,31', 'origin'],
      ['radiusKm=5', 'radiusKm'],
      ['near=30,31&radiusKm=0', 'radiusKm'],
      ['sort=distance', 'sort'],
      ['sort=cheapest', 'sort'],
      ['category=pharmacy,atm,bank,cafe,restaurant,fast-food,bakery,hospital,clinic,dentist,school', 'category'],
      ['category=nightlife-of-mars', 'category'],
      ['price=5', 'price'],
      ['price=cheap', 'price'],
      ['openNow=maybe', 'openNow'],
      ['semantic=sometimes', 'semantic'],
      ['mode=fuzzy', 'mode'],
      ['at=yesterday', 'at'],
      [`q=${'x'.repeat(257)}`, 'q'],
    ] as const) {
      const response = await search(query);
      expect(response.status, query).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_ERROR' });
      expect(response.body.details.issues.map((issue: any) => issue.path), query).toContain(field);
    }
    expect((await api.get('/search/suggestions?limit=abc')).status).toBe(400);
    expect((await api.get('/search/suggestions?near=0,200')).status).toBe(400);
  });
});
