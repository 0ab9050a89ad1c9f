/**
 * Speech preparation: real guidance of routes through Nasr City (English and
 * Arabic, as the engine writes it) read as a speech engine should say it, and
 * SSML that is well-formed, escaped and carries exactly the spoken text for
 * any input.
 */
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/errors.js';
import { speak } from './speak.js';
import { spokenArabic } from './spoken-arabic.js';
import { spokenEnglish } from './spoken-english.js';
import { plainText } from './plain-text.js';

/** Parses SSML; returns the root's attributes, the element names and the text content, or throws on malformed XML. */
function parseSsml(ssml: string): { root: string; attributes: Record<string, string>; elements: string[]; text: string } {
  const parser = new SaxesParser({ xmlns: true });
  const elements: string[] = [];
  let root = '';
  let attributes: Record<string, string> = {};
  let text = '';
  let error: Error | undefined;
  parser.on('error', (cause) => (error ??= cause));
  parser.on('opentag', (tag) => {
    if (!root) {
      root = tag.local;
      attributes = Object.fromEntries(Object.values(tag.attributes).map((attribute) => [attribute.name, attribute.value]));
    }
    elements.push(tag.local);
  });
  parser.on('text', (chunk) => (text += chunk));
  parser.write(ssml).close();
  if (error) throw error;
  return { root, attributes, elements, text };
}

describe('English guidance as spoken', () => {
  it.each([
    ["In 350 meters, turn left onto Al Ta'men Street.", "In three hundred fifty meters, turn left onto Al Ta'men Street."],
    ['Turn left. Then, in 40 meters, turn left onto Al Tayaran Street.', 'Turn left. Then, in forty meters, turn left onto Al Tayaran Street.'],
    ['Continue on Al Tayaran Street for 950 meters.', 'Continue on Al Tayaran Street for nine hundred fifty meters.'],
    ['Continue on Emarat Al Cinema Street for 1.3 kilometers.', 'Continue on Emarat Al Cinema Street for one point three kilometers.'],
    ['Enter the roundabout and take the 2nd exit onto Al Tayaran Street.', 'Enter the roundabout and take the second exit onto Al Tayaran Street.'],
    ['Drive west on Abd Al Aziz Eissa Street.', 'Drive west on Abd Al Aziz Eissa Street.'],
  ])('%s', (text, spoken) => {
    expect(spokenEnglish(text)).toBe(spoken);
  });

  it('spells out street types, units and unambiguous compass points, and leaves initials and codes alone', () => {
    expect(spokenEnglish('Head N on 5th Ave. for 1.5 km')).toBe('Head north on fifth Avenue for one point five kilometers');
    expect(spokenEnglish('Turn right onto N Main St. Then keep left.')).toBe('Turn right onto north Main Street. Then keep left.');
    expect(spokenEnglish('Turn right onto St. Mark St in 250 ft')).toBe('Turn right onto Saint Mark Street in two hundred fifty feet');
    expect(spokenEnglish('Turn left onto Dr. Hassan Al Sherif Rd.')).toBe('Turn left onto Doctor Hassan Al Sherif Road.');
    expect(spokenEnglish('Take Exit 12B toward E75 & Ring Rd, 1,200 m')).toBe('Take Exit 12B toward E75 and Ring Road, one thousand two hundred meters');
    expect(spokenEnglish('Ahmed S. Ali Street is 1 mi away at 60 km/h')).toBe('Ahmed S. Ali Street is one mile away at sixty kilometers per hour');
  });
});

describe('Arabic guidance as spoken', () => {
  it.each([
    ['بعد ٣٥٠ مترًا، انعطف يسارًا إلى شارع التأمين.', 'بعد ثلاثمائة وخمسين مترًا، انعطف يسارًا إلى شارع التأمين.'],
    ['انعطف يسارًا. ثم بعد ٤٠ مترًا، انعطف يسارًا إلى شارع الطيران.', 'انعطف يسارًا. ثم بعد أربعين مترًا، انعطف يسارًا إلى شارع الطيران.'],
    ['تابع على شارع التأمين لمسافة ١٠٠ متر.', 'تابع على شارع التأمين لمسافة مائة متر.'],
    ['تابع على شارع الطيران لمسافة ١٫٣ كيلومتر.', 'تابع على شارع الطيران لمسافة واحد فاصلة ثلاثة كيلومتر.'],
    ['اتجه نحو الجنوب الشرقي على شارع عمارات السينما.', 'اتجه نحو الجنوب الشرقي على شارع عمارات السينما.'],
  ])('%s', (text, spoken) => {
    expect(spokenArabic(text)).toBe(spoken);
  });

  it('reads either digit set, counts abbreviated units with the right noun, and spells street abbreviations', () => {
    expect(spokenArabic('تابع على ش. التسعين لمسافة ٥ كم')).toBe('تابع على شارع التسعين لمسافة خمسة كيلومترات');
    expect(spokenArabic('بعد ۱۲۰ م انعطف يمينًا')).toBe('بعد مائة وعشرين مترًا انعطف يمينًا');
    expect(spokenArabic('تابع لمسافة 1 كم ثم 2 كم على ط. السويس')).toBe('تابع لمسافة كيلومتر واحد ثم كيلومترين على طريق السويس');
    expect(spokenArabic('انعطف إلى شارع د. حسن الشريف بعد ٢٢ مترًا')).toBe('انعطف إلى شارع دكتور حسن الشريف بعد اثنين وعشرين مترًا');
    expect(spokenArabic('بعد ٢٠٠٠ متر')).toBe('بعد ألفين متر');
    expect(spokenArabic('مليون ٣٠')).toBe('مليون ثلاثين');
  });
});

describe('speak', () => {
  it('answers the language, the normalized text and SSML in that language', () => {
    const english = speak({ text: 'In 350 meters, turn left. Then turn right onto شارع الطيران.' });
    expect(english).toMatchObject({ provider: 'svc-navigation', language: 'en-US', text: 'In three hundred fifty meters, turn left. Then turn right onto شارع الطيران.' });
    const parsed = parseSsml(english.ssml);
    expect(parsed.root).toBe('speak');
    expect(parsed.attributes['xml:lang']).toBe('en-US');
    expect(parsed.elements).toEqual(['speak', 'break', 'lang']);
    expect(english).not.toHaveProperty('audioUrl');
    const arabic = speak({ text: 'بعد ٣٥٠ مترًا، انعطف يسارًا', language: 'AR-eg' });
    expect(arabic.language).toBe('ar-EG');
    expect(parseSsml(arabic.ssml).attributes['xml:lang']).toBe('ar-EG');
  });

  it('detects Arabic text without a language, speaks the chosen maneuver cue, and announces a distance ahead', () => {
    expect(speak({ text: 'انعطف يسارًا إلى شارع الطيران.' }).language).toBe('ar');
    const maneuver = { instruction: 'Turn left onto Al Tayaran Street.', verbalPre: 'Turn left onto Al Tayaran Street. Then turn right.', verbalPost: 'Continue for 40 meters.' };
    expect(speak({ maneuver }).text).toBe('Turn left onto Al Tayaran Street. Then turn right.');
    expect(speak({ maneuver, cue: 'post' }).text).toBe('Continue for forty meters.');
    expect(speak({ maneuver, cue: 'instruction', distanceMeters: 230 }).text).toBe('In two hundred thirty meters, turn left onto Al Tayaran Street.');
    expect(speak({ maneuver, cue: 'instruction', distanceMeters: 400, units: 'miles' }).text).toBe('In zero point two miles, turn left onto Al Tayaran Street.');
    expect(speak({ maneuver: { instruction: 'انعطف يسارًا.' }, distanceMeters: 50, language: 'ar' }).text).toBe('بعد خمسين مترًا، انعطف يسارًا.');
  });

  it('spells codes in SSML and strips markup from the input', () => {
    const spoken = speak({ text: '<p>Take Exit <b>12B</b> &amp; keep right</p>' });
    expect(spoken.text).toBe('Take Exit 12B and keep right');
    expect(spoken.ssml).toContain('<say-as interpret-as="characters">12B</say-as>');
  });

  it('refuses text that is empty once markup is removed', () => {
    expect(() => speak({ text: '<b> </b>' })).toThrow(ApiError);
    expect(() => speak({ maneuver: {} })).toThrow(ApiError);
  });

  it('makes well-formed SSML whose text is exactly the normalized text, for any input', () => {
    const anyText = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ unit: fc.constantFrom(...'<>&"\' ./-;#x12ABab٣٥٠ش.مكم\u061F?!\u0000\uD800'.split('')), maxLength: 80 }),
    );
    fc.assert(
      fc.property(anyText, fc.constantFrom('en-US', 'ar-EG', 'ar', 'en'), (text, language) => {
        let spoken;
        try {
          spoken = speak({ text, language });
        } catch (error) {
          // only input with nothing to say is refused
          expect(error).toBeInstanceOf(ApiError);
          expect(plainText(text)).toBe('');
          return;
        }
        const parsed = parseSsml(spoken.ssml);
        expect(parsed.root).toBe('speak');
        expect(parsed.attributes['xml:lang']).toBe(spoken.language);
        expect(parsed.text).toBe(spoken.text);
      }),
      { numRuns: 500 },
    );
  });
});
