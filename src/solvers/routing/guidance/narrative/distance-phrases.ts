/**
 * Distances as the narrative says them, in kilometres or miles, in English or
 * Arabic. Rounding follows what a listener can use: metric under 1 km in
 * metres (to 10 m, to 50 m above 300 m), else kilometres with one decimal
 * (whole kilometres from 10 km); imperial under 0.1 mi in feet (to 10 ft),
 * else miles with one decimal (whole from 10 mi).
 *
 * Arabic uses Arabic-Indic digits (٠١٢٣٤٥٦٧٨٩, decimal separator ٫) as Egyptian
 * and Levantine road signs and apps print them, and counts nouns by the
 * Arabic number rules: 1 → "متر واحد", 2 → "متران/مترين" (dual), 3–10 →
 * plural "أمتار", 11–99 → singular accusative "مترًا", hundreds → "متر".
 */
import type { NarrativeLanguage } from '../street-names.js';

export type DistanceUnits = 'kilometers' | 'miles';

export const METERS_PER_MILE = 1609.344;
const FEET_PER_METER = 3.280839895;

export interface Quantity {
  value: number;
  unit: 'meter' | 'kilometer' | 'foot' | 'mile';
}

export function roundedQuantity(meters: number, units: DistanceUnits): Quantity {
  if (units === 'miles') {
    const miles = meters / METERS_PER_MILE;
    if (miles < 0.1) return { value: Math.max(10, Math.round((meters * FEET_PER_METER) / 10) * 10), unit: 'foot' };
    return { value: miles >= 10 ? Math.round(miles) : Math.round(miles * 10) / 10, unit: 'mile' };
  }
  if (meters < 995) {
    const step = meters > 300 ? 50 : 10;
    const value = Math.max(10, Math.round(meters / step) * step);
    if (value < 1000) return { value, unit: 'meter' };
  }
  const kilometers = meters / 1000;
  return { value: kilometers >= 10 ? Math.round(kilometers) : Math.round(kilometers * 10) / 10, unit: 'kilometer' };
}

const ENGLISH_UNITS = {
  meter: ['meter', 'meters'],
  kilometer: ['kilometer', 'kilometers'],
  foot: ['foot', 'feet'],
  mile: ['mile', 'miles'],
} as const;

function englishDistance({ value, unit }: Quantity): string {
  const [one, many] = ENGLISH_UNITS[unit];
  return `${value} ${value === 1 ? one : many}`;
}

/** Arabic noun forms per unit: [singular (with واحد for 1), dual (genitive), plural (3–10), accusative singular (11–99), singular (100+, fractions)]. */
const ARABIC_UNITS = {
  meter: ['متر واحد', 'مترين', 'أمتار', 'مترًا', 'متر'],
  kilometer: ['كيلومتر واحد', 'كيلومترين', 'كيلومترات', 'كيلومترًا', 'كيلومتر'],
  foot: ['قدم واحدة', 'قدمين', 'أقدام', 'قدمًا', 'قدم'],
  mile: ['ميل واحد', 'ميلين', 'أميال', 'ميلًا', 'ميل'],
} as const;

/** Western digits → Arabic-Indic, "." → the Arabic decimal separator "٫". */
export function arabicDigits(text: string): string {
  return text.replace(/[0-9]/g, (digit) => String.fromCodePoint(0x0660 + Number(digit))).replace(/(\d|[\u0660-\u0669])\.(?=[\u0660-\u0669])/g, '$1٫');
}

/**
 * A counted Arabic quantity: the number as `spell` writes it (Arabic-Indic digits by default; speech
 * passes number words) and the unit noun in the form the count asks for.
 */
export function arabicQuantity({ value, unit }: Quantity, spell: (value: number) => string = (count) => arabicDigits(String(count))): string {
  const [one, two, plural, accusative, singular] = ARABIC_UNITS[unit];
  if (!Number.isInteger(value)) return `${spell(value)} ${singular}`;
  if (value === 1) return one;
  if (value === 2) return two;
  // Above 100 the last two digits decide (١٠٣ أمتار, ١٢٠ مترًا, ٢٠٠ متر).
  const tail = value > 100 ? value % 100 : value;
  const noun = tail === 0 || tail === 1 || tail === 2 ? singular : tail <= 10 ? plural : tail <= 99 ? accusative : singular;
  return `${spell(value)} ${noun}`;
}

/** "500 meters", "1.2 kilometers", "0.3 miles", "٥٠٠ متر", "١٫٢ كيلومتر". */
export function distancePhrase(meters: number, units: DistanceUnits, language: NarrativeLanguage): string {
  const quantity = roundedQuantity(meters, units);
  return language === 'ar' ? arabicQuantity(quantity) : englishDistance(quantity);
}
