/**
 * The geocoding service the routes call: forward search, autocomplete, reverse,
 * their batch forms, and localities for Plus Code addresses. It holds the index
 * of the loaded pack, or nothing when geocoding is switched off or the index
 * could not be built; then every call reports "unavailable" (the routes answer
 * 200 with `available: false, status: 502`, never a 5xx).
 */
import { LRUCache } from 'lru-cache';
import type { MapPack } from '../../datapack/map-pack.js';
import type { Logger } from '../../shared/logger.js';
import { AnswerCache, TextMatchCache, type PreparedQuery } from './answer-cache.js';
import { queryWasRewritten, rewriteQuery } from './arabic-text.js';
import { isLocality, type GeoEntry } from './geo-entries.js';
import { GeoIndex, type IndexStats } from './geo-index.js';
import { geocodeResult, localName, suggestion, type GeocodeResult } from './result-format.js';
import { matchText, rankMatchIds, searchIndex, type RankedId } from './search.js';

/** Reverse lookups: an address point or building this close wins over the street. */
const ADDRESS_REACH_METRES = 30;
/** An address node (not a building outline) counts only this close. */
const ADDRESS_POINT_METRES = 12;
const STREET_REACH_METRES = 250;
const GEOGRAPHY = ['admin', 'place', 'street', 'address', 'building'] as const;
/** The text options of the geocoder's searches: the last word unfinished (search, autocomplete) or whole (batch). */
const OPEN_GEOGRAPHY = { open: true, kinds: GEOGRAPHY };
const WHOLE_GEOGRAPHY = { open: false, kinds: GEOGRAPHY };

export type Bbox = [number, number, number, number];

export interface ForwardOptions {
  locales: readonly string[];
  limit: number;
  near?: { lat: number; lon: number };
  bbox?: Bbox;
}

/** Locale lists whose suggestions are kept per entry (a list is what `?locale=` parses to: few in practice). */
const SUGGESTION_LOCALE_LISTS = 16;

export type Suggestion = ReturnType<typeof suggestion>;

/** An autocomplete answer. `suggestions` are shared with other answers: do not mutate them. */
export interface AutocompleteAnswer {
  query: string;
  normalizedQuery?: string;
  suggestions: Suggestion[];
}

export class GeocoderUnavailable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'GeocoderUnavailable';
  }
}

export class Geocoder {
  private readonly answers = new AnswerCache();
  private readonly textMatches = new TextMatchCache();
  /** An entry's suggestion depends on the entry and the locales only, not on the query or the bias point. */
  private readonly suggestions = new LRUCache<string, (Suggestion | undefined)[]>({ max: SUGGESTION_LOCALE_LISTS });
  /** The locale list asked for last and its suggestions: nearly every call asks for the one list (no key made). */
  private lastSuggestions: { locales: readonly string[]; kept: (Suggestion | undefined)[] } | undefined;

  private constructor(
    private readonly index: GeoIndex | undefined,
    private readonly logger: Logger | undefined,
  ) {}

  /** Builds the index of a pack; on failure the geocoder exists but is unavailable (logged). */
  static build(pack: MapPack, logger?: Logger): Geocoder {
    try {
      const index = new GeoIndex(pack);
      logger?.info({ ...index.stats, buildMs: Math.round(index.stats.buildMs) }, 'geocoding index built');
      return new Geocoder(index, logger);
    } catch (error) {
      logger?.error({ err: error }, 'geocoding index could not be built; geocoding answers unavailable');
      return new Geocoder(undefined, logger);
    }
  }

  /** A geocoder that answers unavailable (GEOCODING_ENABLED=false). */
  static disabled(): Geocoder {
    return new Geocoder(undefined, undefined);
  }

  get available(): boolean {
    return this.index !== undefined;
  }

  get stats(): IndexStats | undefined {
    return this.index?.stats;
  }

  private require(): GeoIndex {
    if (!this.index) throw new GeocoderUnavailable('geocoding is not available');
    return this.index;
  }

  private run<T>(operation: (index: GeoIndex) => T): T {
    const index = this.require();
    try {
      return operation(index);
    } catch (error) {
      // a bug in the geocoder must not turn into a 5xx for the caller (spec part 2 §4.2)
      this.logger?.error({ err: error }, 'geocoder failed');
      throw new GeocoderUnavailable('the geocoder failed');
    }
  }

  /** The words' matches of `query` and its rewriting, kept (see TextMatchCache). */
  private prepared(index: GeoIndex, query: string, open: boolean): PreparedQuery {
    const textOptions = open ? OPEN_GEOGRAPHY : WHOLE_GEOGRAPHY;
    return this.textMatches.get(query, textOptions, () => {
      const rewritten = rewriteQuery(query);
      return { matches: matchText(index, query, textOptions), normalizedQuery: queryWasRewritten(query, rewritten) ? rewritten : undefined };
    });
  }

  /** The best matches of `query`, as entry ids (see rankMatchIds: not to be kept). */
  private rankedIds(index: GeoIndex, query: string, open: boolean, options: ForwardOptions): readonly RankedId[] {
    return rankMatchIds(index, this.prepared(index, query, open).matches, options);
  }

  /** Ranked results; the answer is shared with later identical calls (do not mutate it). */
  search(query: string, options: ForwardOptions): readonly GeocodeResult[] {
    return this.run((index) =>
      this.answers.get('search', query, options, () => this.rankedIds(index, query, true, options).map(({ id }) => geocodeResult({ index, locales: options.locales }, index.entries[id]!))),
    );
  }

  /**
   * Suggestions while typing; the answer is shared with later identical calls (do not mutate it). A call with a
   * bias point is not kept whole: a phone sends its own position with every keystroke, so such an answer rarely
   * serves anyone else. What does not depend on the point is kept instead (the words' matches, the query's
   * rewriting, each entry's suggestion), and a new point costs a distance per match and the top `limit`.
   */
  autocomplete(query: string, options: ForwardOptions): AutocompleteAnswer {
    return this.run((index) => (options.near ? this.autocompleteAnswer(index, query, options) : this.answers.get('autocomplete', query, options, () => this.autocompleteAnswer(index, query, options))));
  }

  private autocompleteAnswer(index: GeoIndex, query: string, options: ForwardOptions): AutocompleteAnswer {
    const { matches, normalizedQuery } = this.prepared(index, query, true);
    const ranked = rankMatchIds(index, matches, options);
    const kept = this.keptSuggestions(index, options.locales);
    const suggestions = new Array<Suggestion>(ranked.length);
    for (let at = 0; at < ranked.length; at++) {
      const id = ranked[at]!.id;
      suggestions[at] = kept[id] ??= suggestion({ index, locales: options.locales }, index.entries[id]!);
    }
    return normalizedQuery === undefined ? { query, suggestions } : { query, normalizedQuery, suggestions };
  }

  /** The kept suggestions (a slot per entry) of a locale list. */
  private keptSuggestions(index: GeoIndex, locales: readonly string[]): (Suggestion | undefined)[] {
    const last = this.lastSuggestions;
    if (last !== undefined && last.locales.length === locales.length && last.locales.every((locale, at) => locale === locales[at])) return last.kept;
    const key = locales.join(',');
    let kept = this.suggestions.get(key);
    if (kept === undefined) this.suggestions.set(key, (kept = new Array<Suggestion | undefined>(index.entries.length)));
    this.lastSuggestions = { locales: [...locales], kept };
    return kept;
  }

  /** Street or building detail at a point (zoom 18), else the smallest enclosing area; undefined when nothing is near. */
  reverse(lat: number, lon: number, locales: readonly string[]): (GeocodeResult & { lng: string }) | undefined {
    return this.run((index) => {
      const context = { index, locales };
      const address = index.addressAt(lon, lat, ADDRESS_REACH_METRES);
      const street = index.nearestStreet(lon, lat, STREET_REACH_METRES);
      let result: GeocodeResult | undefined;
      // the building under the point, or an address point closer than any street, is the detail asked for
      if (address && (!street || address.distance === 0 || (address.distance <= ADDRESS_POINT_METRES && address.distance < street.distance))) {
        result = geocodeResult(context, address.entry);
        if (!result.address.road && street) result.address = { road: localName(street.entry, locales) ?? '', ...result.address };
      } else if (street) {
        const parents = index.parentsAt(lon, lat);
        result = geocodeResult(context, street.entry, { point: street, parents });
      } else {
        const [smallest, ...rest] = index.parentsAt(lon, lat);
        if (smallest !== undefined) result = geocodeResult(context, index.entries[smallest]!, { parents: rest });
      }
      return result && { ...result, lng: result.lon };
    });
  }

  /** Top match of each query (spec: POST /geocode/batch). */
  batch(queries: readonly string[], options: ForwardOptions) {
    return this.run((index) =>
      queries.map((query) => {
        const [top] = typeof query === 'string' && query.trim() ? this.rankedIds(index, query, false, { ...options, limit: 1 }) : [];
        if (!top) return { query, found: false, lat: null, lng: null, displayName: null, type: null, category: null };
        const result = geocodeResult({ index, locales: options.locales }, index.entries[top.id]!);
        return { query, found: true, lat: Number(result.lat), lng: Number(result.lon), displayName: result.display_name, type: result.type, category: result.category };
      }),
    );
  }

  /** The nearest named locality of a point (enclosing area or nearby place), in the language preference. */
  locality(lat: number, lon: number, locales: readonly string[]): { name: string; lat: number; lon: number } | undefined {
    return this.run((index) => {
      const entry = index.localityAt(lon, lat);
      const name = entry && localName(entry, locales);
      return entry && name ? { name, lat: entry.lat, lon: entry.lon } : undefined;
    });
  }

  /** A locality named by the caller (for short Plus Codes such as "387C+2Q Nasr City"): its representative point. */
  findLocality(name: string): GeoEntry | undefined {
    return this.run((index) => searchIndex(index, name, { limit: 10, open: false, kinds: ['admin', 'place'] }).find(({ entry }) => isLocality(entry))?.entry);
  }
}
