/**
 * Arabic text as a speech engine should read it. Guidance writes distances
 * with Arabic-Indic digits ("بعد ٣٥٠ مترًا"), which engines read digit by
 * digit or in the wrong grammar; here numbers become words ("ثلاثمائة
 * وخمسون مترًا"), abbreviated units after a number become the counted noun
 * the number asks for ("٥ كم" → "خمسة كيلومترات"), and the common street
 * abbreviations are spelled out ("ش." → "شارع", "ط." → "طريق", "د." →
 * "دكتور"; "م." is left alone: square, engineer or metre). Either digit set, Persian digits and the Arabic decimal
 * separator are read.
 */
import { toCardinal, toOrdinal } from 'n2words/ar-SA';
import { arabicQuantity, type Quantity } from '../../../solvers/routing/guidance/index.js';
import { asciiDigits } from './plain-text.js';

/** Whole-word abbreviations (an Arabic "word boundary": not next to another Arabic letter). */
const ABBREVIATIONS: [RegExp, string][] = [
  [/(?<![\u0621-\u064A])ش\.?(?=\s+[\u0621-\u064A0-9])/g, 'شارع'],
  [/(?<![\u0621-\u064A])ط\.(?=\s*[\u0621-\u064A])/g, 'طريق'],
  [/(?<![\u0621-\u064A])د\.(?=\s*[\u0621-\u064A])/g, 'دكتور'],
];

const UNIT_WORDS: Record<string, Quantity['unit']> = { كم: 'kilometer', km: 'kilometer', م: 'meter', m: 'meter', ميل: 'mile', mi: 'mile', قدم: 'foot', ft: 'foot' };

/**
 * The oblique case of number words (عشرون → عشرين, اثنان → اثنين). Guidance numbers follow a
 * preposition or a noun ("بعد …", "لمسافة …"), which asks for it, and spoken Arabic uses no other.
 */
function oblique(words: string): string {
  return words
    .replace(/(?<=[\u0621-\u064A])(?<!لي)ون(?![\u0621-\u064A])/g, 'ين') // tens, not مليون
    .replace(/(?<![\u0621-\u064A])اثن(تا|ا)(ن?)(?![\u0621-\u064A])/g, (_, stem: string, dual: string) => `اثن${stem === 'تا' ? 'ت' : ''}${dual ? 'ين' : 'ي'}`)
    .replace(/(ألف|مائت)ان(?![\u0621-\u064A])/g, '$1ين');
}

/** Digits as Arabic words: integers as cardinals, decimals with "فاصلة" and the digits after it one by one. */
export function arabicNumber(digits: string): string {
  const [whole, fraction] = digits.split('.');
  const integer = oblique(toCardinal(BigInt(whole!)));
  if (!fraction) return integer;
  return `${integer} فاصلة ${[...fraction].map((digit) => toCardinal(Number(digit))).join(' ')}`;
}

export function spokenArabic(text: string): string {
  let spoken = asciiDigits(text).replace(/(?<!\d)\d{1,3}(?:,\d{3})+(?![\d,])/g, (number) => number.replace(/,/g, ''));
  for (const [pattern, word] of ABBREVIATIONS) spoken = spoken.replace(pattern, word);
  return (
    spoken
      // "٥ كم" → "خمسة كيلومترات": the abbreviation after a number becomes the counted noun
      .replace(/(?<![\w.])(\d+(?:\.\d+)?)\s?(كم|km|mi|ft|م|m)(?![\w\u0621-\u064A])/g, (_, number: string, unit: string) =>
        arabicQuantity({ value: Number(number), unit: UNIT_WORDS[unit]! }, () => arabicNumber(number)),
      )
      // Latin ordinals in Arabic text ("المخرج 2nd") read as Arabic ordinals
      .replace(/(?<![\w.])(\d+)(st|nd|rd|th)\b/gi, (_, number: string) => toOrdinal(BigInt(number)))
      .replace(/(?<![\w.])\d+(?:\.\d+)?(?!\w|\.\d)/g, (number) => arabicNumber(number))
      .replace(/\s+/g, ' ')
      .trim()
  );
}
