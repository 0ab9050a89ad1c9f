import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arabicToLatin, latinToArabic, slugOf } from './transliterate.js';

describe('transliteration', () => {
  it('writes Arabic names of the default data in Latin letters, article as Al-', () => {
    expect(arabicToLatin('نصر سنتر')).toBe('Nasr Santr');
    expect(arabicToLatin('حديقة الورد')).toBe('Hadiqa Al-Wrd');
    expect(arabicToLatin('البنك الاهلي المصرى')).toBe('Al-Bank Al-Ahli Al-Masra');
    expect(arabicToLatin('كشرى زيزو')).toBe('Kashra Zizo');
    // diacritics and tatweel carry nothing
    expect(arabicToLatin('مَسْجِد')).toBe(arabicToLatin('مسجد'));
    expect(arabicToLatin('مـسـجـد')).toBe(arabicToLatin('مسجد'));
  });

  it('spells Latin names in Arabic letters by sound', () => {
    expect(latinToArabic('Total')).toBe('توتال');
    expect(latinToArabic('tigo coffee shop')).toBe('تيجو كوفي شوب');
    expect(latinToArabic('Benos Cafe')).toBe('بنوس كافي');
  });

  it('makes URL slugs of any name', () => {
    expect(slugOf('Tabarak for Children')).toBe('tabarak-for-children');
    expect(slugOf('Fit & Fix')).toBe('fit-and-fix');
    expect(slugOf('Café Riche')).toBe('cafe-riche');
    expect(slugOf('نصر سنتر')).toBe('nasr-santr');
    expect(slugOf('!!!')).toBe('place');
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (name) => {
        const slug = slugOf(name);
        expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(slug.length).toBeLessThanOrEqual(60);
      }),
    );
  });
});
