import { describe, expect, it } from 'vitest';
import { analyzeQuery, searchDocumentOf } from './search-text.js';

describe('search documents', () => {
  it('holds the tokens of every name without articles, the skeletons and the short prefixes', () => {
    const document = searchDocumentOf({ nameEn: 'Wrd Al-Sham', nameAr: 'ورد الشام', tags: { alt_name: 'Ward El Sham;Wardelsham' } });
    expect(document.names).toEqual(['wrd sham', 'ورد شام', 'ward sham', 'wardelsham']);
    expect(document.doc).toContain(' شام ');
    expect(document.doc).toContain(' wardelsham ');
    expect(document.doc).toMatch(/ ~\w{3,} /);
    expect(document.prefixes).toEqual(expect.arrayContaining(['w', 'wr', 'ش', 'شا', '^w', '^wr', '^و', '^ور']));
    expect(document.prefixes).not.toContain('^ش');
  });

  it('is empty for a place without names', () => {
    expect(searchDocumentOf({ nameEn: null, nameAr: null, tags: {} })).toEqual({ doc: '', names: [], prefixes: [] });
  });
});

describe('queries', () => {
  it('folds Arabic variants, diacritics, tatweel and Arabic-Indic digits like the geocoder', () => {
    expect(analyzeQuery('صَيْدَلِيّـــة').tokens.map((token) => token.token)).toEqual(['صيدليه']);
    expect(analyzeQuery('إسعاف ١٢').tokens.map((token) => token.token)).toEqual(['اسعاف', '12']);
  });

  it('spells out chat-alphabet digits and reports the rewrite', () => {
    const query = analyzeQuery('7amza');
    expect(query.tokens[0]!.token).toBe('hamza');
    expect(query).toMatchObject({ normalized: 'hamza', rewritten: true });
    expect(analyzeQuery('kfc').rewritten).toBe(false);
  });

  it('keeps stopwords optional unless they are the whole query', () => {
    expect(analyzeQuery('the baker').tokens.map((token) => [token.token, token.optional])).toEqual([['the', true], ['baker', false]]);
    expect(analyzeQuery('the').tokens[0]!.optional).toBe(false);
  });
});
