/**
 * Turns whatever a client sends to be spoken into plain text: markup (HTML,
 * SSML) stripped, character references decoded, characters XML cannot carry
 * (controls, unpaired surrogates) dropped, whitespace collapsed.
 */

/** Keyed by the client's text: a Map, so no entity name can reach an object's prototype. */
const NAMED_ENTITIES = new Map<string, string>([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', ' '],
]);
/** XML 1.0 excludes C0 controls but tab/newline/carriage return, U+FFFE/U+FFFF, and surrogates not in a pair. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|\p{Cs}/gu;
/** Bidirectional and zero-width formatting marks: invisible, and meaningless to a speech engine. */
const FORMATTING = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

function decodeEntity(entity: string, body: string): string {
  if (body.startsWith('#')) {
    const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  }
  return NAMED_ENTITIES.get(body.toLowerCase()) ?? entity;
}

export function plainText(input: string): string {
  return (
    input
      // tags go first, so an escaped "&lt;b&gt;" the client meant as text survives as "<b>"
      .replace(/<[^<>]*>/g, ' ')
      .replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,6});/g, (entity, body: string) => decodeEntity(entity, body))
      .replace(NOT_XML, '')
      .replace(FORMATTING, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

const ARABIC_LETTER = /[\u0600-\u06FF\u0750-\u077F]/g;
const LATIN_LETTER = /[A-Za-z]/g;

/** The language a text is written in, by its letters: more Arabic than Latin letters is Arabic. */
export function detectLanguage(text: string): 'ar' | 'en' {
  const arabic = text.match(ARABIC_LETTER)?.length ?? 0;
  const latin = text.match(LATIN_LETTER)?.length ?? 0;
  return arabic > latin ? 'ar' : 'en';
}

/** Arabic-Indic (٠–٩) and Persian (۰–۹) digits to ASCII, and the Arabic decimal and thousands separators. */
export function asciiDigits(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.codePointAt(0)! - 0x0660))
    .replace(/[\u06F0-\u06F9]/g, (digit) => String(digit.codePointAt(0)! - 0x06f0))
    .replace(/(?<=\d)\u066B(?=\d)/g, '.')
    .replace(/(?<=\d)\u066C(?=\d)/g, ',');
}
