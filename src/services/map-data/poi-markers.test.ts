import { describe, expect, it } from 'vitest';
import type { PlaceMarkerRow } from '../../store/pg/place-markers.js';
import { PLACE_CATEGORIES } from '../places/place-taxonomy.js';
import { PoiMarkers } from './poi-markers.js';

const place = (id: string, lng: number): PlaceMarkerRow => ({
  id,
  slug: id,
  nameEn: id,
  nameAr: null,
  canonicalCategory: 'hospital',
  categories: ['hospital'],
  lat: 30.06,
  lng,
  rating: 0,
  reviewCount: 0,
  popularity: 0,
});

describe('PoiMarkers', () => {
  it('re-reads the catalogue once its change stamp moves, after the refresh interval', async () => {
    let now = 0;
    let rows = [place('a', 31.33)];
    let stamp = 'one';
    const markers = new PoiMarkers({ repository: { all: async () => rows, changeStamp: async () => stamp }, pinPath: () => '/pin.svg', refreshMs: 1_000, now: () => now });
    const slugs = async () => (await markers.query({ bbox: '31.3,30.0,31.4,30.1', zoom: '16' }, 'http://x')).items.map((item) => item.slug).sort();
    expect(await slugs()).toEqual(['a']);
    rows = [place('a', 31.33), place('b', 31.36)];
    stamp = 'two';
    // within the interval the snapshot stands
    now = 500;
    expect(await slugs()).toEqual(['a']);
    // past it, a request starts the check in the background and a later one sees the new place
    now = 1_500;
    await slugs();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await slugs()).toEqual(['a', 'b']);
    // and again after the next interval
    rows = [place('b', 31.36)];
    stamp = 'three';
    now = 3_000;
    await slugs();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await slugs()).toEqual(['b']);
  });

  it('writes by hand the very bytes JSON.stringify makes of the answer, for random viewports, zooms and options', async () => {
    let seed = 29;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
    // names as a catalogue has them, and ones JSON must escape; a slug outside the taxonomy has no pin
    const names = ['صيدلية العزبي', 'Dar Al-Hekma "Hospital"', 'back\\slash', 'tab\tand\nline', 'مَسْجِد', 'Café ☕ 🍩', 'A'.repeat(60), ''];
    const slugs = [...PLACE_CATEGORIES.map((category) => category.slug), 'no-such-category'];
    const rows: PlaceMarkerRow[] = Array.from({ length: 3_000 }, (_, index) => {
      const canonical = pick(slugs);
      return {
        id: `p${String(index).padStart(5, '0')}`,
        slug: `place-${index}`,
        nameEn: random() < 0.1 ? null : pick(names),
        nameAr: random() < 0.4 ? null : pick(names),
        canonicalCategory: canonical,
        categories: random() < 0.3 ? [canonical, pick(slugs)] : [canonical],
        lat: 30.03 + random() * 0.08,
        lng: 31.28 + random() * 0.12,
        rating: random() < 0.3 ? 0 : Math.round(random() * 50) / 10,
        reviewCount: Math.floor(random() * 2_000),
        popularity: random() < 0.5 ? 0 : random() * 1_500,
      };
    });
    const markers = new PoiMarkers({ repository: { all: async () => rows, changeStamp: async () => 'one' }, pinPath: (category, theme) => `/map/icons/pins/${category.group}-${category.icon}-${theme}.svg?v=1` });
    let drawn = 0;
    for (let run = 0; run < 300; run++) {
      const zoom = 9 + random() * 12;
      const span = 0.4 * 2 ** (10 - zoom) * (0.2 + random());
      const west = 31.25 + random() * 0.15;
      const south = 30.0 + random() * 0.1;
      const query = {
        bbox: run % 50 === 7 ? 'not,a,bbox' : [west, south, west + span, south + span * 0.6].map((value) => value.toFixed(5)).join(','),
        zoom: random() < 0.5 ? String(Math.round(zoom)) : zoom.toFixed(2),
        locale: pick(['ar', 'en', 'ar-EG', undefined]),
        vw: random() < 0.3 ? String(Math.round(200 + random() * 3_000)) : undefined,
        vh: random() < 0.3 ? String(Math.round(200 + random() * 3_000)) : undefined,
        dpr: random() < 0.3 ? (1 + random() * 3).toFixed(1) : undefined,
        perf: random() < 0.3 ? (0.3 + random() * 0.7).toFixed(2) : undefined,
        categories: random() < 0.2 ? `${pick(slugs)},${pick(slugs)}` : undefined,
      };
      const answer = await markers.query(query, 'http://localhost:8080/api/v1');
      drawn += answer.items.length;
      const bytes = await markers.queryJson(query, 'http://localhost:8080/api/v1');
      expect(bytes.toString('utf8'), JSON.stringify(query)).toBe(JSON.stringify(answer));
    }
    // the runs drew places (with the names above) rather than comparing empty answers
    expect(drawn).toBeGreaterThan(1_000);
  });
});
