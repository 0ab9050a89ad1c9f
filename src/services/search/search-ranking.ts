/**
 * Ranking of /search (spec part 2 §4.3; docs/places.md "Ranking"). A candidate's score is the sum of
 *
 * - text (0–100): how the query's words meet the place's names. `exact` (the whole query is one of its
 *   names) 100, `prefix` (a name starts with the query) 85, `words` (every word is a whole word of a name)
 *   70, else `partial` 40 + 20 × the mean word score (word prefix 0.8, category word 0.6, substring 0.5,
 *   same consonant skeleton across scripts 0.45). 0 when a required word does not match at all.
 * - meaning (0–55): the best weight the concept index (or the embedding signal) gives one of the place's
 *   categories or amenities, × 55. Only with `semantic=on`.
 * - prominence (0–20, plus 45 for a prominent place): log-scaled reviews and popularity (search clicks of
 *   the retention window), whichever is higher; thousands of reviews or of clicks make a place prominent,
 *   and the 45 points keep its lead over nearer partial matches (rule two of §4.3).
 * - rating (0–3): the mean rating, once a place has three reviews.
 * - distance (with an origin): minus 40 × (1 − e^(−d/10 km)); 4 points at 1 km, 16 at 5, 37 at 25.
 *   An exact, prefix or whole-word match more than 25 km away is scored as a partial match, so it competes
 *   on distance with nearer partial matches (rule one of §4.3).
 *
 * Ties: higher score, then nearer, then slug.
 */
import type { QueryToken } from './search-text.js';

export const EXACT_MATCH_RADIUS_KM = 25;
export const PROMINENT_REVIEWS = 1_000;
export const PROMINENT_POPULARITY = 1_000;
const PROMINENCE_SCALE = Math.log10(1 + 5_000);
const TEXT = { exact: 100, prefix: 85, words: 70, partialBase: 40, partialSpan: 20 } as const;
const WORD = { equal: 1, prefix: 0.8, category: 0.6, substring: 0.5, phonetic: 0.45 } as const;
const MEANING_POINTS = 55;
const PROMINENCE_POINTS = 20;
const PROMINENT_BONUS = 45;
const RATING_POINTS = 3;
const DISTANCE_POINTS = 40;
const DISTANCE_SCALE_KM = 10;

export type MatchKind = 'exact' | 'prefix' | 'words' | 'partial' | 'meaning' | 'browse';

export interface RankCandidate {
  id: string;
  slug: string;
  /** Each name's tokens joined by one space (search document). */
  names: readonly string[];
  /** The search document: ` token … ~key … `. */
  doc: string;
  categories: readonly string[];
  amenities: readonly string[];
  reviewCount: number;
  popularity: number;
  rating: number;
  distanceKm?: number;
}

export interface RankQuery {
  /** Words the text must match (stopwords optional). */
  tokens: readonly QueryToken[];
  /** Typeahead: the last word may be the start of a word. */
  typeahead: boolean;
  /** Category words of the taxonomy: a word may be met by the place's category. */
  categoriesOfWord: (token: string) => readonly string[];
  /** Meaning weights (concept index and embeddings), 0..1. */
  meaningCategories: ReadonlyMap<string, number>;
  meaningAmenities: ReadonlyMap<string, number>;
}

export interface RankedCandidate<C extends RankCandidate = RankCandidate> {
  candidate: C;
  score: number;
  kind: MatchKind;
  text: number;
  meaning: number;
  prominent: boolean;
}

/** How one query word meets a place (0 = not at all). */
export function wordScore(token: QueryToken, candidate: RankCandidate, options: { typeahead: boolean; categoriesOfWord: RankQuery['categoriesOfWord'] }): number {
  const doc = candidate.doc;
  if (doc.includes(` ${token.token} `)) return WORD.equal;
  let best = 0;
  if (doc.includes(` ${token.token}`)) best = WORD.prefix;
  if (best < WORD.category && options.categoriesOfWord(token.token).some((slug) => candidate.categories.includes(slug))) best = WORD.category;
  // typeahead is word starts only; a full search also takes a longer word's inside and the same consonants
  if (options.typeahead) return best;
  if (best < WORD.substring && [...token.token].length >= 4 && doc.includes(token.token)) best = WORD.substring;
  if (best < WORD.phonetic && token.keys.some((key) => doc.includes(` ~${key} `))) best = WORD.phonetic;
  return best;
}

/** Text score 0..100 and its kind, or 0 when a required word is missing. */
export function textScore(query: Pick<RankQuery, 'tokens' | 'typeahead' | 'categoriesOfWord'>, candidate: RankCandidate): { score: number; kind: MatchKind } {
  const required = query.tokens.filter((token) => !token.optional);
  if (required.length === 0) return { score: 0, kind: 'browse' };
  const scores: number[] = [];
  for (const token of required) {
    const score = wordScore(token, candidate, query);
    if (score === 0) return { score: 0, kind: 'partial' };
    scores.push(score);
  }
  const phrase = query.tokens.map((token) => token.token).join(' ');
  if (candidate.names.includes(phrase)) return { score: TEXT.exact, kind: 'exact' };
  if (candidate.names.some((name) => name.startsWith(`${phrase} `) || (query.typeahead && name.startsWith(phrase)))) return { score: TEXT.prefix, kind: 'prefix' };
  if (scores.every((score) => score === WORD.equal)) return { score: TEXT.words, kind: 'words' };
  const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length;
  return { score: TEXT.partialBase + TEXT.partialSpan * mean, kind: 'partial' };
}

export function meaningScore(query: Pick<RankQuery, 'meaningCategories' | 'meaningAmenities'>, candidate: RankCandidate): number {
  let best = 0;
  for (const slug of candidate.categories) best = Math.max(best, query.meaningCategories.get(slug) ?? 0);
  for (const slug of candidate.amenities) best = Math.max(best, query.meaningAmenities.get(slug) ?? 0);
  return best;
}

export function isProminent(candidate: Pick<RankCandidate, 'reviewCount' | 'popularity'>): boolean {
  return candidate.reviewCount >= PROMINENT_REVIEWS || candidate.popularity >= PROMINENT_POPULARITY;
}

export function prominenceScore(candidate: Pick<RankCandidate, 'reviewCount' | 'popularity' | 'rating'>): number {
  const level = Math.min(1, Math.max(Math.log10(1 + Math.max(0, candidate.reviewCount)), Math.log10(1 + Math.max(0, candidate.popularity))) / PROMINENCE_SCALE);
  const rating = candidate.reviewCount >= 3 ? (RATING_POINTS * candidate.rating) / 5 : 0;
  return PROMINENCE_POINTS * level + (isProminent(candidate) ? PROMINENT_BONUS : 0) + rating;
}

export function distancePenalty(distanceKm: number | undefined): number {
  if (distanceKm === undefined) return 0;
  return DISTANCE_POINTS * (1 - Math.exp(-Math.max(0, distanceKm) / DISTANCE_SCALE_KM));
}

/** One candidate's score, or undefined when it matches neither the text nor a meaning. */
export function scoreCandidate<C extends RankCandidate>(query: RankQuery, candidate: C): RankedCandidate<C> | undefined {
  const text = textScore(query, candidate);
  const meaning = meaningScore(query, candidate);
  const hasText = query.tokens.some((token) => !token.optional);
  if (hasText && text.score === 0 && meaning === 0) return undefined;
  let textPoints = text.score;
  // rule one: far away, an exact match is only as good as a partial one and competes on distance
  if (candidate.distanceKm !== undefined && candidate.distanceKm > EXACT_MATCH_RADIUS_KM) textPoints = Math.min(textPoints, TEXT.partialBase + TEXT.partialSpan);
  const kind: MatchKind = text.score > 0 ? text.kind : meaning > 0 ? 'meaning' : 'browse';
  const score = textPoints + MEANING_POINTS * meaning + prominenceScore(candidate) - distancePenalty(candidate.distanceKm);
  return { candidate, score, kind, text: textPoints, meaning, prominent: isProminent(candidate) };
}

/** Scores and orders candidates: score, then distance, then slug. */
export function rank<C extends RankCandidate>(query: RankQuery, candidates: readonly C[]): RankedCandidate<C>[] {
  const ranked: RankedCandidate<C>[] = [];
  for (const candidate of candidates) {
    const scored = scoreCandidate(query, candidate);
    if (scored) ranked.push(scored);
  }
  return ranked.sort(
    (a, b) =>
      b.score - a.score ||
      (a.candidate.distanceKm ?? 0) - (b.candidate.distanceKm ?? 0) ||
      (a.candidate.slug < b.candidate.slug ? -1 : a.candidate.slug > b.candidate.slug ? 1 : 0),
  );
}
