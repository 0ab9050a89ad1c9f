import { describe, expect, it } from 'vitest';
import { InterestReader } from './interests.js';
import { placeValue } from './itinerary-planner.js';

const reader = new InterestReader();

describe('interests', () => {
  it('reads English, Arabic and Arabizi words as the same categories', () => {
    const english = reader.read(['restaurants']).categories;
    expect(english.get('restaurant')).toBe(1);
    expect(reader.read(['مطاعم']).categories).toEqual(english);
    expect(reader.read(['mat3am']).categories.get('restaurant')).toBe(1);
  });

  it('maps outing concepts to weighted categories and keeps the highest weight per category', () => {
    const history = reader.read(['تاريخ']).categories;
    expect(history.get('attraction')).toBe(1);
    expect(history.get('museum')).toBeLessThan(1);
    const both = reader.read(['history', 'museum']).categories;
    expect(both.get('museum')).toBe(1);
    expect(both.get('attraction')).toBe(1);
  });

  it('echoes what names nothing; no interests means the outing categories', () => {
    expect(reader.read(['zzqqxx', 'cafe'])).toMatchObject({ unmatched: ['zzqqxx'] });
    const defaults = reader.read([]).categories;
    expect(defaults.get('museum')).toBe(1);
    expect(defaults.get('restaurant')).toBe(1);
    expect(defaults.has('atm')).toBe(false);
  });
});

describe('place value', () => {
  const weights = new Map([['cafe', 1], ['bakery', 0.5]]);
  it('is the Bayesian rating (prior 3 worth two reviews) times the best interest weight', () => {
    expect(placeValue({ rating: 0, reviewCount: 0, categories: ['cafe'] }, weights)).toBe(3);
    expect(placeValue({ rating: 5, reviewCount: 2, categories: ['cafe'] }, weights)).toBe(4);
    expect(placeValue({ rating: 5, reviewCount: 2, categories: ['bakery'] }, weights)).toBe(2);
    expect(placeValue({ rating: 1, reviewCount: 100, categories: ['bakery', 'cafe'] }, weights)).toBeCloseTo((100 + 6) / 102, 9);
    expect(placeValue({ rating: 5, reviewCount: 9, categories: ['atm'] }, weights)).toBe(0);
  });
});
