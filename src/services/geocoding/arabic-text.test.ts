import { describe, expect, it } from 'vitest';
import { analyze, chatToLatin, foldText, isChatWord, phoneticKeys, queryWasRewritten, rewriteQuery, tokenize } from './arabic-text.js';

const keys = (text: string) => analyze(text).map((token) => phoneticKeys(token.spelling));

describe('Arabic folding (index and query alike)', () => {
  it('folds the alef variants أ إ آ ٱ to ا', () => {
    expect(foldText('أحمد إربد آمنة ٱلله')).toBe('احمد اربد امنه الله');
  });

  it('folds ta marbuta to ha and alef maqsura to ya', () => {
    expect(foldText('مدينة مصطفى')).toBe('مدينه مصطفي');
  });

  it('folds hamza carriers ؤ → و and ئ → ي, and drops a lone hamza', () => {
    expect(foldText('مؤتة')).toBe('موته');
    expect(foldText('الطائي')).toBe('الطايي');
    expect(foldText('الزرقاء')).toBe('الزرقا');
  });

  it('removes diacritics U+064B–U+065F and U+0670, and tatweel', () => {
    expect(foldText('الشُّمَيْسَانِي')).toBe('الشميساني');
    expect(foldText('رَحْمٰن')).toBe('رحمن');
    expect(foldText('عـــمان')).toBe('عمان');
  });

  it('turns Arabic-Indic and Persian digits into ASCII', () => {
    expect(foldText('منطقة ٦')).toBe('منطقه 6');
    expect(foldText('۱۲۳ ٤٥')).toBe('123 45');
  });

  it('maps presentation forms and Persian letters to the base letters', () => {
    expect(foldText('\uFEDB\uFEE4\uFE8E\uFEDD')).toBe('كمال');
    expect(foldText('کی')).toBe('كي');
  });

  it('lower-cases Latin text and drops its accents and apostrophes', () => {
    expect(foldText("Ma'an Café")).toBe('maan cafe');
  });
});

describe('definite article', () => {
  it('makes "الشميساني" and "شميساني" the same token', () => {
    expect(tokenize('الشميساني')).toEqual(tokenize('شميساني'));
    expect(tokenize('والفحيص')).toEqual(['فحيص']);
  });

  it('drops Latin al-/el-/ash- and a standalone al/el', () => {
    expect(tokenize('al-Salt')).toEqual(['salt']);
    expect(tokenize('Ash-Shmeisani')).toEqual(['shmeisani']);
    expect(tokenize('El Golf')).toEqual(['golf']);
    expect(tokenize('el')).toEqual(['el']);
  });

  it('keeps short words that only look like an article', () => {
    expect(tokenize('الف')).toEqual(['الف']);
  });
});

describe('chat alphabet (Arabizi)', () => {
  it('reads digits inside Latin words as letters', () => {
    expect(chatToLatin('7ay')).toBe('hay');
    expect(chatToLatin('3abdoun')).toBe('abdoun');
    expect(chatToLatin('5alda')).toBe('khalda');
    expect(chatToLatin("3'or")).toBe('ghor');
    expect(chatToLatin('6ayba')).toBe('tayba');
    expect(chatToLatin('8a6raneh')).toBe('qatraneh');
    expect(chatToLatin('9afi')).toBe('safi');
  });

  it('leaves numbers and house numbers alone', () => {
    expect(isChatWord('33')).toBe(false);
    expect(isChatWord('18r')).toBe(false);
    expect(isChatWord('3a')).toBe(false);
    expect(chatToLatin('80')).toBe('80');
  });

  it('gives the same consonant skeleton to Arabic and chat spellings', () => {
    expect(keys('shmeisani')[0]).toEqual(expect.arrayContaining(keys('الشميساني')[0]!));
    expect(keys('sweileh')).toEqual(keys('صويلح'));
    expect(keys('3abdoun')).toEqual(keys('عبدون'));
    expect(keys('7ay nazzal')).toEqual(keys('حي نزال'));
    // ق is both q and the Cairene/Levantine glottal stop (2)
    expect(keys('الزرقاء')[0]).toEqual(expect.arrayContaining([...keys('zarqa')[0]!, ...keys('zar2a')[0]!]));
    // ة in construct state: "madinet"
    expect(keys('مدينة')[0]).toEqual(expect.arrayContaining(keys('madinet')[0]!));
  });

  it('matches English transliteration variants: Jabal/Jebel, Wadi/Wady, al-/el-', () => {
    expect(tokenize('Jebel Amman')).toEqual(tokenize('Jabal Amman'));
    expect(tokenize('Wady Rum')).toEqual(tokenize('Wadi Rum'));
    expect(tokenize('el-Hashimi')).toEqual(tokenize('al-Hashimi'));
    expect(keys('Jebel')).toEqual(keys('جبل'));
  });
});

describe('normalizedQuery', () => {
  it('is the rewritten query when letters, diacritics or chat digits changed', () => {
    expect(rewriteQuery('الشُّمَيساني')).toBe('الشميساني');
    expect(queryWasRewritten('الشُّمَيساني', rewriteQuery('الشُّمَيساني'))).toBe(true);
    expect(rewriteQuery('7ay nazzal')).toBe('hay nazzal');
    expect(queryWasRewritten('7ay nazzal', rewriteQuery('7ay nazzal'))).toBe(true);
  });

  it('is not a rewrite when only case or spacing differ', () => {
    expect(queryWasRewritten('  Zarqa  ', rewriteQuery('  Zarqa  '))).toBe(false);
    expect(queryWasRewritten('شارع النهر', rewriteQuery('شارع النهر'))).toBe(false);
  });
});
