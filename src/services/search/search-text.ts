/**
 * Search text of places and queries (spec part 2 §4.3; docs/places.md "Search"). Both sides go through
 * the geocoder's normaliser (src/services/geocoding/arabic-text.ts): NFKC, lower case, Arabic letter
 * folding (أ إ آ ٱ → ا, ة → ه, ى → ي, ؤ → و, ئ → ي), diacritics and tatweel removed, Arabic-Indic
 * digits → ASCII, chat-alphabet (Arabizi) digits spelled out ("7amza" → "hamza"), the Arabic and Latin
 * definite article dropped ("الشام" and "sham" are one token). A place's search document is:
 *
 * - `doc`: ` token token … ~key ~key ` — the tokens of every name it is known by (English, Arabic,
 *   `alt_name`, brand, official and dialect names), then the consonant skeletons (`phoneticKeys`) that
 *   Arabic and Latin spellings of one word share, marked with `~`. Matched with LIKE under a trigram index.
 * - `names`: each name's tokens joined by one space (exact and prefix tiers of the ranking).
 * - `prefixes`: the first one and two characters of every token, and marked `^` those of each name's
 *   first word, for typeahead of one or two letters, which trigrams cannot answer (GIN array index).
 */
import { analyze, foldText, phoneticKeys, rewriteQuery, queryWasRewritten } from '../geocoding/arabic-text.js';

/** Tags whose values are names a place is searched by (`;` separates several). */
const NAME_TAGS = ['alt_name', 'alt_name:en', 'alt_name:ar', 'brand', 'brand:en', 'brand:ar', 'official_name', 'official_name:en', 'official_name:ar', 'name:arz', 'short_name', 'old_name'];
/** Phonetic keys shorter than this match too much to be a signal. */
export const MIN_PHONETIC_KEY = 3;
/** Longest text one name contributes (a pathological tag cannot bloat the index). */
const MAX_NAME_CHARS = 200;
const MAX_NAMES = 12;

export interface SearchDocument {
  doc: string;
  names: string[];
  prefixes: string[];
}

/** Tokens of a text as the index and the queries see them. */
export function tokensOf(text: string): string[] {
  return analyze(text.slice(0, MAX_NAME_CHARS)).map((entry) => entry.token);
}

/** The search document of a place from its names and tags. */
export function searchDocumentOf(place: { nameEn: string | null; nameAr: string | null; tags: Readonly<Record<string, string>> }): SearchDocument {
  const raw = [place.nameEn, place.nameAr, place.tags.name, ...NAME_TAGS.flatMap((tag) => (place.tags[tag] ?? '').split(';'))];
  const names: string[] = [];
  const tokens = new Set<string>();
  for (const name of raw) {
    if (!name?.trim()) continue;
    const nameTokens = tokensOf(name);
    if (nameTokens.length === 0) continue;
    const joined = nameTokens.join(' ');
    if (!names.includes(joined) && names.length < MAX_NAMES) names.push(joined);
    for (const token of nameTokens) tokens.add(token);
  }
  const keys = new Set<string>();
  const prefixes = new Set<string>();
  const addPrefixes = (token: string, mark: string) => {
    const letters = [...token];
    prefixes.add(mark + letters[0]!);
    if (letters.length >= 2) prefixes.add(mark + letters.slice(0, 2).join(''));
  };
  for (const token of tokens) {
    for (const key of phoneticKeys(token)) if (key.length >= MIN_PHONETIC_KEY) keys.add(key);
    addPrefixes(token, '');
  }
  // `^`: the start of a name's first word (one typed letter means the start of a name, not of any word)
  for (const name of names) addPrefixes(name.split(' ')[0]!, '^');
  const doc = ` ${[...tokens].join(' ')} ${[...keys].map((key) => `~${key}`).join(' ')} `.replace(/\s+/g, ' ');
  return { doc: doc === ' ' ? '' : doc, names, prefixes: [...prefixes] };
}

/** Words that say nothing about which place is meant: optional in a query. */
const STOPWORDS = new Set(['the', 'and', 'of', 'in', 'at', 'a', 'an', 'for', 'و', 'في', 'فى', 'على', 'عند']);

export interface QueryToken {
  token: string;
  /** Consonant skeletons of at least MIN_PHONETIC_KEY letters. */
  keys: string[];
  /** May be missing from a match (stopword). */
  optional: boolean;
}

export interface AnalyzedQuery {
  /** The input trimmed. */
  text: string;
  /** The folded query as the user would read it back (chat digits spelled out). */
  normalized: string;
  /** Whether normalisation changed more than case and spacing. */
  rewritten: boolean;
  tokens: QueryToken[];
}

export function analyzeQuery(text: string): AnalyzedQuery {
  const trimmed = text.trim();
  const normalized = rewriteQuery(trimmed);
  const tokens = tokensOf(trimmed).map((token) => ({
    token,
    keys: phoneticKeys(token).filter((key) => key.length >= MIN_PHONETIC_KEY),
    optional: STOPWORDS.has(token),
  }));
  // a query of stopwords only still means them
  if (tokens.length > 0 && tokens.every((token) => token.optional)) for (const token of tokens) token.optional = false;
  return { text: trimmed, normalized, rewritten: trimmed !== '' && queryWasRewritten(trimmed, normalized), tokens };
}

/** The folded form of a short label for prefix comparisons (category names and aliases in suggestions). */
export function foldLabel(text: string): string {
  return tokensOf(text).join(' ') || foldText(text);
}
