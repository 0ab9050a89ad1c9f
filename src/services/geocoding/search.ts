/**
 * Forward search and autocomplete over a GeoIndex. Every significant query word
 * (not "street", "لواء" …) must be found, in the entry's own name or, for words
 * that only narrow down ("… مدينة نصر"), in the names of its enclosing areas.
 * The score (docs/geocoding.md#ranking) weighs, in order: how exactly the words
 * matched, how much of the name they cover, the entry's importance (admin level,
 * place rank, road class, population) and, when given, closeness to the bias point.
 */
import { analyze, isGeneric } from './arabic-text.js';
import type { EntryKind, GeoEntry } from './geo-entries.js';
import type { GeoIndex } from './geo-index.js';
import { MAX_SPELLINGS } from './name-index.js';
import { distanceMetres } from './spatial-grid.js';

export interface SearchOptions {
  limit: number;
  /** The last word may be unfinished (autocomplete). */
  open: boolean;
  near?: { lat: number; lon: number };
  /** west, south, east, north: only results inside */
  bbox?: [number, number, number, number];
  kinds?: readonly EntryKind[];
}

export interface ScoredEntry {
  entry: GeoEntry;
  score: number;
}

/** Score weights; they add up to about 1 for a perfect, important, nearby match. */
const WEIGHT = { text: 0.6, coverage: 0.22, importance: 0.12, exact: 0.08, generic: 0.02, proximity: 0.15, context: 0.5, houseNumber: 0.1 } as const;
const MINIMUM_TEXT_SCORE = 0.5;

export function searchIndex(index: GeoIndex, text: string, options: SearchOptions): ScoredEntry[] {
  return rankMatches(index, matchText(index, text, options), options);
}

/**
 * The part of a search that depends on the words alone: every entry they match (of the kinds asked for), with its
 * score before proximity, in the order found. The expensive part (vocabulary lookups, typo matching, coverage), and
 * the same for every bias point: phones send their own position with every keystroke, so it is worth keeping.
 */
export interface TextMatches {
  readonly ids: Int32Array;
  readonly scores: Float64Array;
}

const NO_MATCHES: TextMatches = { ids: new Int32Array(0), scores: new Float64Array(0) };

export function matchText(index: GeoIndex, text: string, options: Pick<SearchOptions, 'open' | 'kinds'>): TextMatches {
  const query = analyze(text).slice(0, 12);
  if (!query.length) return NO_MATCHES;
  const generic = query.map((token) => isGeneric(token.token));
  const required = generic.every(Boolean) ? query.map(() => true) : generic.map((flag) => !flag);
  const requiredCount = required.filter(Boolean).length;

  // per query word: vocabulary token → quality
  const hits = query.map((token, position) => new Map(index.names.match(token, options.open && position === query.length - 1).map((hit) => [hit.token, hit.quality])));
  // candidate entry → best quality per query word over all its spellings (a query may mix scripts:
  // "ain" meets the English name, "basha" the Arabic one); qualities live in one reused buffer, and
  // entries find their row through stamped arrays (no map: a short prefix touches hundreds of entries)
  const width = query.length;
  const scratch = sharedScratch.prepare(index.entries.length);
  const { slotOf, stampOf, candidates, stamp } = scratch;
  let candidateCount = 0;
  hits.forEach((tokens, position) => {
    // generic words ("street", "شارع") are in most names: they only add a bonus to entries found otherwise
    if (!required[position]) return;
    for (const [token, quality] of tokens) {
      for (const packed of index.names.postingsOf(token)) {
        const entryId = Math.floor(packed / MAX_SPELLINGS);
        let slot: number;
        if (stampOf[entryId] !== stamp) {
          stampOf[entryId] = stamp;
          slot = candidateCount * width;
          slotOf[entryId] = slot;
          candidates[candidateCount++] = entryId;
          scratch.reserve(slot + width).fill(0, slot, slot + width);
        } else slot = slotOf[entryId]!;
        const qualities = scratch.qualities;
        if (qualities[slot + position]! < quality) qualities[slot + position] = quality;
      }
    }
  });
  const buffer = scratch.qualities;

  const ids: number[] = [];
  const scores: number[] = [];
  for (let candidate = 0; candidate < candidateCount; candidate++) {
    const entryId = candidates[candidate]!;
    const slot = slotOf[entryId]!;
    const entry = index.entries[entryId]!;
    if (options.kinds && !options.kinds.includes(entry.kind)) continue;

    let text = 0;
    let ownWords = 0;
    let genericBonus = 0;
    let rejected = false;
    for (let position = 0; position < query.length; position++) {
      const quality = buffer[slot + position]!;
      if (!required[position]) {
        if (spellingsTouch(index, entryId, hits[position]!)) genericBonus += WEIGHT.generic;
        continue;
      }
      if (quality > 0) {
        text += quality;
        ownWords++;
        continue;
      }
      const context = contextQuality(index, entryId, hits[position]!);
      if (context === 0) {
        rejected = true;
        break;
      }
      text += context * WEIGHT.context;
    }
    if (rejected || ownWords === 0) continue;
    text /= requiredCount;
    if (text < MINIMUM_TEXT_SCORE) continue;

    const { coverage, whole } = bestCoverage(index, entryId, hits);
    const exact = whole && ownWords === requiredCount && text === 1 ? WEIGHT.exact : 0;
    // an address point is the answer only when its house number was asked for
    const houseNumber = entry.kind === 'address' ? entry.address!.housenumber : undefined;
    const houseNumberMissed = houseNumber !== undefined && !query.some((token) => houseNumber.toLowerCase().startsWith(token.token));
    ids.push(entryId);
    scores.push((houseNumberMissed ? -WEIGHT.houseNumber : 0) + WEIGHT.text * text + WEIGHT.coverage * coverage + WEIGHT.importance * entry.importance + exact + genericBonus);
  }
  return ids.length ? { ids: Int32Array.from(ids), scores: Float64Array.from(scores) } : NO_MATCHES;
}

/** The best `limit` of the matches inside the bbox, with closeness to the bias point added. */
export function rankMatches(index: GeoIndex, matches: TextMatches, options: Pick<SearchOptions, 'limit' | 'near' | 'bbox'>): ScoredEntry[] {
  return rankMatchIds(index, matches, options).map(({ id, score }) => ({ entry: index.entries[id]!, score }));
}

/** A ranked match: its entry id and score (see rankMatchIds). */
export interface RankedId {
  readonly id: number;
  readonly score: number;
}

/**
 * `rankMatches` as entry ids, best first (the caller must not keep or change the array). Points and importance come
 * from the index's typed arrays, not the entry objects (see GeoIndex.entryLon).
 */
export function rankMatchIds(index: GeoIndex, matches: TextMatches, options: Pick<SearchOptions, 'limit' | 'near' | 'bbox'>): readonly RankedId[] {
  const { near, bbox } = options;
  const { ids, scores } = matches;
  const { entryLon, entryLat, entryImportance } = index;
  const top = new TopScores(options.limit);
  for (let at = 0; at < ids.length; at++) {
    const entryId = ids[at]!;
    const lon = entryLon[entryId]!;
    const lat = entryLat[entryId]!;
    if (bbox && !(lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3])) continue;
    let score = scores[at]!;
    if (near) {
      const kilometres = distanceMetres(near.lon, near.lat, lon, lat) / 1000;
      score += WEIGHT.proximity / (1 + kilometres / 2);
    }
    top.offer(entryId, score, entryImportance[entryId]!);
  }
  return top.sorted();
}

/**
 * Per-call scratch, reused: which entries this query has touched (a stamp per entry, new for every query, so
 * nothing is cleared), each one's row of qualities (one per query word), in the order they were found.
 */
class CandidateScratch {
  stamp = 0;
  stampOf = new Uint32Array(0);
  slotOf = new Int32Array(0);
  candidates = new Int32Array(0);

  qualities = new Float32Array(4096);

  /** Sized for an index of `entries` entries; a new stamp. */
  prepare(entries: number): this {
    if (this.stampOf.length < entries) {
      this.stampOf = new Uint32Array(entries);
      this.slotOf = new Int32Array(entries);
      this.candidates = new Int32Array(entries);
      this.stamp = 0;
    }
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.stampOf.fill(0);
      this.stamp = 1;
    }
    return this;
  }

  /** Quality rows up to `length` values (a query touches a few hundred entries; grows by doubling, kept). */
  reserve(length: number): Float32Array {
    if (length > this.qualities.length) {
      const grown = new Float32Array(Math.max(length, this.qualities.length * 2));
      grown.set(this.qualities);
      this.qualities = grown;
    }
    return this.qualities;
  }
}

const sharedScratch = new CandidateScratch();

/** The best `limit` scores seen, kept sorted (limit ≤ 50, so insertion beats sorting every candidate). */
class TopScores {
  private readonly items: { id: number; score: number; importance: number }[] = [];

  constructor(private readonly limit: number) {}

  offer(id: number, score: number, importance: number): void {
    const items = this.items;
    // most candidates fall short of a full list: they are turned away before an item is made for them
    const full = items.length === this.limit;
    if (full && !before(id, score, importance, items[items.length - 1]!)) return;
    // the slot it frees (a full list drops its last item) or adds; the items it ranks before move down one
    let at = full ? items.length - 1 : items.length;
    while (at > 0 && before(id, score, importance, items[at - 1]!)) {
      items[at] = items[at - 1]!;
      at--;
    }
    items[at] = { id, score, importance };
  }

  sorted() {
    return this.items;
  }
}

/** Whether a candidate ranks before a kept item: higher score, then importance, then the lower id. */
function before(id: number, score: number, importance: number, kept: { id: number; score: number; importance: number }): boolean {
  return score > kept.score || (score === kept.score && (importance > kept.importance || (importance === kept.importance && id < kept.id)));
}

/**
 * The largest share of one spelling's significant words that the query touched, and whether
 * some spelling was met word for word, exactly.
 */
function bestCoverage(index: GeoIndex, entryId: number, hits: readonly Map<number, number>[]): { coverage: number; whole: boolean } {
  let coverage = 0;
  let whole = false;
  for (const spelling of index.names.spellings[entryId]!) {
    let covered = 0;
    let exactCovered = 0;
    for (const token of spelling.tokens) {
      if (index.names.isGenericToken(token) && spelling.significant !== spelling.tokens.length) continue;
      let tokenBest = 0;
      for (const tokens of hits) tokenBest = Math.max(tokenBest, tokens.get(token) ?? 0);
      if (tokenBest > 0) covered++;
      if (tokenBest === 1) exactCovered++;
    }
    coverage = Math.max(coverage, Math.min(1, covered / spelling.significant));
    if (exactCovered === spelling.significant) whole = true;
  }
  return { coverage, whole };
}

function spellingsTouch(index: GeoIndex, entryId: number, tokens: Map<number, number>): boolean {
  for (const spelling of index.names.spellings[entryId]!) for (const token of spelling.tokens) if (tokens.has(token)) return true;
  return false;
}

function contextQuality(index: GeoIndex, entryId: number, tokens: Map<number, number>): number {
  // an entry's context is a few dozen words; a query word's hits can be hundreds (prefixes)
  let quality = 0;
  for (const token of index.context[entryId]!) {
    const value = tokens.get(token);
    if (value !== undefined && value > quality) quality = value;
  }
  return quality;
}
