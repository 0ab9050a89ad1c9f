/** Narrative building blocks: distances and their Arabic grammar, ordinals, languages, transliteration. */
import { describe, expect, it } from 'vitest';
import { ManeuverType as T } from '../maneuver-types.js';
import { narrativeLanguage } from '../street-names.js';
import { transliterateArabic } from '../transliterate.js';
import { arabicExit, arabicPhrases } from './arabic.js';
import { arabicDigits, distancePhrase } from './distance-phrases.js';
import { englishOrdinal, englishPhrases } from './english.js';
import { alertDistance } from './narrative.js';
import type { PhraseInput } from './phrase-input.js';

const base: PhraseInput = {
  type: T.right,
  mode: 'drive',
  streetNames: [],
  previousNames: [],
  staysOnRoad: false,
  cardinal: 'north',
  roundaboutExitCount: 0,
  toward: [],
  lengthMeters: 500,
  units: 'kilometers',
};

describe('distance phrases', () => {
  it.each([
    [4, 'kilometers', '10 meters'],
    [123, 'kilometers', '120 meters'],
    [480, 'kilometers', '500 meters'],
    [996, 'kilometers', '1 kilometer'],
    [1260, 'kilometers', '1.3 kilometers'],
    [15_400, 'kilometers', '15 kilometers'],
    [50, 'miles', '160 feet'],
    [400, 'miles', '0.2 miles'],
    [1609.344, 'miles', '1 mile'],
  ] as const)('%d m in %s is "%s" in English', (meters, units, text) => {
    expect(distancePhrase(meters, units, 'en')).toBe(text);
  });

  it.each([
    [1000, 'كيلومتر واحد'],
    [2000, 'كيلومترين'],
    [5000, '٥ كيلومترات'],
    [12_000, '١٢ كيلومترًا'],
    [1500, '١٫٥ كيلومتر'],
    [10, '١٠ أمتار'],
    [50, '٥٠ مترًا'],
    [100, '١٠٠ متر'],
    [110, '١١٠ أمتار'],
    [350, '٣٥٠ مترًا'],
    [500, '٥٠٠ متر'],
  ] as const)('%d m is "%s" in Arabic (Arabic-Indic digits, counted-noun agreement)', (meters, text) => {
    expect(distancePhrase(meters, 'kilometers', 'ar')).toBe(text);
  });

  it('writes miles and feet in Arabic', () => {
    expect(distancePhrase(1609.344 * 3, 'miles', 'ar')).toBe('٣ أميال');
    expect(distancePhrase(30, 'miles', 'ar')).toBe('١٠٠ قدم');
    expect(arabicDigits('12.5')).toBe('١٢٫٥');
  });
});

describe('ordinals and languages', () => {
  it('orders exits', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22].map(englishOrdinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']);
    expect(arabicExit(1)).toBe('المخرج الأول');
    expect(arabicExit(5)).toBe('المخرج الخامس');
    expect(arabicExit(12)).toBe('المخرج رقم ١٢');
  });

  it('maps language tags: ar* to Arabic, everything else to English', () => {
    expect(['ar', 'ar-EG', 'AR_sa', 'en-US', 'en', 'fr', undefined, 'arabic'].map(narrativeLanguage)).toEqual(['ar', 'ar', 'ar', 'en', 'en', 'en', 'en', 'en']);
  });

  it('transliterates Arabic names with Cairo sign spellings', () => {
    expect(transliterateArabic('شارع عباس العقاد')).toBe('Sharia Abbas El-Akkad');
    expect(transliterateArabic('طريق السويس')).toBe('Tariq El-Suweis');
    expect(transliterateArabic('كوبري ٦ أكتوبر')).toBe('Kobri 6 October');
    expect(transliterateArabic('Ring Road')).toBe('Ring Road');
    expect(transliterateArabic('شارع وادي النيل')).toMatch(/^Sharia W[a-z]+ El-N[a-z]+$/);
  });
});

describe('templates', () => {
  it('writes turns, U-turns, forks and roundabouts in both languages', () => {
    const street = { streetNames: ['Al Tayaran Street'] };
    expect(englishPhrases({ ...base, ...street }).instruction).toBe('Turn right onto Al Tayaran Street.');
    expect(englishPhrases({ ...base, ...street, staysOnRoad: true, type: T.sharpLeft }).instruction).toBe('Make a sharp left to stay on Al Tayaran Street.');
    expect(englishPhrases({ ...base, type: T.stayRight, toward: ['Cairo Airport', 'Suez Road', 'Heliopolis'] }).instruction).toBe('Keep right toward Cairo Airport/Suez Road.');
    expect(englishPhrases({ ...base, type: T.roundaboutEnter, roundaboutExitCount: 2, ...street }).instruction).toBe('Enter the roundabout and take the 2nd exit onto Al Tayaran Street.');
    const arabicStreet = { streetNames: ['شارع الطيران'] };
    expect(arabicPhrases({ ...base, ...arabicStreet }).instruction).toBe('انعطف يمينًا إلى شارع الطيران.');
    expect(arabicPhrases({ ...base, ...arabicStreet, type: T.left }).instruction).toBe('انعطف يسارًا إلى شارع الطيران.');
    expect(arabicPhrases({ ...base, ...arabicStreet, type: T.roundaboutEnter, roundaboutExitCount: 2 }).instruction).toBe('عند الدوّار، اسلك المخرج الثاني إلى شارع الطيران.');
    expect(arabicPhrases({ ...base, ...arabicStreet, type: T.continue }).post).toBe('تابع على شارع الطيران لمسافة ٥٠٠ متر.');
    expect(arabicPhrases({ ...base, ...arabicStreet, alertMeters: 400 }).alert).toBe('بعد ٤٠٠ متر، انعطف يمينًا إلى شارع الطيران.');
    expect(englishPhrases({ ...base, ...street, alertMeters: 400 }).alert).toBe('In 400 meters, turn right onto Al Tayaran Street.');
    expect(englishPhrases({ ...base, type: T.becomes, previousNames: ['Al Islah Street'], streetNames: ['Al Taameer Street'], alertMeters: 200 }).alert).toBe('In 200 meters, Al Islah Street becomes Al Taameer Street.');
  });

  it('speaks the alert at the lead distance, or over a shorter approach, never under 25 m', () => {
    expect(alertDistance('drive', false, 2000)).toBe(400);
    expect(alertDistance('drive', true, 2000)).toBe(1000);
    expect(alertDistance('drive', false, 120)).toBe(120);
    expect(alertDistance('pedestrian', false, 120)).toBe(50);
    expect(alertDistance('drive', false, 10)).toBeUndefined();
  });
});
