/** The names of an OSM element, as the geocoder shows and searches them. */
import { ALTERNATIVE_NAME_KEYS } from '../../datapack/pack-layout.js';

export interface EntryNames {
  /** `name` as tagged */
  name?: string;
  ar?: string;
  en?: string;
  /** Every spelling searched: name, name:ar, name:en and the ALTERNATIVE_NAME_KEYS (alt_name, old_name, int_name, official_name, short_name, loc_name and their :ar/:en forms). */
  all: string[];
}

const NAME_KEYS = ['name', 'name:ar', 'name:en', ...ALTERNATIVE_NAME_KEYS];
/** Arabic script */
export const ARABIC = /[\u0600-\u06FF]/;

export function namesOf(tags: Record<string, string>): EntryNames {
  const all: string[] = [];
  for (const key of NAME_KEYS) {
    for (const value of (tags[key] ?? '').split(';')) {
      const trimmed = value.trim();
      if (trimmed && !all.includes(trimmed)) all.push(trimmed);
    }
  }
  const name = tags.name?.trim() || undefined;
  return {
    name,
    ar: tags['name:ar']?.trim() || (name && ARABIC.test(name) ? name : undefined),
    en: tags['name:en']?.trim() || tags.int_name?.trim() || (name && !ARABIC.test(name) ? name : undefined),
    all,
  };
}
