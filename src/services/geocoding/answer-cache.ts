/**
 * Answers of forward search and autocomplete, kept by the call and every option that shapes them.
 *
 * Autocomplete traffic repeats itself: every user typing "شارع عباس" sends the same prefixes, and a popular
 * place is looked up all day. The index never changes while a process runs (a new pack means a new Geocoder), so
 * a kept answer stays exactly right; a hit costs a map lookup instead of a search (~0.1 ms) and the result
 * shaping. Bounded by count, least recently used out first; answers are shared, so callers must not mutate them.
 */
import { LRUCache } from 'lru-cache';
import type { ForwardOptions } from './geocoder.js';
import type { SearchOptions, TextMatches } from './search.js';

/** ~3 KB an autocomplete answer (8 suggestions), so about 15 MB when full. */
export const ANSWER_CACHE_ENTRIES = 5_000;

export class AnswerCache {
  private readonly answers = new LRUCache<string, object>({ max: ANSWER_CACHE_ENTRIES });

  /** The kept answer of this call, or `compute()`'s, kept for next time (a throw keeps nothing). */
  get<T extends object>(call: 'search' | 'autocomplete', query: string, options: ForwardOptions, compute: () => T): T {
    return keptOrComputed(this.answers, keyOf(call, query, options), compute) as T;
  }

  get size(): number {
    return this.answers.size;
  }
}

/** Every option that changes an answer is in the key; the bias point and bbox exactly as given. */
function keyOf(call: string, query: string, options: ForwardOptions): string {
  const near = options.near ? `${options.near.lat},${options.near.lon}` : '';
  const bbox = options.bbox ? options.bbox.join(',') : '';
  return `${call}\u0000${query}\u0000${options.locales.join(',')}\u0000${options.limit}\u0000${near}\u0000${bbox}`;
}

/** Bytes of kept text matches, keys and per-entry overhead counted (12 bytes a matched entry)... */
export const TEXT_MATCH_CACHE_BYTES = 16 * 1024 * 1024;
/** ...and at most this many queries (most match little: the count bounds the many small entries). */
export const TEXT_MATCH_CACHE_ENTRIES = 10_000;
/** What an entry costs beside its arrays: the two typed arrays' objects, the LRU's slots, the key's header. */
const ENTRY_OVERHEAD_BYTES = 400;

/** The bias-free part of a search for one query text (see TextMatchCache). */
export interface PreparedQuery {
  /** `matchText`'s answer. */
  readonly matches: TextMatches;
  /** The query's rewriting, when the input was rewritten (autocomplete's `normalizedQuery`). */
  readonly normalizedQuery: string | undefined;
}

/**
 * The bias-free part of searches (`matchText`, and the query's rewriting), kept by query text, open last word and
 * kinds. An answer kept by its exact bias point rarely serves anyone else, since every phone sends its own position;
 * the words' matches serve them all, and ranking them for a new point is a distance per match. Least recently used
 * out first. The rewriting is kept with the matches so that an autocomplete call costs one look-up, not two.
 */
export class TextMatchCache {
  private readonly prepared = new LRUCache<string, PreparedQuery>({
    max: TEXT_MATCH_CACHE_ENTRIES,
    maxSize: TEXT_MATCH_CACHE_BYTES,
    // a key is the query text (up to 256 characters, two bytes each at worst), and so is a rewriting
    sizeCalculation: ({ matches, normalizedQuery }, key) =>
      matches.ids.byteLength + matches.scores.byteLength + 2 * (key.length + (normalizedQuery?.length ?? 0)) + ENTRY_OVERHEAD_BYTES,
  });
  /** Each kinds list's part of the key, joined once (callers pass the same few lists). */
  private readonly kindsTexts = new WeakMap<readonly string[], string>();

  get(query: string, options: Pick<SearchOptions, 'open' | 'kinds'>, compute: () => PreparedQuery): PreparedQuery {
    return keptOrComputed(this.prepared, `${options.open ? 1 : 0}\u0000${this.kindsText(options.kinds)}\u0000${query}`, compute);
  }

  get size(): number {
    return this.prepared.size;
  }

  private kindsText(kinds: readonly string[] | undefined): string {
    if (kinds === undefined) return '';
    let text = this.kindsTexts.get(kinds);
    if (text === undefined) this.kindsTexts.set(kinds, (text = kinds.join(',')));
    return text;
  }
}

/** The value kept under `key`, or `compute()`'s, kept for next time (a throw keeps nothing). */
function keptOrComputed<V extends object>(cache: LRUCache<string, V>, key: string, compute: () => V): V {
  const kept = cache.get(key);
  if (kept !== undefined) return kept;
  const value = compute();
  cache.set(key, value);
  return value;
}
