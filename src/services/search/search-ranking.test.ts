import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CategoryWords } from './concept-index.js';
import { type RankCandidate, type RankQuery, distancePenalty, rank, scoreCandidate, textScore } from './search-ranking.js';
import { analyzeQuery, searchDocumentOf } from './search-text.js';

const words = new CategoryWords();

function place(slug: string, nameEn: string | null, nameAr: string | null, extra: Partial<RankCandidate> = {}): RankCandidate {
  const document = searchDocumentOf({ nameEn, nameAr, tags: {} });
  return { id: slug, slug, names: document.names, doc: document.doc, categories: ['other'], amenities: [], reviewCount: 0, popularity: 0, rating: 0, ...extra };
}

function query(text: string, options: Partial<RankQuery> = {}): RankQuery {
  return {
    tokens: analyzeQuery(text).tokens,
    typeahead: false,
    categoriesOfWord: (token) => words.categoriesOf(token),
    meaningCategories: new Map(),
    meaningAmenities: new Map(),
    ...options,
  };
}

const kfc = place('kfc', 'KFC', 'دجاج كنتاكي', { categories: ['fast-food'] });
const kfcChicken = place('kfc-chicken', 'kfc chicken', 'كنتاكي', { categories: ['fast-food'] });
const kentucky = place('kentucky-fried-chicken-kfc', 'Kentucky fried Chicken "KFC"', 'دجاج كنتاكي', { categories: ['fast-food'] });
const sandy = place('sandy-pharmacy', 'Sandy pharmacy', 'صيدلية ساندي', { categories: ['pharmacy'] });
const dawaa = place('dawaa', 'Dawaa', 'دواء', { categories: ['pharmacy'] });

describe('text tiers', () => {
  it('orders exact, prefix, whole words and partial matches', () => {
    const q = query('kfc');
    expect(textScore(q, kfc)).toEqual({ score: 100, kind: 'exact' });
    expect(textScore(q, kfcChicken)).toEqual({ score: 85, kind: 'prefix' });
    expect(textScore(q, kentucky)).toEqual({ score: 70, kind: 'words' });
    expect(textScore(query('kfc chick'), kfcChicken).kind).toBe('partial');
    expect(textScore(q, sandy)).toEqual({ score: 0, kind: 'partial' });
  });

  it('matches across scripts and spellings: Arabic letter variants, Arabizi, consonant skeletons', () => {
    expect(textScore(query('صيدليه ساندى'), sandy).kind).toBe('exact');
    expect(textScore(query('7amza'), place('hamza-restaurant', 'Hamza Restaurant', 'مطعم حمزه')).kind).toBe('prefix');
    // "Hamza" typed without its vowels still shares the skeleton hmz with "حمزه"
    expect(textScore(query('hamzah'), place('hamza', null, 'مطعم حمزه')).score).toBeGreaterThan(0);
  });

  it('lets a category word stand for the category: "pharmacy" finds Dawaa, weaker than a name match', () => {
    const q = query('pharmacy');
    expect(textScore(q, dawaa).score).toBeGreaterThan(0);
    expect(textScore(q, sandy).score).toBeGreaterThan(textScore(q, dawaa).score);
  });

  it('typeahead takes word starts only; a full search also takes insides', () => {
    const shack = place('radioshack', 'Radioshack', 'راديو شاك');
    expect(textScore(query('radios', { typeahead: true }), shack).kind).toBe('prefix');
    expect(textScore(query('shack', { typeahead: true }), shack).score).toBe(0);
    expect(textScore(query('oshack'), shack).score).toBeGreaterThan(0);
  });
});

describe('§4.3 rules with an origin', () => {
  it('an exact match beyond 25 km competes on distance with a nearer partial match, and loses to it', () => {
    const farExact = { ...kfc, distanceKm: 30 };
    const nearPartial = { ...kentucky, slug: 'near', distanceKm: 2 };
    const ranked = rank(query('kfc'), [farExact, nearPartial]);
    expect(ranked.map((entry) => entry.candidate.slug)).toEqual(['near', 'kfc']);
    // within 25 km the exact match keeps its tier
    expect(rank(query('kfc'), [{ ...kfc, distanceKm: 20 }, nearPartial])[0]!.candidate.slug).toBe('kfc');
  });

  it('a place with thousands of reviews or clicks keeps its lead over nearer partial matches', () => {
    const famous = { ...kentucky, slug: 'famous', distanceKm: 12, reviewCount: 3_000 };
    const clicked = { ...kentucky, slug: 'clicked', distanceKm: 12, popularity: 2_000 };
    const near = { ...kfcChicken, slug: 'near', distanceKm: 0.5 };
    expect(rank(query('kfc'), [near, famous]).map((entry) => entry.candidate.slug)).toEqual(['famous', 'near']);
    expect(rank(query('kfc'), [near, clicked])[0]!.prominent).toBe(true);
    expect(rank(query('kfc'), [near, clicked])[0]!.candidate.slug).toBe('clicked');
    // an ordinary place 12 km away does not
    expect(rank(query('kfc'), [near, { ...kentucky, slug: 'plain', distanceKm: 12, reviewCount: 20 }])[0]!.candidate.slug).toBe('near');
  });

  it('the distance penalty grows with distance and is bounded', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 20_000, noNaN: true }), fc.double({ min: 0, max: 20_000, noNaN: true }), (a, b) => {
        const [near, far] = a <= b ? [a, b] : [b, a];
        expect(distancePenalty(near)).toBeLessThanOrEqual(distancePenalty(far));
        expect(distancePenalty(far)).toBeLessThanOrEqual(40);
      }),
    );
  });

  it('of two places alike but for distance, the nearer never ranks below the farther', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 200, noNaN: true }), fc.double({ min: 0, max: 200, noNaN: true }), fc.integer({ min: 0, max: 5_000 }), (a, b, reviews) => {
        const first = { ...kfc, slug: 'a', distanceKm: a, reviewCount: reviews };
        const second = { ...kfc, slug: 'b', distanceKm: b, reviewCount: reviews };
        const ranked = rank(query('kfc'), [first, second]);
        expect(ranked[0]!.candidate.distanceKm).toBeLessThanOrEqual(ranked[1]!.candidate.distanceKm!);
      }),
    );
  });
});

describe('meaning and popularity', () => {
  it('ranks meaning-only matches by their concept weight; text adds to meaning', () => {
    const q = query('hungry', { meaningCategories: new Map([['restaurant', 1], ['cafe', 0.55]]) });
    const restaurant = place('r', 'Peking restaurant', null, { categories: ['restaurant'] });
    const cafe = place('c', 'Benos Cafe', null, { categories: ['cafe'] });
    const ranked = rank(q, [cafe, restaurant, sandy]);
    expect(ranked.map((entry) => [entry.candidate.slug, entry.kind])).toEqual([['r', 'meaning'], ['c', 'meaning']]);
    expect(scoreCandidate(query('pharmacy', { meaningCategories: new Map([['pharmacy', 1]]) }), sandy)!.score).toBeGreaterThan(
      scoreCandidate(query('pharmacy', { meaningCategories: new Map([['pharmacy', 1]]) }), dawaa)!.score,
    );
  });

  it('clicks break ties between equal matches, and ties end by slug', () => {
    const a = place('pizza-hut', 'Pizza Hut', 'بيزا هت');
    const b = place('pizza-hut-665496843', 'Pizza Hut', 'بيتزا هت');
    expect(rank(query('pizza hut'), [b, a]).map((entry) => entry.candidate.slug)).toEqual(['pizza-hut', 'pizza-hut-665496843']);
    expect(rank(query('pizza hut'), [a, { ...b, popularity: 3 }]).map((entry) => entry.candidate.slug)).toEqual(['pizza-hut-665496843', 'pizza-hut']);
  });
});
