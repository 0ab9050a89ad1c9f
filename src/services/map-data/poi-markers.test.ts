import { describe, expect, it } from 'vitest';
import type { PlaceMarkerRow } from '../../store/pg/place-markers.js';
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
});
