/**
 * A small Arabic → Latin transliteration for street names that carry no
 * `name:en`. It follows the conventions of Cairo street signs rather than a
 * scholarly scheme: common words get their sign spellings (شارع → Sharia,
 * ميدان → Midan, طريق → Tariq, كوبري → Kobri), the article is "El-" as on
 * Egyptian signs (sun letters assimilate: الشهيد → El-Shahid), short vowels
 * (absent from the script) are not invented except an "a" between two
 * consonants that would otherwise run together. Digits become Western digits.
 */

const WORDS: Record<string, string> = {
  شارع: 'Sharia',
  ش: 'Sh.',
  طريق: 'Tariq',
  ميدان: 'Midan',
  كوبري: 'Kobri',
  كوبرى: 'Kobri',
  كوبرئ: 'Kobri',
  محور: 'Mehwar',
  حارة: 'Hara',
  عطفة: 'Atfet',
  ممر: 'Mamar',
  نفق: 'Nafaq',
  دوران: 'Dawaran',
  مدينة: 'Madinet',
  مصر: 'Masr',
  القاهرة: 'El-Qahira',
  الجديدة: 'El-Gedida',
  عبد: 'Abd',
  محمد: 'Mohamed',
  أحمد: 'Ahmed',
  مصطفى: 'Mostafa',
  النصر: 'El-Nasr',
  عباس: 'Abbas',
  العقاد: 'El-Akkad',
  مكرم: 'Makram',
  عبيد: 'Ebeid',
  الطيران: 'El-Tayaran',
  يوسف: 'Youssef',
  حسن: 'Hassan',
  على: 'Ali',
  علي: 'Ali',
  إبراهيم: 'Ibrahim',
  ابراهيم: 'Ibrahim',
  عمر: 'Omar',
  بن: 'Ibn',
  السويس: 'El-Suweis',
  العروبة: 'El-Orouba',
  الخليفة: 'El-Khalifa',
  المأمون: 'El-Mamoun',
  أكتوبر: 'October',
  اكتوبر: 'October',
  الثورة: 'El-Thawra',
  النزهة: 'El-Nozha',
  مطار: 'Matar',
};

const LETTERS: Record<string, string> = {
  ا: 'a',
  أ: 'a',
  إ: 'e',
  آ: 'a',
  ٱ: 'a',
  ء: '',
  ئ: "'",
  ؤ: "'",
  ب: 'b',
  ت: 't',
  ث: 'th',
  ج: 'g',
  ح: 'h',
  خ: 'kh',
  د: 'd',
  ذ: 'z',
  ر: 'r',
  ز: 'z',
  س: 's',
  ش: 'sh',
  ص: 's',
  ض: 'd',
  ط: 't',
  ظ: 'z',
  ع: "'",
  غ: 'gh',
  ف: 'f',
  ق: 'q',
  ك: 'k',
  ل: 'l',
  م: 'm',
  ن: 'n',
  ه: 'h',
  ة: 'a',
  و: 'o',
  ي: 'i',
  ى: 'a',
  پ: 'p',
  چ: 'ch',
  ڤ: 'v',
  گ: 'g',
};

/** Sun letters: the article's l assimilates to them (الشمس → esh-shams, written El-Sh… on signs). */
const SUN_LETTERS = new Set(['ت', 'ث', 'د', 'ذ', 'ر', 'ز', 'س', 'ش', 'ص', 'ض', 'ط', 'ظ', 'ل', 'ن']);
const VOWEL_LETTERS = new Set(['ا', 'أ', 'إ', 'آ', 'و', 'ي', 'ى', 'ة']);
const DIACRITICS = /[\u064B-\u065F\u0670\u0640]/g;
const ARABIC = /[\u0600-\u06FF]/;
const ARABIC_INDIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;

export function containsArabic(text: string): boolean {
  return ARABIC.test(text);
}

function capitalise(word: string): string {
  const first = word.search(/[a-z]/i);
  return first < 0 ? word : word.slice(0, first) + word[first]!.toUpperCase() + word.slice(first + 1);
}

function transliterateWord(word: string): string {
  const known = WORDS[word];
  if (known) return known;
  let stem = word;
  let article = '';
  if (stem.length > 2 && (stem.startsWith('ال') || stem.startsWith('ٱل'))) {
    stem = stem.slice(2);
    article = 'El-';
    const inner = WORDS[stem];
    if (inner) return article + inner;
  }
  let latin = '';
  let previousConsonant = false;
  let position = 0;
  for (const char of stem) {
    // و and ي are consonants (w, y) at the start of a word, long vowels elsewhere.
    const initial = position++ === 0 && (char === 'و' || char === 'ي');
    const mapped = initial ? (char === 'و' ? 'w' : 'y') : LETTERS[char];
    if (mapped === undefined) {
      latin += char;
      previousConsonant = false;
      continue;
    }
    const isVowel = !initial && VOWEL_LETTERS.has(char);
    // Short vowels are not written in Arabic; put an "a" between two consonants so the name reads.
    if (!isVowel && previousConsonant && mapped !== '' && mapped !== "'") latin += 'a';
    latin += mapped;
    previousConsonant = !isVowel && mapped !== '';
  }
  if (article && SUN_LETTERS.has(stem[0] ?? '')) article = 'El-';
  return article + capitalise(latin.replace(/^'+/, ''));
}

/** A Latin rendering of an Arabic name; text without Arabic letters is returned unchanged. */
export function transliterateArabic(text: string): string {
  if (!containsArabic(text)) return text;
  const clean = text
    .replace(DIACRITICS, '')
    .replace(ARABIC_INDIC_DIGITS, (digit) => String((digit.codePointAt(0)! - 0x0660) % 0x90 % 10))
    .replace(/،/g, ',');
  return clean
    .split(/(\s+)/)
    .map((part) => (containsArabic(part) ? transliterateWord(part) : part))
    .join('');
}
