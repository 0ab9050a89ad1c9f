/**
 * Street names, refs and signposted destinations of pack ways in the narrative
 * language: Arabic (`name:ar`, else `name`) for `ar`; English (`name:en`, else a
 * transliteration of the Arabic name, else `name`) for English. Refs are kept as
 * tagged (they are codes, not words).
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import { ROAD_CLASSES } from '../../../datapack/pack-layout.js';
import { containsArabic, transliterateArabic } from './transliterate.js';

/** The narrative languages guidance writes. */
export type NarrativeLanguage = 'en' | 'ar';

/** `ar`, `ar-EG`, … → Arabic; everything else (`en-US`, `en-GB`, unknown tags) → English. */
export function narrativeLanguage(language: string | undefined): NarrativeLanguage {
  return /^ar(?:$|[-_])/i.test(language ?? '') ? 'ar' : 'en';
}

function localise(text: string, language: NarrativeLanguage): string {
  return language === 'en' && containsArabic(text) ? transliterateArabic(text) : text;
}

/** The way's name in the language, or '' when the way is unnamed. */
export function wayName(pack: MapPack, way: number, language: NarrativeLanguage): string {
  const s = pack.sections;
  const strings = pack.strings;
  const name = strings.get(s['ways.name'][way]!);
  if (language === 'ar') return strings.get(s['ways.nameAr'][way]!) || name;
  const english = strings.get(s['ways.nameEn'][way]!);
  return english || localise(name, 'en');
}

/** The way's ref (road number), or ''. */
export function wayRef(pack: MapPack, way: number): string {
  return pack.strings.get(pack.sections['ways.ref'][way]!);
}

/**
 * Street names per way and language, a pure function of the (immutable) pack that every maneuver
 * of every trip asks for, often for the same ways: one memo per pack, keyed weakly like the edge
 * bearings (junction.ts). The lists are frozen because trips share them.
 */
const streetNameMemos = new WeakMap<MapPack, Map<number, readonly string[]>>();

/** Street names as Valhalla lists them: the name, then each ref (`ref` may hold several, `;`-separated). */
export function wayStreetNames(pack: MapPack, way: number, language: NarrativeLanguage): string[] {
  let memo = streetNameMemos.get(pack);
  if (!memo) {
    memo = new Map();
    streetNameMemos.set(pack, memo);
  }
  const key = language === 'ar' ? -1 - way : way;
  let names = memo.get(key);
  if (!names) {
    names = Object.freeze(listStreetNames(pack, way, language));
    memo.set(key, names);
  }
  return names as string[];
}

function listStreetNames(pack: MapPack, way: number, language: NarrativeLanguage): string[] {
  const names: string[] = [];
  const name = wayName(pack, way, language);
  if (name) names.push(name);
  for (const ref of splitList(wayRef(pack, way))) if (!names.includes(ref)) names.push(ref);
  return names;
}

/** The signposted destinations (`destination=*`, `;`-separated) in the language. */
export function wayDestinations(pack: MapPack, way: number, language: NarrativeLanguage): string[] {
  return splitList(pack.strings.get(pack.sections['ways.destination'][way]!)).map((text) => localise(text, language));
}

/**
 * True when a driver would call the two ways the same road: the same name (the string
 * table stores each string once, so equal ids are equal names), or a common ref
 * ("Moyenne Corniche/M 6007" goes on as "Moyenne Corniche/D 6007" only if the names agree).
 */
export function sameRoadName(pack: MapPack, a: number, b: number): boolean {
  const s = pack.sections;
  const nameA = s['ways.name'][a]! || s['ways.nameEn'][a]!;
  const nameB = s['ways.name'][b]! || s['ways.nameEn'][b]!;
  if (nameA !== 0 || nameB !== 0) return nameA === nameB;
  const refsA = splitList(wayRef(pack, a));
  const refsB = new Set(splitList(wayRef(pack, b)));
  return refsA.some((ref) => refsB.has(ref));
}

/** True when the way carries neither a name nor a ref. */
export function wayUnnamed(pack: MapPack, way: number): boolean {
  const s = pack.sections;
  return s['ways.name'][way] === 0 && s['ways.nameEn'][way] === 0 && s['ways.nameAr'][way] === 0 && s['ways.ref'][way] === 0;
}

function splitList(text: string): string[] {
  // most ways have no ref or destination: no need to split an empty string
  if (!text) return [];
  return text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** What the narrative calls an unnamed path, as Valhalla does ("Turn right onto the walkway."). */
const GENERIC_NAMES: Partial<Record<(typeof ROAD_CLASSES)[number], Record<NarrativeLanguage, string>>> = {
  footway: { en: 'the walkway', ar: 'ممر المشاة' },
  pedestrian: { en: 'the walkway', ar: 'ممر المشاة' },
  path: { en: 'the path', ar: 'الممر' },
  steps: { en: 'the stairs', ar: 'الدرج' },
  cycleway: { en: 'the cycleway', ar: 'مسار الدراجات' },
};

/** The names the narrative says: the street names, else the generic name of an unnamed path (walkway, stairs…). */
export function spokenNames(pack: MapPack, way: number, language: NarrativeLanguage): string[] {
  const names = wayStreetNames(pack, way, language);
  if (names.length) return names;
  const generic = GENERIC_NAMES[ROAD_CLASSES[pack.sections['ways.class'][way]!]!]?.[language];
  return generic ? [generic] : [];
}
