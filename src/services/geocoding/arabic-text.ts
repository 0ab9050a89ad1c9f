/**
 * Text normalization shared by the geocoding index and its queries: the same
 * functions run on both sides, so a query matches whatever spelling the data
 * used. Rules (docs/geocoding.md lists them with examples):
 *
 * - Unicode NFKC (presentation forms, full-width digits), lower case, Latin accents dropped.
 * - Arabic: diacritics U+064B–U+065F, U+0670 and Quranic marks removed, tatweel removed,
 *   alef variants أ إ آ ٱ → ا, ة → ه, ى → ي, ؤ → و, ئ → ي, a lone ء dropped, Persian ک ی → ك ي.
 * - Arabic-Indic (U+0660–0669) and Persian (U+06F0–06F9) digits → ASCII.
 * - Chat alphabet: a digit inside a Latin word stands for a letter (2 ء, 3 ع, 3' غ, 5 خ, 6 ط,
 *   6' ظ, 7 ح, 8 ق, 9 ص, 9' ض); `chatToLatin` rewrites it to its usual Latin spelling.
 * - Tokens: the Arabic definite article (ال, وال) and Latin al-/el-/ash- … are not part of the
 *   token, so "الشميساني" and "شميساني", "al-Salt" and "Salt" are the same token.
 * - `phoneticKeys` gives a consonant skeleton that Arabic and Latin spellings share, so
 *   "shmeisani" meets "شميساني" and "Jebel" meets "Jabal".
 */

const ARABIC_MARKS = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/g;
const LATIN_MARKS = /[\u0300-\u036f]/g;
const NEEDS_NFKC = /[\u00A0-\u00FF\u2000-\u206F\uFB00-\uFDFF\uFE70-\uFEFF\uFF00-\uFFEF]/;
const NEEDS_NFD = /[\u00C0-\u024F\u1E00-\u1EFF\u0300-\u036f]/;
const LETTER_FOLDS: Record<string, string> = {
  'أ': 'ا',
  'إ': 'ا',
  'آ': 'ا',
  'ٱ': 'ا',
  'ة': 'ه',
  'ى': 'ي',
  'ؤ': 'و',
  'ئ': 'ي',
  'ء': '',
  'ک': 'ك',
  'ی': 'ي',
  'ے': 'ي',
};
const FOLDABLE = /[أإآٱةىؤئءکیے]/g;
const EASTERN_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;

const ARABIC_LETTER = /[\u0621-\u064A]/;
const LATIN_LETTER = /[a-z]/;

/**
 * Folds letter variants, marks and digits; keeps word boundaries as single spaces.
 * The result is what a user "meant" to type, still readable (articles and words kept).
 */
export function foldText(input: string, options: { dropLatinArticles?: boolean } = {}): string {
  // Unicode normalization is the slow part: only for text with presentation forms, full-width or accented letters
  let text = NEEDS_NFKC.test(input) ? input.normalize('NFKC').toLowerCase() : input.toLowerCase();
  if (NEEDS_NFD.test(text)) text = text.normalize('NFD').replace(LATIN_MARKS, '').normalize('NFC');
  text = text.replace(ARABIC_MARKS, '');
  text = text.replace(FOLDABLE, (letter) => LETTER_FOLDS[letter] ?? letter);
  text = text.replace(EASTERN_DIGITS, (digit) => String((digit.charCodeAt(0) & 0x0f) % 10));
  // chat-alphabet apostrophes (3' 6' 9') are letters; other apostrophes join the word ("ma'an" → "maan")
  text = text.replace(/([369])['’‘`]/g, '$1\u0000').replace(/['’‘`ʻʼʿ]/g, '').replace(/\u0000/g, "'");
  // Latin article glued with a hyphen: al-, el-, ash-, es- … (sun-letter assimilation)
  if (options.dropLatinArticles) text = text.replace(/(^|[^a-z])(?:a|e|i|u)(?:l|sh|s|d|r|t|z|n|th|dh)-(?=[a-z0-9])/g, '$1');
  text = text.replace(/[^\p{L}\p{N}']+/gu, ' ');
  return text.trim();
}

/** Whether a folded word is Latin letters mixed with chat-alphabet digits (e.g. "3abdoun", "7ay", "zar2a"). */
export function isChatWord(word: string): boolean {
  return /[a-z]/.test(word) && /[2356789]/.test(word) && /^[a-z0-9']+$/.test(word) && !/^\d{2,}[a-z]*$|^\d[a-z]?$/.test(word);
}

const CHAT_LETTERS: [RegExp, string][] = [
  [/3'/g, 'gh'],
  [/6'/g, 'z'],
  [/9'/g, 'd'],
  [/2/g, "'"],
  [/3/g, "'"],
  [/5/g, 'kh'],
  [/6/g, 't'],
  [/7/g, 'h'],
  [/8/g, 'q'],
  [/9/g, 's'],
];

/** Rewrites chat-alphabet digits in a Latin word to their usual Latin spelling ("7ay" → "hay", "3abdoun" → "abdoun"). */
export function chatToLatin(word: string): string {
  if (!isChatWord(word)) return word;
  let latin = word;
  for (const [pattern, letters] of CHAT_LETTERS) latin = latin.replace(pattern, letters);
  return latin.replace(/^'+|'+$/g, '').replace(/'/g, '');
}

/** The folded query as the user would read it back, with chat digits spelled out; equal to the fold of the input when nothing changed. */
export function rewriteQuery(input: string): string {
  return foldText(input)
    .split(' ')
    .map((word) => chatToLatin(word))
    .filter(Boolean)
    .join(' ');
}

/** True when `rewriteQuery` changed more than letter case and spacing. */
export function queryWasRewritten(input: string, rewritten: string): boolean {
  return input.trim().replace(/\s+/g, ' ').toLowerCase() !== rewritten;
}

const LATIN_ARTICLES = new Set(['al', 'el', 'il', 'ul']);
/** Keyed by words of a query: a Map, since an object would answer "constructor" from its prototype. */
const LATIN_SPELLINGS = new Map<string, string>([
  ['jebel', 'jabal'],
  ['jbel', 'jabal'],
  ['gebel', 'jabal'],
  ['jabel', 'jabal'],
  ['wady', 'wadi'],
  ['abou', 'abu'],
  ['abo', 'abu'],
  ['om', 'umm'],
  ['um', 'umm'],
  ['st', 'street'],
  ['rd', 'road'],
  ['sq', 'square'],
  ['ave', 'avenue'],
  ['av', 'avenue'],
  ['bd', 'boulevard'],
  ['blvd', 'boulevard'],
]);

/** One word of a name or query without its definite article, in a canonical spelling. */
export function stripArticle(word: string): string {
  if (ARABIC_LETTER.test(word)) {
    if (word.startsWith('وال') && word.length > 4) return word.slice(3);
    if (word.startsWith('ال') && word.length > 3) return word.slice(2);
    return word;
  }
  return LATIN_SPELLINGS.get(word) ?? word;
}

/** A token and the spelling its phonetic keys come from (a chat word keeps its digits: 7 is ح, not "h"). */
export interface TextToken {
  token: string;
  spelling: string;
  /** A second reading of an ambiguous word: "3a" is a house number or chat-alphabet "a" (عـ). */
  alternative?: string;
}

/**
 * Index/query tokens of a text: folded, chat words spelled out, articles removed.
 * A Latin article standing alone ("al", "el") is dropped unless it is the only word.
 */
export function analyze(text: string): TextToken[] {
  const words = foldText(text, { dropLatinArticles: true }).split(' ').filter(Boolean);
  const tokens: TextToken[] = [];
  for (const word of words) {
    const latin = chatToLatin(word);
    if (words.length > 1 && LATIN_ARTICLES.has(latin)) continue;
    const token = stripArticle(latin);
    if (!token) continue;
    // "3a": a house number or chat-alphabet "a"; "الن": the article and the first letter of a word being typed
    const alternative = /^[2356789][a-z]$/.test(word) ? stripArticle(word.slice(1)) : /^ال[\u0621-\u064A]$/.test(word) ? word.slice(2) : undefined;
    tokens.push({ token, spelling: latin === word ? token : word, ...(alternative ? { alternative } : {}) });
  }
  return tokens;
}

export function tokenize(text: string): string[] {
  return analyze(text).map((entry) => entry.token);
}

/**
 * Words that only say what kind of thing a name is ("street", "district", "شارع", "لواء").
 * They are optional in a query: "Ain Albasha" finds "Ain Albasha District".
 */
export const GENERIC_WORDS = new Set([
  'شارع',
  'ش',
  'طريق',
  'ميدان',
  'ساحه',
  'لواء',
  'لوا',
  'قضاء',
  'قضا',
  'ناحيه',
  'محافظه',
  'مقاطعه',
  'حي',
  'منطقه',
  'و',
  'w',
  'wa',
  'and',
  'of',
  'the',
  'street',
  'road',
  'square',
  'avenue',
  'district',
  'sub',
  'subdistrict',
  'governorate',
  'area',
  'neighbourhood',
  'neighborhood',
  'hay',
  'hai',
  'shari',
  'sharia',
  'tariq',
  'midan',
  'maydan',
]);

export function isGeneric(token: string): boolean {
  return GENERIC_WORDS.has(token);
}

export function isArabicToken(token: string): boolean {
  return ARABIC_LETTER.test(token);
}

export function isLatinToken(token: string): boolean {
  return LATIN_LETTER.test(token) && !ARABIC_LETTER.test(token);
}

// Consonant classes Arabic and Latin spellings share. Vowels, و and ي (often written as vowels),
// ع and hamza (usually unwritten or "a") carry no consonant.
const ARABIC_KEYS: Record<string, string[]> = {
  'ا': [''],
  'ب': ['b'],
  'ت': ['t'],
  'ث': ['t', 's'],
  'ج': ['j'],
  'ح': ['h'],
  'خ': ['x'],
  'د': ['d'],
  'ذ': ['d', 'z'],
  'ر': ['r'],
  'ز': ['z'],
  'س': ['s'],
  'ش': ['c'],
  'ص': ['s'],
  'ض': ['d'],
  'ط': ['t'],
  'ظ': ['z', 'd'],
  'ع': [''],
  'غ': ['g'],
  'ف': ['f'],
  // ق is q/k in most transliterations and a glottal stop (2) in Cairo and the Levant
  'ق': ['k', ''],
  'ك': ['k'],
  'ل': ['l'],
  'م': ['m'],
  'ن': ['n'],
  'ه': ['h'],
  'و': [''],
  'ي': [''],
};

const LATIN_DIGRAPHS: Record<string, string> = { "3'": 'g', "6'": 'z', "9'": 'd', sh: 'c', ch: 'c', kh: 'x', gh: 'g', th: 't', dh: 'd', ph: 'f', ck: 'k' };
const LATIN_KEYS: Record<string, string> = {
  b: 'b',
  p: 'b',
  t: 't',
  j: 'j',
  g: 'j',
  d: 'd',
  z: 'z',
  s: 's',
  c: 'k',
  k: 'k',
  q: 'k',
  x: 'x',
  h: 'h',
  f: 'f',
  v: 'f',
  l: 'l',
  m: 'm',
  n: 'n',
  r: 'r',
  '5': 'x',
  '6': 't',
  '7': 'h',
  '8': 'k',
  '9': 's',
};

const MAX_KEYS = 8;

function finishKey(raw: string): string {
  let key = '';
  for (const letter of raw) if (letter !== key[key.length - 1]) key += letter;
  // a final ه/h is mostly the feminine ending (ة, -ah, -eh) that transliterations drop or keep at will
  if (key.length > 1 && key.endsWith('h')) key = key.slice(0, -1);
  return key;
}

/**
 * Consonant skeletons of a token (several for Arabic letters with more than one usual
 * transliteration). Digits-only tokens have none.
 */
export function phoneticKeys(token: string): string[] {
  if (/^\d+$/.test(token)) return [];
  if (isArabicToken(token)) {
    let keys = [''];
    const letters = [...token];
    letters.forEach((letter, position) => {
      let options = ARABIC_KEYS[letter] ?? (/\d/.test(letter) ? [letter] : ['']);
      // construct-state ة: "madinet", "rabaat"
      if (letter === 'ه' && position === letters.length - 1 && position > 1) options = ['h', 't'];
      if (options.length === 1) keys = keys.map((key) => key + options[0]);
      else keys = keys.flatMap((key) => options.map((option) => key + option)).slice(0, MAX_KEYS);
    });
    return [...new Set(keys.map(finishKey))].filter(Boolean);
  }
  let raw = '';
  for (let index = 0; index < token.length; index++) {
    const pair = token.slice(index, index + 2);
    const digraph = LATIN_DIGRAPHS[pair];
    if (digraph) {
      raw += digraph;
      index++;
      continue;
    }
    raw += LATIN_KEYS[token[index]!] ?? (/\d/.test(token[index]!) && !isChatWord(token) ? token[index] : '');
  }
  const key = finishKey(raw);
  return key ? [key] : [];
}

