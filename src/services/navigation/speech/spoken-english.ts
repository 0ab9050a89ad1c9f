/**
 * English text as a speech engine should read it: street-type and unit
 * abbreviations spelled out, compass letters expanded where they can only be
 * directions, numbers, ordinals and decimals in words ("2nd exit" → "second
 * exit", "1.5 km" → "one point five kilometers"). Codes that mix letters and
 * digits (exit "12B", road "E75") are left for the SSML to spell.
 */
import { toCardinal, toOrdinal } from 'n2words/en-US';

/** Street-type abbreviations (dot optional). `St` and `Dr` are handled apart: they also mean Saint and Doctor. */
const STREET_TYPES: Record<string, string> = {
  rd: 'Road',
  ave: 'Avenue',
  av: 'Avenue',
  blvd: 'Boulevard',
  hwy: 'Highway',
  fwy: 'Freeway',
  expy: 'Expressway',
  pkwy: 'Parkway',
  sq: 'Square',
  ln: 'Lane',
  ct: 'Court',
  pl: 'Place',
  mt: 'Mount',
  rte: 'Route',
  sts: 'Streets',
};

const UNITS: Record<string, [string, string]> = {
  km: ['kilometer', 'kilometers'],
  m: ['meter', 'meters'],
  mi: ['mile', 'miles'],
  ft: ['foot', 'feet'],
  yd: ['yard', 'yards'],
  'km/h': ['kilometer per hour', 'kilometers per hour'],
  kph: ['kilometer per hour', 'kilometers per hour'],
  mph: ['mile per hour', 'miles per hour'],
};

const COMPASS: Record<string, string> = { N: 'north', S: 'south', E: 'east', W: 'west', NE: 'northeast', NW: 'northwest', SE: 'southeast', SW: 'southwest' };
/** Words after which a compass letter is a direction of travel ("Head N", "toward SW"). */
const TRAVEL_WORDS = /\b(head|heading|go|going|drive|driving|walk|walking|cycle|ride|bear|keep|turn|toward|towards|travel|continue)\s+$/i;

/** Words after which a compass letter begins a street name ("onto N Main Street", "123 W Broadway"). */
const ADDRESS_POSITION = /(\b(onto|on|to|toward|towards|via|at|take|the)|\d)\s+$/i;

/** Digits as words: integers as cardinals, decimals digit by digit after "point" ("1.05" → "one point zero five"). */
export function englishNumber(digits: string): string {
  const [whole, fraction] = digits.split('.');
  const integer = toCardinal(BigInt(whole!));
  if (!fraction) return integer;
  return `${integer} point ${[...fraction].map((digit) => toCardinal(Number(digit))).join(' ')}`;
}

/** Keeps an abbreviation's dot when it also ends the sentence ("onto Main St." → "onto Main Street."). */
function sentenceDot(dot: string | undefined, after: string): string {
  return dot && (after === '' || /^\s+[A-Z]/.test(after)) ? '.' : '';
}

export function spokenEnglish(text: string): string {
  return (
    text
      // 1,200 → 1200 (a thousands separator, not a list)
      .replace(/\b\d{1,3}(?:,\d{3})+(?![\d,])/g, (number) => number.replace(/,/g, ''))
      .replace(/\b(\d+)(st|nd|rd|th)\b/gi, (_, number: string) => toOrdinal(BigInt(number)))
      .replace(/(?<![\w.])(\d+(?:\.\d+)?)\s?(km\/h|kph|mph|km|mi|ft|yd|m)(?![\w/])/g, (_, number: string, unit: string) => {
        const [one, many] = UNITS[unit]!;
        return `${englishNumber(number)} ${number === '1' ? one : many}`;
      })
      .replace(/(?<![\w.])\d+(?:\.\d+)?(?!\w|\.\d)/g, (number) => englishNumber(number))
      .replace(/\b(St|Dr)(\.?)(?!\w)/g, (_, word: string, dot: string, offset: number, all: string) => {
        const after = all.slice(offset + word.length + dot.length);
        const previous = all.slice(0, offset).trimEnd().split(' ').pop() ?? '';
        // "Main St." is a street; "St. Mark" and "Dr. Hassan" (not after a name) are titles
        const afterName = /^[A-Z][\w'-]*$/.test(previous);
        if (!afterName && /^\s+[A-Z]/.test(after)) return word === 'St' ? 'Saint' : 'Doctor';
        return `${word === 'St' ? 'Street' : 'Drive'}${sentenceDot(dot, after)}`;
      })
      .replace(/\b([A-Z][a-z]{1,3})(\.?)(?!\w)/g, (whole, word: string, dot: string, offset: number, all: string) => {
        const expanded = STREET_TYPES[word.toLowerCase()];
        return expanded ? `${expanded}${sentenceDot(dot, all.slice(offset + whole.length))}` : whole;
      })
      .replace(/\b(NE|NW|SE|SW|N|S|E|W)\b(\.?)(?!')/g, (whole, letters: string, _dot: string, offset: number, all: string) => {
        const before = all.slice(0, offset);
        const after = all.slice(offset + whole.length);
        // a direction only where nothing else fits: after a travel verb, or before a street name in an address position
        if (TRAVEL_WORDS.test(before)) return COMPASS[letters]!;
        if (/^\s+[A-Z][a-z]/.test(after) && (ADDRESS_POSITION.test(before) || before.trim() === '')) return COMPASS[letters]!;
        return whole;
      })
      .replace(/\s&\s/g, ' and ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
