/**
 * The search's candidate index in memory (docs/places.md "In-memory candidate index"): every place's search
 * document, names, prefixes, categories, amenities, position, hours and ranking fields, with postings per
 * document word, prefix, name, category and amenity. It answers `candidates` with the contract of the SQL
 * store (PlaceSearchRepository.candidates: every query word, Arabic-aware, the meaning and the filters; the
 * first `limit` in the store's order, exact names first, ties by slug bytewise) — but exactly: every match is
 * counted and ordered, with no bounded pool. Why: at 100 000 places the SQL read cost 10–40 ms a search on this
 * machine (a transaction of four round trips, a wide pool read, JSON of the pool), the index a fraction of a
 * millisecond.
 *
 * The words of a query match as the SQL LIKE patterns do on the document ` w1 w2 ~k1 `: `% tok%` is a
 * document word starting with the token (a range of the sorted vocabulary), `%tok%` a word containing it
 * (a scan of the vocabulary, not of the places), `% ~key %` the word `~key`.
 */
import type { SearchCandidate, SearchCandidateFilter, SearchIndexRecord } from '../../store/pg/place-search.js';
import { EARTH_RADIUS_M, haversineMeters } from '../../solvers/graph/geodesy.js';

type Postings = Map<string, number[]>;

function addPosting<K>(postings: Map<K, number[]>, key: K, slot: number): void {
  const list = postings.get(key);
  if (list) list.push(slot);
  else postings.set(key, [slot]);
}

function removePosting<K>(postings: Map<K, number[]>, key: K, slot: number): void {
  const list = postings.get(key);
  if (!list) return;
  const at = list.indexOf(slot);
  if (at < 0) return;
  list[at] = list[list.length - 1]!;
  list.pop();
  if (list.length === 0) postings.delete(key);
}

/** The words of a search document (` w1 w2 ~k1 `), each once. */
function wordsOf(doc: string): string[] {
  return [...new Set(doc.split(' ').filter(Boolean))];
}

const codePoints = (text: string) => [...text].length;

/** Fields the postings are built from: a change elsewhere (rating, popularity) leaves them as they are. */
function sameText(a: SearchIndexRecord, b: SearchIndexRecord): boolean {
  const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((value, index) => value === y[index]);
  return a.doc === b.doc && same(a.names, b.names) && same(a.prefixes, b.prefixes) && same(a.categories, b.categories) && same(a.amenities, b.amenities);
}

export class PlaceSearchIndex {
  private readonly slotOf = new Map<string, number>();
  private readonly records: SearchIndexRecord[] = [];
  /** Per slot, the candidate a search hands out (made once per version of the place, not per search). */
  private readonly candidatesOf: SearchCandidate[] = [];
  private readonly words: Postings = new Map();
  /** The distinct document words, sorted (code units): word-start matches are a range of it. */
  private vocabulary: string[] = [];
  private vocabularySorted = true;
  private readonly prefixes: Postings = new Map();
  private readonly names: Postings = new Map();
  private readonly categories: Postings = new Map();
  private readonly amenities: Postings = new Map();
  /** Per query: the sets of slots a match is built from (text words, categories). */
  private readonly marks = new SlotMarks();
  /** Per slot, the fields every match is ordered or filtered by, as columns (a scan reads no record). */
  private columns = newColumns(0);
  /** Per slot, its slug's place in bytewise order (ties of every order), computed again after a slug changes. */
  private slugRanks = new Int32Array(0);
  private slugRanksValid = true;
  /** Slots by grid cell (see PositionGrid): the nearest-first walk of a distance order. */
  private readonly grid = new PositionGrid();
  /** Per query: the matches a nearest-first walk tests its places against (the category marks reuse `marks`). */
  private readonly matchMarks = new SlotMarks();
  /** Searches answered by the nearest-first walk (the rest scanned their matches). */
  walks = 0;

  get size(): number {
    return this.records.length;
  }

  /** Adds new places and replaces known ones (by id). */
  apply(records: readonly SearchIndexRecord[]): void {
    if (this.marks.capacity < this.records.length + records.length) {
      const capacity = Math.max(1_024, (this.records.length + records.length) * 2);
      this.marks.grow(capacity);
      this.matchMarks.grow(capacity);
      const columns = newColumns(capacity);
      for (const name of Object.keys(columns) as (keyof Columns)[]) columns[name].set(this.columns[name]);
      this.columns = columns;
    }
    for (const record of records) {
      let slot = this.slotOf.get(record.id);
      if (slot === undefined) {
        slot = this.records.length;
        this.records.push(record);
        this.candidatesOf.push(candidateOf(record));
        this.slotOf.set(record.id, slot);
        this.slugRanksValid = false;
        this.post(record, slot, true);
      } else {
        const previous = this.records[slot]!;
        this.records[slot] = record;
        this.candidatesOf[slot] = candidateOf(record);
        if (previous.slug !== record.slug) this.slugRanksValid = false;
        if (!sameText(previous, record)) {
          this.post(previous, slot, false);
          this.post(record, slot, true);
        }
      }
      const { lat, lng, popularity, reviewCount, rating } = this.columns;
      this.grid.place(slot, record.lat, record.lng);
      lat[slot] = record.lat;
      lng[slot] = record.lng;
      popularity[slot] = record.popularity;
      reviewCount[slot] = record.reviewCount;
      rating[slot] = record.rating;
    }
  }

  private rankedSlugs(): Int32Array {
    if (!this.slugRanksValid || this.slugRanks.length < this.records.length) {
      const order = this.records.map((_, slot) => slot);
      order.sort((a, b) => {
        const x = this.records[a]!.slug;
        const y = this.records[b]!.slug;
        return x < y ? -1 : x > y ? 1 : 0;
      });
      this.slugRanks = new Int32Array(this.records.length);
      order.forEach((slot, rank) => (this.slugRanks[slot] = rank));
      this.slugRanksValid = true;
    }
    return this.slugRanks;
  }

  private post(record: SearchIndexRecord, slot: number, add: boolean): void {
    const change = add ? addPosting : removePosting;
    for (const word of wordsOf(record.doc)) {
      if (add && !this.words.has(word)) {
        this.vocabulary.push(word);
        this.vocabularySorted = false;
      }
      change(this.words, word, slot);
      if (!add && !this.words.has(word)) this.vocabulary = this.vocabulary.filter((known) => known !== word);
    }
    for (const prefix of new Set(record.prefixes)) change(this.prefixes, prefix, slot);
    for (const name of new Set(record.names)) change(this.names, name, slot);
    for (const category of new Set(record.categories)) change(this.categories, category, slot);
    for (const amenity of new Set(record.amenities)) change(this.amenities, amenity, slot);
  }

  private sortedVocabulary(): string[] {
    if (!this.vocabularySorted) {
      this.vocabulary.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      this.vocabularySorted = true;
    }
    return this.vocabulary;
  }

  /** Vocabulary words starting with `token`: a range of the sorted vocabulary. */
  private wordsStartingWith(token: string): string[] {
    const vocabulary = this.sortedVocabulary();
    let low = 0;
    let high = vocabulary.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (vocabulary[middle]! < token) low = middle + 1;
      else high = middle;
    }
    const found: string[] = [];
    for (let index = low; index < vocabulary.length && vocabulary[index]!.startsWith(token); index++) found.push(vocabulary[index]!);
    return found;
  }

  /** Marks with a new stamp every slot of the given postings; returns the stamp. */
  private markAll(lists: Iterable<readonly number[] | undefined>): number {
    const stamp = this.marks.next();
    for (const list of lists) if (list) for (const slot of list) this.marks.set(slot, stamp);
    return stamp;
  }

  /** The postings a query word matches through (any of them). */
  private wordLists(word: SearchCandidateFilter['words'][number], typeahead: boolean): (readonly number[] | undefined)[] {
    const lists: (readonly number[] | undefined)[] = [];
    if (codePoints(word.token) < 3) lists.push(this.prefixes.get(word.nameStart ? `^${word.token}` : word.token));
    else for (const found of this.wordsStartingWith(word.token)) lists.push(this.words.get(found));
    if (!typeahead) {
      if (codePoints(word.token) >= 4) for (const found of this.vocabulary) if (found.includes(word.token)) lists.push(this.words.get(found));
      for (const key of word.keys) lists.push(this.words.get(`~${key}`));
    }
    for (const category of word.categories) lists.push(this.categories.get(category));
    return lists;
  }

  /** Slots matching the text and meaning of a filter (undefined: no text or meaning condition, every place). */
  private matching(filter: SearchCandidateFilter): number[] | undefined {
    const meaningLists = [
      ...(filter.meaning?.categories ?? []).map((category) => this.categories.get(category)),
      ...(filter.meaning?.amenities ?? []).map((amenity) => this.amenities.get(amenity)),
    ];
    if (filter.words.length === 0 && meaningLists.length === 0) return undefined;
    let text: number[] = [];
    if (filter.words.length > 0) {
      // every word: the slots of the first, kept while each next word marks them too
      text = this.collect(this.wordLists(filter.words[0]!, filter.typeahead));
      for (const word of filter.words.slice(1)) {
        if (text.length === 0) break;
        const stamp = this.markAll(this.wordLists(word, filter.typeahead));
        text = text.filter((slot) => this.marks.has(slot, stamp));
      }
    }
    return meaningLists.length === 0 ? text : this.collect([text, ...meaningLists]);
  }

  /** The slots of any of the postings, each once. */
  private collect(lists: Iterable<readonly number[] | undefined>): number[] {
    const stamp = this.marks.next();
    const slots: number[] = [];
    for (const list of lists) {
      if (!list) continue;
      for (const slot of list) {
        if (this.marks.has(slot, stamp)) continue;
        this.marks.set(slot, stamp);
        slots.push(slot);
      }
    }
    return slots;
  }

  /** The filters that are not text: category, price, open now, radius. */
  private passes(filter: SearchCandidateFilter, irregularOpen: ReadonlySet<string> | undefined, categoryStamp: number | undefined): ((slot: number) => boolean) | undefined {
    if (categoryStamp === undefined && !filter.priceLevels?.length && !filter.openNow && !(filter.origin && filter.radiusKm !== undefined)) return undefined;
    const prices = filter.priceLevels?.length ? new Set(filter.priceLevels) : undefined;
    const minutes = filter.openNow ? new Map(filter.openNow.zones.map((zone) => [zone.timeZone, zone.minuteOfWeek])) : undefined;
    const origin = filter.origin;
    const radiusKm = origin ? filter.radiusKm : undefined;
    return (slot) => {
      const record = this.records[slot]!;
      if (categoryStamp !== undefined && !this.marks.has(slot, categoryStamp)) return false;
      if (prices && (record.priceLevel === null || !prices.has(record.priceLevel))) return false;
      if (minutes) {
        const minute = record.hoursWeekStable ? minutes.get(record.timeZone) : undefined;
        const open = minute !== undefined && record.intervals.some(([start, end]) => start <= minute && end > minute);
        if (!open && !irregularOpen!.has(record.id)) return false;
      }
      if (radiusKm !== undefined && haversineMeters(origin!.lat, origin!.lng, this.columns.lat[slot]!, this.columns.lng[slot]!) / 1000 > radiusKm) return false;
      return true;
    };
  }

  /** At most `filter.limit` candidates in the store's order, and how many match (counted up to `countCap`). */
  candidates(filter: SearchCandidateFilter, countCap: number, walk: 'auto' | 'never' = 'auto'): { candidates: SearchCandidate[]; total: number; totalCapped: boolean } {
    let matched = this.matching(filter);
    // the category filter: with text, as marks computed after the text's (they share the mark array); without,
    // the places of those categories are the ones looked at
    let categoryStamp: number | undefined;
    if (filter.anyCategory?.length) {
      const lists = filter.anyCategory.map((category) => this.categories.get(category));
      if (matched) categoryStamp = this.markAll(lists);
      else matched = this.collect(lists);
    }
    const keep = this.passes(filter, filter.openNow ? new Set(filter.openNow.openIrregularIds) : undefined, categoryStamp);
    const exact = new Set(filter.exactName === undefined ? [] : (this.names.get(filter.exactName) ?? []));
    const slugRanks = this.rankedSlugs();
    const walked = this.nearestFirst(filter, matched, keep, exact, slugRanks, countCap, walk);
    if (walked) return { candidates: walked.sorted().map((slot) => this.candidatesOf[slot]!), ...walked.counted };
    const best = new BestOf(filter, this.columns, slugRanks, exact);
    let total = 0;
    const consider = (slot: number) => {
      if (keep && !keep(slot)) return;
      total++;
      best.offer(slot);
    };
    if (matched) for (const slot of matched) consider(slot);
    else for (let slot = 0; slot < this.records.length; slot++) consider(slot);
    return { candidates: best.sorted().map((slot) => this.candidatesOf[slot]!), ...counted(total, countCap) };
  }

  /**
   * The distance order over many matches, nearest cells first: a scan offers every match to the heap (tens of
   * thousands for a meaning or a common category at 100 000 places), the walk only those of the cells around the
   * origin, until no unvisited cell can hold a place nearer than the worst one kept. Same answer as the scan
   * (a unit test holds it): undefined where the scan is chosen — exact names first (they outrank any distance),
   * few matches, or a walk that grew costlier than the scan would have been.
   */
  private nearestFirst(
    filter: SearchCandidateFilter,
    matched: readonly number[] | undefined,
    keep: ((slot: number) => boolean) | undefined,
    exact: ReadonlySet<number>,
    slugRanks: Int32Array,
    countCap: number,
    walk: 'auto' | 'never',
  ): { sorted(): number[]; counted: { total: number; totalCapped: boolean } } | undefined {
    const origin = filter.order === 'distance' ? filter.origin : undefined;
    if (walk === 'never' || !origin || exact.size > 0 || filter.limit <= 0) return undefined;
    const matches = matched ? matched.length : this.records.length;
    // the walk looks at every place of the cells it visits, matching or not: about limit / (share matching)
    if (matches * matches < WALK_WORTH * filter.limit * this.records.length) return undefined;
    let isMatch: ((slot: number) => boolean) | undefined;
    if (matched) {
      const stamp = this.matchMarks.next();
      for (const slot of matched) this.matchMarks.set(slot, stamp);
      isMatch = (slot) => this.matchMarks.has(slot, stamp);
    }
    const best = new BestOf(filter, this.columns, slugRanks, exact);
    const finished = this.grid.walk(origin.lat, origin.lng, matches, (slot) => {
      if ((isMatch && !isMatch(slot)) || (keep && !keep(slot))) return;
      best.offer(slot);
    }, () => best.worstKey(), filter.radiusKm === undefined ? Infinity : planarReach(origin.lat, filter.radiusKm));
    if (!finished) return undefined;
    this.walks++;
    // the count: every match passing the filters, up to one past the cap
    let total = 0;
    if (!keep) total = matches;
    else if (matched) {
      for (const slot of matched) if (keep(slot) && ++total > countCap) break;
    } else {
      for (let slot = 0; slot < this.records.length; slot++) if (keep(slot) && ++total > countCap) break;
    }
    return { sorted: () => best.sorted(), counted: counted(total, countCap) };
  }
}

/**
 * Per slot, the stamp of the last set it was marked in: each set takes a new stamp, so nothing is cleared between
 * sets (the array is cleared once in 2³² sets).
 */
class SlotMarks {
  private marks = new Uint32Array(0);
  private stamp = 0;

  get capacity(): number {
    return this.marks.length;
  }

  grow(capacity: number): void {
    const marks = new Uint32Array(capacity);
    marks.set(this.marks);
    this.marks = marks;
  }

  /** A stamp no slot holds yet. */
  next(): number {
    if (this.stamp === 0xffffffff) {
      this.marks.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  set(slot: number, stamp: number): void {
    this.marks[slot] = stamp;
  }

  has(slot: number, stamp: number): boolean {
    return this.marks[slot] === stamp;
  }
}

/**
 * The farthest a place within `radiusKm` (haversine) of a point at `lat` can be in planar degrees: the corner of the
 * spherical cap's bounding box (latitude ± the radius's angle, longitude ± asin(sin(angle) / cos(lat))), with a
 * margin for rounding. Infinity where the cap reaches a pole. A walk with a radius stops there even when fewer places
 * than the page lie inside it (else it ran on until its budget, then the scan answered: twice the work).
 */
function planarReach(lat: number, radiusKm: number): number {
  const angle = (radiusKm * 1000) / EARTH_RADIUS_M;
  const sine = Math.sin(angle) / Math.cos((lat * Math.PI) / 180);
  if (angle >= Math.PI / 2 || !(sine < 1)) return Infinity;
  const degrees = 180 / Math.PI;
  return Math.hypot(angle * degrees, Math.asin(sine) * degrees) * 1.000_001 + 1e-9;
}

/** A count as candidates answer it: up to the cap, and whether there were more. */
function counted(total: number, countCap: number): { total: number; totalCapped: boolean } {
  return { total: Math.min(total, countCap), totalCapped: total > countCap };
}

/** The walk is chosen when matches² ≥ WALK_WORTH × limit × places (it then visits about 1/WALK_WORTH of the matches). */
const WALK_WORTH = 4;

/**
 * Slots by square cell of CELL_DEGREES (about 1.1 km): the walk visits cells ring by ring around an origin's cell.
 * A place at ring r lies at least (r − 1) cells from the origin in planar degrees — the unit of the distance order.
 */
const CELL_DEGREES = 0.01;

class PositionGrid {
  private readonly cells = new Map<number, number[]>();
  /** Per slot, its cell key (NaN: none yet). */
  private cellOf = new Float64Array(0);
  /** The bounds of every cell ever filled: rings stop there. */
  private minX = Infinity;
  private maxX = -Infinity;
  private minY = Infinity;
  private maxY = -Infinity;

  place(slot: number, lat: number, lng: number): void {
    if (this.cellOf.length <= slot) {
      const grown = new Float64Array(Math.max(1_024, (slot + 1) * 2)).fill(Number.NaN);
      grown.set(this.cellOf);
      this.cellOf = grown;
    }
    const x = Math.floor(lng / CELL_DEGREES);
    const y = Math.floor(lat / CELL_DEGREES);
    const key = cellKey(x, y);
    const previous = this.cellOf[slot]!;
    if (previous === key) return;
    if (!Number.isNaN(previous)) removePosting(this.cells, previous, slot);
    addPosting(this.cells, key, slot);
    this.cellOf[slot] = key;
    this.minX = Math.min(this.minX, x);
    this.maxX = Math.max(this.maxX, x);
    this.minY = Math.min(this.minY, y);
    this.maxY = Math.max(this.maxY, y);
  }

  /**
   * Visits the slots of the cells around (lat, lng), ring by ring, while `worstKey` (the squared planar distance
   * a place must beat to enter, Infinity while the page is not full) may still be beaten by the next ring.
   * Answers false, having stopped, once cells and slots looked at exceed `budget` (the scan is then cheaper).
   * Places farther than `reach` (planar degrees) are not wanted: rings past it are not visited.
   */
  walk(lat: number, lng: number, budget: number, visit: (slot: number) => void, worstKey: () => number, reach = Infinity): boolean {
    if (this.minX > this.maxX) return true;
    const ox = Math.floor(lng / CELL_DEGREES);
    const oy = Math.floor(lat / CELL_DEGREES);
    // the first ring that reaches the filled bounds, and the last one needed to cover them
    const first = Math.max(0, this.minX - ox, ox - this.maxX, this.minY - oy, oy - this.maxY);
    const last = Math.max(ox - this.minX, this.maxX - ox, oy - this.minY, this.maxY - oy);
    let spent = 0;
    const inY = (y: number) => y >= this.minY && y <= this.maxY;
    const inX = (x: number) => x >= this.minX && x <= this.maxX;
    const visitCell = (x: number, y: number) => {
      spent++;
      const slots = this.cells.get(cellKey(x, y));
      if (!slots) return;
      spent += slots.length;
      for (const slot of slots) visit(slot);
    };
    for (let ring = first; ring <= last; ring++) {
      // (ring − 1) cells, less a hundredth of one for the rounding of a coordinate's cell on a boundary
      const bound = Math.max(0, ring - 1.01) * CELL_DEGREES;
      // nothing nearer than the worst kept can be left, or nothing within reach of the radius
      if (bound * bound > worstKey() || bound > reach) return true;
      if (spent > budget) return false;
      const x0 = Math.max(ox - ring, this.minX);
      const x1 = Math.min(ox + ring, this.maxX);
      const y0 = Math.max(oy - ring + 1, this.minY);
      const y1 = Math.min(oy + ring - 1, this.maxY);
      // the ring's top and bottom rows, then its left and right columns between them (within the filled bounds)
      if (inY(oy - ring)) for (let x = x0; x <= x1; x++) visitCell(x, oy - ring);
      if (ring > 0 && inY(oy + ring)) for (let x = x0; x <= x1; x++) visitCell(x, oy + ring);
      if (inX(ox - ring)) for (let y = y0; y <= y1; y++) visitCell(ox - ring, y);
      if (ring > 0 && inX(ox + ring)) for (let y = y0; y <= y1; y++) visitCell(ox + ring, y);
    }
    return true;
  }
}

/** One number per cell (x within ±18 000 and y within ±9 000 cells on Earth). */
const cellKey = (x: number, y: number) => (y + 20_000) * 40_000 + (x + 20_000);

interface Columns {
  lat: Float64Array;
  lng: Float64Array;
  popularity: Float64Array;
  reviewCount: Float64Array;
  rating: Float64Array;
}

function newColumns(capacity: number): Columns {
  return { lat: new Float64Array(capacity), lng: new Float64Array(capacity), popularity: new Float64Array(capacity), reviewCount: new Float64Array(capacity), rating: new Float64Array(capacity) };
}

/** Frozen: one object serves every search that hands the place out. */
function candidateOf(record: SearchIndexRecord): SearchCandidate {
  const { prefixes: _prefixes, timeZone: _timeZone, hoursWeekStable: _stable, intervals: _intervals, ...candidate } = record;
  return Object.freeze(candidate);
}

/**
 * The first `limit` slots in the store's order: exact names first, then nearest (planar, as the SQL `<->`), or
 * most prominent, best rated or most popular; ties by the next fields, then slug. A bounded heap with the worst
 * kept entry on top; each offered slot's exactness and first key are computed once, so a slot that cannot enter
 * (most of them) costs one comparison of two numbers.
 */
class BestOf {
  private readonly slots: number[] = [];
  /** Per heap entry: 0 for an exact name, 1 otherwise, then the order's first key (smaller first). */
  private readonly ranks: number[] = [];
  private readonly keys: number[] = [];
  private readonly limit: number;
  private readonly keyOf: (slot: number) => number;
  private readonly tieBreak: (a: number, b: number) => number;

  constructor(
    filter: SearchCandidateFilter,
    columns: Columns,
    slugRanks: Int32Array,
    private readonly exact: ReadonlySet<number>,
  ) {
    this.limit = filter.limit;
    const origin = filter.order === 'distance' ? filter.origin : undefined;
    const { lat, lng, popularity, reviewCount, rating } = columns;
    const bySlug = (a: number, b: number) => slugRanks[a]! - slugRanks[b]!;
    if (origin) {
      // the squared planar distance orders as the SQL `<->` does
      this.keyOf = (slot) => (lng[slot]! - origin.lng) ** 2 + (lat[slot]! - origin.lat) ** 2;
      this.tieBreak = bySlug;
    } else if (filter.order === 'rating') {
      this.keyOf = (slot) => -rating[slot]!;
      this.tieBreak = (a, b) => reviewCount[b]! - reviewCount[a]! || bySlug(a, b);
    } else if (filter.order === 'popularity') {
      this.keyOf = (slot) => -popularity[slot]!;
      this.tieBreak = (a, b) => reviewCount[b]! - reviewCount[a]! || bySlug(a, b);
    } else {
      this.keyOf = (slot) => -popularity[slot]!;
      this.tieBreak = (a, b) => reviewCount[b]! - reviewCount[a]! || rating[b]! - rating[a]! || bySlug(a, b);
    }
  }

  private compare(slotA: number, rankA: number, keyA: number, slotB: number, rankB: number, keyB: number): number {
    return rankA - rankB || keyA - keyB || this.tieBreak(slotA, slotB);
  }

  /** Heap entries i and j compared. */
  private entries(i: number, j: number): number {
    return this.compare(this.slots[i]!, this.ranks[i]!, this.keys[i]!, this.slots[j]!, this.ranks[j]!, this.keys[j]!);
  }

  offer(slot: number): void {
    const rank = this.exact.size > 0 && this.exact.has(slot) ? 0 : 1;
    const key = this.keyOf(slot);
    if (this.slots.length < this.limit) {
      this.slots.push(slot);
      this.ranks.push(rank);
      this.keys.push(key);
      this.up(this.slots.length - 1);
    } else if (this.limit > 0 && this.compare(slot, rank, key, this.slots[0]!, this.ranks[0]!, this.keys[0]!) < 0) {
      this.slots[0] = slot;
      this.ranks[0] = rank;
      this.keys[0] = key;
      this.down(0);
    }
  }

  /** The first key a slot must be below (or tie and win on the next fields) to enter: Infinity while not full. */
  worstKey(): number {
    return this.slots.length < this.limit ? Infinity : this.keys[0]!;
  }

  sorted(): number[] {
    const order = this.slots.map((_, index) => index);
    order.sort((i, j) => this.entries(i, j));
    return order.map((index) => this.slots[index]!);
  }

  private swap(i: number, j: number): void {
    [this.slots[i], this.slots[j]] = [this.slots[j]!, this.slots[i]!];
    [this.ranks[i], this.ranks[j]] = [this.ranks[j]!, this.ranks[i]!];
    [this.keys[i], this.keys[j]] = [this.keys[j]!, this.keys[i]!];
  }

  // a max-heap under the order: the worst kept entry at the root
  private up(index: number): void {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.entries(index, parent) <= 0) return;
      this.swap(index, parent);
      index = parent;
    }
  }

  private down(index: number): void {
    const size = this.slots.length;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let worst = index;
      if (left < size && this.entries(left, worst) > 0) worst = left;
      if (right < size && this.entries(right, worst) > 0) worst = right;
      if (worst === index) return;
      this.swap(index, worst);
      index = worst;
    }
  }
}
