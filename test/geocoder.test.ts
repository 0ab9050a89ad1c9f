/**
 * The geocoder over real packs: the default data (Nasr City + Jordan's admin areas) and
 * An-Nabk (Syria, Arabic-only names). Expected objects are looked up in the pack itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MapPack } from '../src/datapack/map-pack.js';
import { NO_INDEX } from '../src/datapack/pack-layout.js';
import { ingestToFile } from '../src/ingest/ingest.js';
import { autocompleteReply } from '../src/edge/routes/geocoding.js';
import { Geocoder, GeocoderUnavailable } from '../src/services/geocoding/geocoder.js';
import { JORDAN_ADMIN, OSM_FILES } from './support/osm-data.js';

const workDir = mkdtempSync(join(tmpdir(), 'geocoder-'));
let nasrCity: MapPack;
let anNabk: MapPack;
let geocoder: Geocoder;
let nabkGeocoder: Geocoder;
let monacoGeocoder: Geocoder;
const AR_EN = ['ar', 'en'];

beforeAll(async () => {
  await ingestToFile({ input: OSM_FILES.nasrCityPbf, admin: JORDAN_ADMIN.map((path) => ({ path, level: undefined })) }, join(workDir, 'nasr.svcpack'));
  await ingestToFile({ input: OSM_FILES.anNabkXml }, join(workDir, 'nabk.svcpack'));
  nasrCity = MapPack.load(join(workDir, 'nasr.svcpack'));
  anNabk = MapPack.load(join(workDir, 'nabk.svcpack'));
  geocoder = Geocoder.build(nasrCity);
  nabkGeocoder = Geocoder.build(anNabk);
  await ingestToFile({ input: OSM_FILES.monaco }, join(workDir, 'monaco.svcpack'));
  monacoGeocoder = Geocoder.build(MapPack.load(join(workDir, 'monaco.svcpack')));
}, 90_000);
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** OSM ids of the routable ways with this English name. */
function waysNamed(pack: MapPack, nameEn: string): number[] {
  const s = pack.sections;
  const ids: number[] = [];
  for (let way = 0; way < s['ways.osmId'].length; way++) if (pack.strings.get(s['ways.nameEn'][way]!) === nameEn) ids.push(s['ways.osmId'][way]!);
  return ids;
}

function adminNamed(pack: MapPack, nameEn: string): { osmId: number; nameAr: string } {
  const [feature] = pack.findFeatures('admin_area', (tags) => tags['name:en'] === nameEn);
  return { osmId: pack.sections['features.osmId'][feature!]!, nameAr: pack.featureTags(feature!)['name:ar']! };
}

describe('forward search', () => {
  it('finds a street by its Arabic name, its English name and chat-alphabet Arabic', () => {
    const ways = waysNamed(nasrCity, 'Abbas Al Aqad Street');
    expect(ways.length).toBeGreaterThan(0);
    for (const query of ['شارع عباس العقاد', 'عباس العقاد', 'Abbas Al Aqad Street', 'abbas el akkad', '3abbas el 3a22ad']) {
      const [top] = geocoder.search(query, { locales: AR_EN, limit: 5 });
      expect(top, query).toBeDefined();
      expect(ways, query).toContain(top!.osm_id);
      expect(top!.category).toBe('highway');
    }
  });

  it('finds a street by its alternative (newer or older) name: Al Tayaran Street as Hesham Barakat', () => {
    const ways = waysNamed(nasrCity, 'Al Tayaran Street');
    for (const query of ['شارع الشهيد هشام بركات', 'هشام بركات', 'Al Shahid Hesham Barakat Street', 'hesham barakat']) {
      const results = geocoder.search(query, { locales: AR_EN, limit: 5 });
      expect(results.map((result) => result.osm_id), query).toEqual(expect.arrayContaining([expect.toBeOneOf(ways)]));
    }
  });

  it('finds Jordan admin areas in Arabic, English and Arabizi, governorate before its namesakes', () => {
    const zarqa = adminNamed(nasrCity, 'Zarqa');
    for (const query of [zarqa.nameAr, 'الزرقاء', 'الزرقا', 'Zarqa', 'zar2a', 'el zarqa']) {
      const [top] = geocoder.search(query, { locales: AR_EN, limit: 3 });
      expect(top?.osm_id, query).toBe(zarqa.osmId);
      expect(top?.address).toMatchObject({ state: zarqa.nameAr, country_code: 'jo' });
    }
  });

  it('tolerates diacritics, hamza variants, typos and unfinished words', () => {
    const ways = waysNamed(nasrCity, 'Moustafa Al Nahas Street');
    for (const query of ['مُصْطَفَى النَّحَّاس', 'مصطفى النحاس', 'مصطفي الناس', 'Moustafa Al Nahsa', 'مصطفي الن']) {
      const results = geocoder.search(query, { locales: AR_EN, limit: 5 });
      expect(results.map((result) => result.osm_id).some((id) => ways.includes(id)), query).toBe(true);
    }
  });

  it('finds an address by house number and street, and never shows the business there', () => {
    const [top] = geocoder.search('80 شارع عباس العقاد', { locales: AR_EN, limit: 3 });
    expect(top).toMatchObject({ osm_type: 'node', address: { house_number: '80' } });
    expect(JSON.stringify(top)).not.toMatch(/orange|أورانج|mobile_phone/i);
  });

  it('answers in the requested language and gives Nominatim fields', () => {
    const [arabic] = geocoder.search('Zarqa', { locales: ['ar'], limit: 1 });
    const [english] = geocoder.search('الزرقاء', { locales: ['en'], limit: 1 });
    expect(arabic!.display_name).toMatch(/الزرقاء.*الأردن/);
    expect(english!.display_name).toBe('Zarqa, Jordan');
    expect(english).toMatchObject({ lat: expect.stringMatching(/^\d+\.\d+$/), lon: expect.any(String), boundingbox: expect.any(Array) });
    expect(english!.boundingbox.map(Number).every(Number.isFinite)).toBe(true);
  });

  it('limits results to a bbox and ranks by proximity to a bias point', () => {
    const cairo: [number, number, number, number] = [31.2, 29.9, 31.5, 30.2];
    expect(geocoder.search('Zarqa', { locales: AR_EN, limit: 5, bbox: cairo })).toEqual([]);
    // An-Nabk has two separate streets named "طريق المشفى": the bias point decides which comes first
    const both = nabkGeocoder.search('طريق المشفى', { locales: AR_EN, limit: 5 }).filter((result) => result.name === 'طريق المشفى');
    expect(both.length).toBe(2);
    for (const wanted of both) {
      const [first] = nabkGeocoder.search('طريق المشفى', { locales: AR_EN, limit: 5, near: { lat: Number(wanted.lat), lon: Number(wanted.lon) } });
      expect(first!.osm_id).toBe(wanted.osm_id);
    }
  });

  it('finds Arabic-only names of another pack (An-Nabk)', () => {
    for (const query of ['شارع النهر', 'النهر', 'طريق المجمع', 'النبك']) {
      const [top] = nabkGeocoder.search(query, { locales: ['en'], limit: 3 });
      expect(top, query).toBeDefined();
      expect(top!.address.country_code).toBe('sy');
    }
  });
});

describe('any pack (Monaco)', () => {
  it('builds the hierarchy from OSM boundaries and keeps towns across the border out of it', () => {
    const [top] = monacoGeocoder.search('bd princesse charlotte', { locales: ['en'], limit: 1 });
    expect(top).toMatchObject({ name: 'Boulevard Princesse Charlotte', address: { suburb: 'Monte-Carlo', city: 'Monaco' } });
    // Beausoleil (France) is a town within 7 km, but outside Monaco's boundary
    expect(top!.display_name).not.toContain('Beausoleil');
  });
});

describe('autocomplete', () => {
  it('answers a repeated call from its cache exactly as a fresh geocoder would, each option set on its own', () => {
    const fresh = () => Geocoder.build(nasrCity);
    const calls: [string, Parameters<Geocoder['autocomplete']>[1]][] = [
      ['عباس', { locales: AR_EN, limit: 8 }],
      ['عباس', { locales: AR_EN, limit: 2 }],
      ['عباس', { locales: ['en'], limit: 8 }],
      ['عباس', { locales: AR_EN, limit: 8, near: { lat: 30.07, lon: 31.35 } }],
      ['عباس', { locales: AR_EN, limit: 8, bbox: [31.33, 30.05, 31.34, 30.06] }],
      ['3abbas', { locales: AR_EN, limit: 8 }],
    ];
    const warm = fresh();
    for (const [query, options] of calls) warm.autocomplete(query, options);
    for (const [query, options] of calls) {
      const cached = warm.autocomplete(query, options);
      expect(cached, `${query} ${JSON.stringify(options)}`).toEqual(fresh().autocomplete(query, options));
      // search shares the cache but not the answers
      expect(warm.search(query, options)).toEqual(fresh().search(query, options));
    }
    expect(warm.autocomplete('عباس', { locales: AR_EN, limit: 2 }).suggestions).toHaveLength(2);
  });

  it('serializes an answer made for a bias point from its kept suggestions exactly as JSON.stringify would', () => {
    const warm = Geocoder.build(nasrCity);
    for (const query of ['عباس', '3abbas', 'makram ebeid', 'مصطفى النحاس', 'ABBAS EL']) {
      for (const locales of [AR_EN, ['en'], ['fr', 'ar']]) {
        for (let point = 0; point < 3; point++) {
          const near = { lat: 30.04 + point * 0.02, lon: 31.3 + point * 0.03 };
          // twice: the second answer is spliced from suggestions kept by the first
          for (let pass = 0; pass < 2; pass++) {
            const found = warm.autocomplete(query, { locales, limit: 8, near });
            expect(String(autocompleteReply(found, false).body), `${query} ${locales.join()}`).toBe(JSON.stringify({ provider: 'svc-geocode', ...found }));
          }
        }
      }
    }
  });

  it('ranks kept word matches afresh for every bias point and bbox: the same answers as a fresh geocoder', () => {
    // An-Nabk's two streets named "طريق المشفى": each bias point must bring its own street first, though the
    // words were matched (and kept) for the first call
    const warm = Geocoder.build(anNabk);
    const both = warm.search('طريق المشفى', { locales: AR_EN, limit: 5 }).filter((result) => result.name === 'طريق المشفى');
    expect(both.length).toBe(2);
    for (const query of ['طريق المشفى', 'طريق المشف']) {
      for (const wanted of [...both, ...both]) {
        // a point a little off the street, new on every call (no answer kept for it)
        const near = { lat: Number(wanted.lat) + Math.random() * 1e-4, lon: Number(wanted.lon) + Math.random() * 1e-4 };
        const answer = warm.autocomplete(query, { locales: AR_EN, limit: 5, near });
        expect(answer.suggestions[0]!.id, query).toBe(`way/${wanted.osm_id}`);
        expect(answer).toEqual(Geocoder.build(anNabk).autocomplete(query, { locales: AR_EN, limit: 5, near }));
      }
      const around = (result: { lat: string; lon: string }): [number, number, number, number] => [Number(result.lon) - 1e-3, Number(result.lat) - 1e-3, Number(result.lon) + 1e-3, Number(result.lat) + 1e-3];
      for (const wanted of both) {
        const inBox = warm.search(query, { locales: AR_EN, limit: 5, bbox: around(wanted) });
        expect(inBox.map((result) => result.osm_id)).toContain(wanted.osm_id);
        expect(inBox).toEqual(Geocoder.build(anNabk).search(query, { locales: AR_EN, limit: 5, bbox: around(wanted) }));
      }
    }
  });

  it('suggests while typing and says how the query was rewritten', () => {
    const result = geocoder.autocomplete('zar2', { locales: AR_EN, limit: 8 });
    expect(result.normalizedQuery).toBe('zar');
    const plain = geocoder.autocomplete('Zarq', { locales: AR_EN, limit: 8 });
    expect(plain.normalizedQuery).toBeUndefined();
    expect(plain.suggestions[0]).toMatchObject({ id: expect.stringMatching(/^external\/\d+$/), label: expect.stringContaining('الزرقاء'), lat: expect.any(Number), lng: expect.any(Number) });
  });
});

describe('reverse', () => {
  /** The middle of segments of named ways: what a user on the street would send. */
  function pointsOnStreets(pack: MapPack, count: number) {
    const s = pack.sections;
    const points: { lat: number; lon: number; names: string[] }[] = [];
    const step = Math.floor(s['graph.edgeTarget'].length / count);
    for (let edge = 0; edge < s['graph.edgeTarget'].length && points.length < count; edge += step) {
      const way = s['graph.edgeWay'][edge]!;
      if (way === NO_INDEX || s['ways.name'][way] === 0) continue;
      const [a, b] = pack.edgeShape(edge);
      const names = [s['ways.name'][way]!, s['ways.nameAr'][way]!].map((id) => pack.strings.get(id)).filter(Boolean);
      points.push({ lon: (a![0] + b![0]) / 2, lat: (a![1] + b![1]) / 2, names });
    }
    return points;
  }

  it('returns the street a point lies on', () => {
    const points = pointsOnStreets(nasrCity, 60);
    let same = 0;
    for (const point of points) {
      const result = geocoder.reverse(point.lat, point.lon, ['ar']);
      if (result && point.names.includes(result.address.road ?? '')) same++;
    }
    // a point on a segment shared by two named ways (a bridge over a street) may name the other one
    expect(same / points.length).toBeGreaterThanOrEqual(0.95);
  });

  it('gives street detail with the longitude under lon and lng, and no business data', () => {
    const [orange] = nasrCity.findFeatures('address', (tags) => tags.brand === 'Orange');
    const [lon, lat] = nasrCity.featurePosition(orange!);
    const result = geocoder.reverse(lat, lon, ['ar']);
    expect(result).toBeDefined();
    expect(result!.lng).toBe(result!.lon);
    expect(result!.address.road).toBeDefined();
    expect(JSON.stringify(result)).not.toMatch(/orange|أورانج|mobile_phone|brand/i);
  });

  it('names the enclosing admin area where there are no streets, and nothing far from any data', () => {
    const amman = geocoder.reverse(31.95, 35.93, ['en']);
    expect(amman).toMatchObject({ category: 'boundary', address: { state: 'Amman', country_code: 'jo' } });
    expect(geocoder.reverse(0, 0, AR_EN)).toBeUndefined();
  });
});

describe('availability', () => {
  it('a disabled geocoder answers unavailable, not with an error of its own', () => {
    const disabled = Geocoder.disabled();
    expect(disabled.available).toBe(false);
    expect(() => disabled.search('x', { locales: AR_EN, limit: 1 })).toThrow(GeocoderUnavailable);
  });

  it('names the nearest locality of a point', () => {
    expect(geocoder.locality(31.95, 35.93, ['en'])?.name).toMatch(/Amman|Sub-District|District/);
    expect(geocoder.locality(30.0626, 31.3219, ['ar'])?.name).toMatch(/[\u0600-\u06FF]/);
  });
});
