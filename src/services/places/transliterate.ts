/**
 * Display transliteration between Arabic and Latin script, for a place that has a name in one script
 * only (spec part 2 §2.4 `nameEn`/`nameAr`; the record marks such names as transliterated). Arabic
 * writes no short vowels, so Arabic → Latin gives a readable consonant skeleton with long vowels
 * (`مستشفى السلام` → `Mastshfa Al-Slam`), not a translation; Latin → Arabic spells by sound
 * (`Benos Cafe` → `بنوس كافي`). Also used for URL slugs.
 */

const ARABIC_TO_LATIN: Record<string, string> = {
  'ا': 'a', 'أ': 'a', 'إ': 'i', 'آ': 'aa', 'ء': '', 'ؤ': 'o', 'ئ': 'e', 'ب': 'b', 'ت': 't', 'ث': 'th', 'ج': 'g',
  'ح': 'h', 'خ': 'kh', 'د': 'd', 'ذ': 'z', 'ر': 'r', 'ز': 'z', 'س': 's', 'ش': 'sh', 'ص': 's', 'ض': 'd', 'ط': 't',
  'ظ': 'z', 'ع': 'a', 'غ': 'gh', 'ف': 'f', 'ق': 'q', 'ك': 'k', 'ل': 'l', 'م': 'm', 'ن': 'n', 'ه': 'h', 'ة': 'a',
  'و': 'w', 'ي': 'y', 'ى': 'a', 'پ': 'p', 'چ': 'ch', 'ڤ': 'v', 'گ': 'g',
  '٠': '0', '١': '1', '٢': '2', '٣': '3', '٤': '4', '٥': '5', '٦': '6', '٧': '7', '٨': '8', '٩': '9', '،': ',', '؛': ';', '؟': '?',
};
const ARABIC_MARKS = /[\u064B-\u065F\u0670\u0640]/g;

const LATIN_DIGRAPHS: readonly [string, string][] = [
  ['sh', 'ش'], ['ch', 'تش'], ['kh', 'خ'], ['gh', 'غ'], ['th', 'ث'], ['dh', 'ذ'], ['ph', 'ف'], ['ou', 'و'], ['oo', 'و'], ['ee', 'ي'], ['ck', 'ك'], ['qu', 'كو'],
];
const LATIN_TO_ARABIC: Record<string, string> = {
  a: 'ا', b: 'ب', c: 'ك', d: 'د', e: 'ي', f: 'ف', g: 'ج', h: 'ه', i: 'ي', j: 'ج', k: 'ك', l: 'ل', m: 'م', n: 'ن', o: 'و',
  p: 'ب', q: 'ق', r: 'ر', s: 'س', t: 'ت', u: 'و', v: 'ف', w: 'و', x: 'كس', y: 'ي', z: 'ز',
};
const LATIN_VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

const LONG_VOWELS = new Set(['ا', 'أ', 'إ', 'آ', 'و', 'ي', 'ى', 'ة', 'ع']);

function latinWord(word: string): string {
  const letters = [...word.replace(ARABIC_MARKS, '')];
  const parts = letters.map((letter, index) => {
    const last = index === letters.length - 1;
    if (letter === 'و') return index === 0 ? 'w' : 'o';
    if (letter === 'ي') return index === 0 ? 'y' : last ? 'i' : LONG_VOWELS.has(letters[index - 1]!) ? 'y' : 'i';
    return ARABIC_TO_LATIN[letter] ?? letter;
  });
  // unwritten short vowel: a word that starts with two consonants gets an "a" between them (نصر → Nasr, مدرسة → Madrsa)
  const consonant = (letter: string | undefined) => letter !== undefined && /[a-z]/.test(ARABIC_TO_LATIN[letter] ?? '') && !LONG_VOWELS.has(letter);
  if (letters.length > 2 && consonant(letters[0]) && consonant(letters[1])) parts[0] += 'a';
  return parts.join('').replace(/(.)\1{2,}/g, '$1$1');
}

/** Arabic script → Latin, title-cased words; the article ال becomes `Al-` (`El-` is as common; one is picked). */
export function arabicToLatin(text: string): string {
  return text
    .trim()
    .split(/\s+/)
    .map((word) => {
      const article = /^(ال|وال|بال)(.+)$/.exec(word);
      const body = latinWord(article ? article[2]! : word);
      const titled = body.charAt(0).toUpperCase() + body.slice(1);
      return article ? `Al-${titled}` : titled;
    })
    .join(' ');
}

/** Latin script → Arabic by sound; digits and punctuation kept. */
export function latinToArabic(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .map((original) => {
      // doubled letters are one sound (coffee, FullMoon)
      const word = original.replace(/([a-z])\1+/g, '$1');
      let out = '';
      for (let index = 0; index < word.length; index++) {
        const pair = word.slice(index, index + 2);
        const digraph = LATIN_DIGRAPHS.find(([latin]) => latin === pair);
        if (digraph) {
          out += digraph[1];
          index++;
          continue;
        }
        const letter = word[index]!;
        if (LATIN_VOWELS.has(letter)) {
          const first = index === 0;
          const last = index === word.length - 1;
          // a leading vowel is carried by an alef; an inner e is a short vowel (unwritten); a final a is an alef
          if (first) out += letter === 'i' || letter === 'e' ? 'إ' : letter === 'o' || letter === 'u' ? 'أو' : 'أ';
          else if (letter === 'e') out += last ? 'ي' : '';
          else out += LATIN_TO_ARABIC[letter];
          continue;
        }
        out += LATIN_TO_ARABIC[letter] ?? letter;
      }
      return out;
    })
    .join(' ');
}

/** A URL slug of a name in any script: lower-case Latin words joined by dashes, at most 60 characters. */
export function slugOf(name: string): string {
  const latin = /[\u0600-\u06FF]/.test(name) ? arabicToLatin(name) : name;
  const slug = latin
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return slug || 'place';
}
