/**
 * The candidate index's nearest-first walk against its own scan of every match: for generated catalogues (places
 * clustered and spread, many on the very same point so distances tie, across cell boundaries) and generated
 * distance-ordered filters (categories, meanings, open now, radius, every page size), the walk gives the same
 * candidates in the same order and the same count; and it is the one that answers where matches are many.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SearchCandidateFilter, SearchIndexRecord } from '../../store/pg/place-search.js';
import { PlaceSearchIndex } from './place-search-index.js';

const CATEGORIES = ['restaurant', 'cafe', 'pharmacy', 'bank', 'atm', 'school', 'fuel', 'park'];

function recordOf(index: number, lat: number, lng: number, random: () => number): SearchIndexRecord {
  const category = CATEGORIES[Math.floor(random() * CATEGORIES.length)]!;
  const open = Math.floor(random() * 7 * 1440);
  return {
    id: `id-${index}`,
    // slugs not in slot order: ties are broken by slug
    slug: `place-${(index * 7919) % 100_003}`,
    doc: ` ${category} place${index % 50} `,
    names: [`place${index % 50}`],
    categories: [category],
    amenities: random() < 0.3 ? ['wifi'] : [],
    nameEn: `Place ${index}`,
    nameAr: null,
    canonicalCategory: category,
    lat,
    lng,
    reviewCount: Math.floor(random() * 5),
    popularity: Math.floor(random() * 3),
    rating: Math.floor(random() * 5),
    priceLevel: random() < 0.5 ? 1 + Math.floor(random() * 4) : null,
    prefixes: [],
    timeZone: 'Africa/Cairo',
    hoursWeekStable: true,
    intervals: [[open, open + 600]],
  };
}

/** A catalogue of `size` places: a dense city block, a spread square, and shared points (equal distances). */
function catalogue(size: number, seed: number): SearchIndexRecord[] {
  let state = seed >>> 0 || 1;
  const random = () => ((state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32);
  const shared = Array.from({ length: 20 }, () => ({ lat: 30 + random() * 0.3, lng: 31.2 + random() * 0.3 }));
  return Array.from({ length: size }, (_, index) => {
    const kind = random();
    // exact multiples of the cell size land on cell boundaries
    if (kind < 0.15) return recordOf(index, 30.05 + Math.floor(random() * 10) * 0.01, 31.3 + Math.floor(random() * 10) * 0.01, random);
    if (kind < 0.35) {
      const point = shared[Math.floor(random() * shared.length)]!;
      return recordOf(index, point.lat, point.lng, random);
    }
    if (kind < 0.7) return recordOf(index, 30.04 + random() * 0.04, 31.3 + random() * 0.04, random);
    return recordOf(index, 29.8 + random() * 0.8, 31 + random() * 0.8, random);
  });
}

/** A filter part present in about one filter of four. */
const rarely = <T,>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

const filterArbitrary = fc
  .record({
    // mostly where the places are, sometimes beyond them
    origin: fc.oneof(
      { weight: 4, arbitrary: fc.record({ lat: fc.double({ min: 29.8, max: 30.6, noNaN: true }), lng: fc.double({ min: 31, max: 31.8, noNaN: true }) }) },
      { weight: 1, arbitrary: fc.record({ lat: fc.double({ min: 29, max: 31.5, noNaN: true }), lng: fc.double({ min: 30.5, max: 32.5, noNaN: true }) }) },
    ),
    anyCategory: rarely(fc.subarray(CATEGORIES, { minLength: 1, maxLength: 6 })),
    meaning: rarely(fc.record({ categories: fc.subarray(CATEGORIES, { minLength: 1, maxLength: 6 }), amenities: fc.subarray(['wifi'], { maxLength: 1 }) })),
    priceLevels: rarely(fc.subarray([1, 2, 3, 4], { minLength: 1 })),
    openNow: rarely(fc.integer({ min: 0, max: 7 * 1440 - 1 })),
    radiusKm: rarely(fc.double({ min: 0.1, max: 30, noNaN: true })),
    limit: fc.constantFrom(1, 5, 20, 120, 400),
  })
  .map(
    (value): SearchCandidateFilter => ({
      words: [],
      typeahead: false,
      meaning: value.meaning,
      anyCategory: value.anyCategory,
      priceLevels: value.priceLevels,
      openNow: value.openNow === undefined ? undefined : { zones: [{ timeZone: 'Africa/Cairo', minuteOfWeek: value.openNow }], openIrregularIds: ['id-3'] },
      origin: value.origin,
      radiusKm: value.radiusKm,
      order: 'distance',
      plan: 'dense',
      limit: value.limit,
    }),
  );

describe('the nearest-first walk of the candidate index', () => {
  const index = new PlaceSearchIndex();
  index.apply(catalogue(6_000, 7));

  it('answers as the scan of every match does: same candidates, order and count', () => {
    const walksBefore = index.walks;
    let cases = 0;
    fc.assert(
      fc.property(filterArbitrary, fc.constantFrom(50, 1_000), (filter, countCap) => {
        cases++;
        const walked = index.candidates(filter, countCap);
        const scanned = index.candidates(filter, countCap, 'never');
        expect(walked.candidates.map((candidate) => candidate.slug)).toEqual(scanned.candidates.map((candidate) => candidate.slug));
        expect({ total: walked.total, totalCapped: walked.totalCapped }).toEqual({ total: scanned.total, totalCapped: scanned.totalCapped });
      }),
      { numRuns: 400, seed: 24 },
    );
    // most generated filters match many places: the walk, not the scan, answered them
    expect(index.walks - walksBefore).toBeGreaterThan(cases / 4);
  });

  it('sees places that moved and places added after the first search', () => {
    const moving = new PlaceSearchIndex();
    const records = catalogue(3_000, 11);
    moving.apply(records);
    const filter: SearchCandidateFilter = { words: [], typeahead: false, origin: { lat: 30.2, lng: 31.5 }, order: 'distance', plan: 'dense', limit: 10 };
    const before = moving.candidates(filter, 1_000);
    expect(moving.walks).toBe(1);
    // the farthest of the page moves onto the origin; a new place appears next to it
    const far = records.find((record) => record.slug === before.candidates.at(-1)!.slug)!;
    moving.apply([{ ...far, lat: 30.2, lng: 31.5 }, recordOf(3_000, 30.2001, 31.5001, () => 0.5)]);
    const after = moving.candidates(filter, 1_000);
    expect(after.candidates.slice(0, 2).map((candidate) => candidate.slug)).toEqual([far.slug, 'place-' + ((3_000 * 7919) % 100_003)]);
    expect(after.candidates.map((candidate) => candidate.slug)).toEqual(moving.candidates(filter, 1_000, 'never').candidates.map((candidate) => candidate.slug));
    expect(after.total).toBe(1_000);
    expect(after.totalCapped).toBe(true);
  });

  it('with a radius fewer places than the page hold, the walk stops at the radius instead of giving way to the scan', () => {
    for (const radiusKm of [0.05, 0.1, 0.2]) {
      const filter: SearchCandidateFilter = { words: [], typeahead: false, origin: { lat: 30.061, lng: 31.318 }, radiusKm, order: 'distance', plan: 'dense', limit: 400 };
      const walksBefore = index.walks;
      const walked = index.candidates(filter, 1_000);
      const scanned = index.candidates(filter, 1_000, 'never');
      expect(walked.candidates.length).toBeLessThan(400);
      expect(walked.candidates.map((candidate) => candidate.slug)).toEqual(scanned.candidates.map((candidate) => candidate.slug));
      expect(walked.total).toBe(scanned.total);
      expect(index.walks).toBe(walksBefore + 1);
    }
  });

  it('an origin half a degree beyond every place still finds the nearest ones', () => {
    const filter: SearchCandidateFilter = { words: [], typeahead: false, origin: { lat: 31.1, lng: 31.4 }, order: 'distance', plan: 'dense', limit: 3 };
    const walksBefore = index.walks;
    const answer = index.candidates(filter, 1_000);
    expect(answer.candidates).toHaveLength(3);
    expect(answer.candidates.map((candidate) => candidate.slug)).toEqual(index.candidates(filter, 1_000, 'never').candidates.map((candidate) => candidate.slug));
    expect(index.walks).toBe(walksBefore + 1);
  });
});
