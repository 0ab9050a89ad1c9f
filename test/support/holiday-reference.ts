/**
 * Agreement of the product's calendars with the reference snapshots in
 * shared/data/holidays (vacanza/holidays, MIT): date → holiday name(s),
 * 1950–2050, Islamic dates marked "(estimated)". See docs/calendars.md.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REFERENCE_COUNTRIES = ['JO', 'SA', 'AE', 'EG', 'LB', 'PS'] as const;
const REFERENCE_DIR = fileURLToPath(new URL('../../../shared/data/holidays/', import.meta.url));

export type ReferenceClass = 'fixed' | 'easter' | 'observed' | 'islamic';
export type IslamicEvent = 'eid-al-fitr' | 'eid-al-adha' | 'arafah' | 'islamic-new-year' | 'prophets-birthday' | 'isra-miraj' | 'ashura';

export interface ReferenceEntry {
  date: string;
  name: string;
  kind: ReferenceClass;
  event?: IslamicEvent;
}

const ISLAMIC: readonly [RegExp, IslamicEvent][] = [
  [/^Eid al-Fitr/, 'eid-al-fitr'],
  [/^Eid al-Adha/, 'eid-al-adha'],
  [/^Arafat Day/, 'arafah'],
  [/^(Islamic|Hijri) New Year/, 'islamic-new-year'],
  [/^Prophet's Birthday/, 'prophets-birthday'],
  [/^Isra' and Mi'raj/, 'isra-miraj'],
  [/^Ashura/, 'ashura'],
];
/** Holidays dated from Western or Orthodox Easter (Sham El Nessim is the Monday after Orthodox Easter). */
const EASTER_BASED = /Easter|Good Friday|Holy Saturday|Holy Thursday|Palm Sunday|Ascension Day|Pentecost|Spring Festival/;

export function readReference(country: string): ReferenceEntry[] {
  const raw = JSON.parse(readFileSync(`${REFERENCE_DIR}${country}_COMMON.json`, 'utf8')) as Record<string, string>;
  const entries: ReferenceEntry[] = [];
  for (const [date, names] of Object.entries(raw)) {
    for (const name of names.split('; ')) {
      const islamic = ISLAMIC.find(([pattern]) => pattern.test(name));
      const kind: ReferenceClass = /\(observed/.test(name) ? 'observed' : islamic ? 'islamic' : EASTER_BASED.test(name) ? 'easter' : 'fixed';
      entries.push({ date, name, kind, ...(islamic && kind === 'islamic' ? { event: islamic[1] } : {}) });
    }
  }
  return entries.sort((a, b) => a.date.localeCompare(b.date));
}

const dayNumber = (iso: string) => Math.round(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);

/**
 * One date per Islamic event occurrence: consecutive reference days of an event form one
 * occurrence, dated by its day named exactly after the event ("Eid al-Fitr", not "… Holiday"),
 * else by its first day.
 */
export function islamicOccurrences(entries: readonly ReferenceEntry[], event: IslamicEvent): string[] {
  const days = entries.filter((entry) => entry.kind === 'islamic' && entry.event === event);
  const occurrences: string[] = [];
  let block: ReferenceEntry[] = [];
  const close = () => {
    if (!block.length) return;
    const exact = block.find((entry) => !/Holiday/.test(entry.name));
    occurrences.push((exact ?? block[0]!).date);
    block = [];
  };
  for (const entry of days) {
    const last = block[block.length - 1];
    if (last && dayNumber(entry.date) - dayNumber(last.date) > 1) close();
    block.push(entry);
  }
  close();
  return occurrences;
}

export interface ProductDay {
  date: string;
  key: string;
  islamic: boolean;
  /** First day of the holiday (not a following or observed day). */
  first: boolean;
}

export interface Agreement {
  matched: number;
  total: number;
  misses: string[];
}

/** Reference entries of `kind` in `[fromYear, toYear]` matched by a product holiday of the same family on the same date. */
export function gregorianAgreement(entries: readonly ReferenceEntry[], product: readonly ProductDay[], kind: 'fixed' | 'easter', fromYear: number, toYear: number): Agreement {
  const productDates = new Set(product.filter((day) => !day.islamic).map((day) => day.date));
  const wanted = entries.filter((entry) => entry.kind === kind && Number(entry.date.slice(0, 4)) >= fromYear && Number(entry.date.slice(0, 4)) <= toYear);
  const misses = wanted.filter((entry) => !productDates.has(entry.date)).map((entry) => `${entry.date} ${entry.name}`);
  return { matched: wanted.length - misses.length, total: wanted.length, misses };
}

/** Product Gregorian holidays on dates the reference has nothing for (the other direction of the comparison). */
export function gregorianExtras(entries: readonly ReferenceEntry[], product: readonly ProductDay[], fromYear: number, toYear: number): string[] {
  const referenceDates = new Set(entries.map((entry) => entry.date));
  return product
    .filter((day) => !day.islamic && Number(day.date.slice(0, 4)) >= fromYear && Number(day.date.slice(0, 4)) <= toYear && !referenceDates.has(day.date))
    .map((day) => `${day.date} ${day.key}`);
}

/** Reference occurrences of each Islamic event matched by the product's first day of that event within ±`tolerance` days. */
export function islamicAgreement(entries: readonly ReferenceEntry[], product: readonly ProductDay[], fromYear: number, toYear: number, tolerance = 1): Agreement {
  let matched = 0;
  let total = 0;
  const misses: string[] = [];
  for (const [, event] of ISLAMIC) {
    const ours = product.filter((day) => day.islamic && day.first && day.key === event).map((day) => dayNumber(day.date));
    for (const date of islamicOccurrences(entries, event)) {
      const year = Number(date.slice(0, 4));
      if (year < fromYear || year > toYear) continue;
      total++;
      const target = dayNumber(date);
      const nearest = ours.reduce((best, day) => (Math.abs(day - target) < Math.abs(best - target) ? day : best), Number.POSITIVE_INFINITY);
      if (Math.abs(nearest - target) <= tolerance) matched++;
      else misses.push(`${date} ${event} (product ${Number.isFinite(nearest) ? `${nearest - target > 0 ? '+' : ''}${nearest - target} d` : 'none'})`);
    }
  }
  return { matched, total, misses };
}
