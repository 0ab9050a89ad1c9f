import { describe, expect, it } from 'vitest';
import { CategoryWords, ConceptIndex } from './concept-index.js';
import { tokensOf } from './search-text.js';

const index = ConceptIndex.standard();
const analyze = (text: string) => index.analyze(tokensOf(text));

describe('concept index', () => {
  it('maps hunger in English, Arabic and Arabizi to restaurants, fast food and cafés, restaurants first', () => {
    for (const query of ['hungry', 'جوعان', 'جعان', 'ja3an', 'ga3an', 'I am hungry']) {
      const analysis = analyze(query);
      expect(analysis.matches.map((match) => match.id), query).toContain('hungry');
      expect(analysis.categories.get('restaurant'), query).toBe(1);
      expect(analysis.categories.get('fast-food'), query).toBeGreaterThan(analysis.categories.get('cafe')!);
      expect(analysis.openNow).toBe(false);
    }
  });

  it('reads "pharmacy open now" as the pharmacy category plus the open-now filter, in either script', () => {
    for (const query of ['pharmacy open now', 'صيدلية مفتوح', 'saydaliya fate7', 'open now pharmacy']) {
      const analysis = analyze(query);
      expect(analysis.categories.get('pharmacy'), query).toBe(1);
      expect(analysis.openNow, query).toBe(true);
      expect([...analysis.consumed].length, query).toBe(tokensOf(query).length);
    }
  });

  it('does not take names for filters: "Open Arab University" and "الجامعة العربية المفتوحة" ask for no open-now', () => {
    expect(analyze('Open Arab University').openNow).toBe(false);
    expect(analyze('الجامعة العربية المفتوحة').openNow).toBe(false);
    expect(analyze('Open Arab University').categories.get('university')).toBe(1);
  });

  it('prefers the longest phrase: "near me" is the nearby intent, "ice cream" sweets', () => {
    const near = analyze('coffee near me');
    expect(near.nearby).toBe(true);
    expect(near.categories.get('cafe')).toBe(1);
    expect(analyze('ice cream').matches[0]!.matched).toBe('ice cream');
  });

  it('matches Arabic letter variants and a typo within one edit, a little weaker', () => {
    // ة/ه and أ/ا folding: "صيدليه" and "اكل" are the same words as "صيدلية" and "أكل"
    expect(analyze('صيدليه').categories.get('pharmacy')).toBe(1);
    const typo = analyze('hungyr');
    expect(typo.matches[0]).toMatchObject({ id: 'hungry', fuzzy: true });
    expect(typo.categories.get('restaurant')).toBeCloseTo(0.85);
    // short words get no typo budget: "fod" is not "food"
    expect(analyze('fod').matches).toEqual([]);
  });

  it('maps pizza to the cuisine amenity as well as to categories', () => {
    const pizza = analyze('بيتزا');
    expect(pizza.amenities.get('cuisine-pizza')).toBe(1);
    expect(pizza.categories.get('fast-food')).toBeGreaterThan(0);
  });

  it('finds nothing in a name it has no concept for', () => {
    expect(analyze('Tabarak').matches).toEqual([]);
    expect(analyze('').matches).toEqual([]);
  });
});

describe('category words', () => {
  const words = new CategoryWords();
  it('knows the taxonomy names and one-word aliases in both scripts and Arabizi', () => {
    expect(words.categoriesOf('pharmacy')).toContain('pharmacy');
    expect(words.categoriesOf(tokensOf('صيدلية')[0]!)).toContain('pharmacy');
    expect(words.categoriesOf('ahwa')).toContain('cafe');
    expect(words.categoriesOf('tabarak')).toEqual([]);
  });
});
