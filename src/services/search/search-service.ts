/**
 * Place search (spec part 2 §4.3; docs/places.md "Search"): GET /search, GET /search/suggestions and
 * POST /search/events. The store hands over at most CANDIDATE_CAP candidates matching the text (every
 * query word, Arabic-aware), the meaning (semantic=on: concept index, embeddings) and the filters, in an
 * index order (nearest first with an origin, else most prominent); this service ranks them
 * (search-ranking.ts), pages, and shapes the page like GET /places items.
 */
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { withFields } from '../../shared/objects.js';
import { roundTo } from '../../shared/rounding.js';
import { haversineMeters } from '../../solvers/graph/geodesy.js';
import type { SearchCandidate, SearchCandidateFilter, PlaceSearchRepository } from '../../store/pg/place-search.js';
import type { ListedPlace, PlaceRepository } from '../../store/pg/places.js';
import type { TextLanguage } from '../places/opening-hours.js';
import { ATTRIBUTION, type PlacesService } from '../places/places-service.js';
import { PLACE_CATEGORIES, categoryBySlug } from '../places/place-taxonomy.js';
import { type CategoryWords, type ConceptAnalysis, ConceptIndex } from './concept-index.js';
import type { EmbeddingSignal, EmbeddingStatus } from './embeddings.js';
import type { LiveSearchIndex } from './live-search-index.js';
import { type RankQuery, type RankedCandidate, rank, scoreCandidate } from './search-ranking.js';
import type { SearchEventBody, SearchQuery, SuggestionsQuery } from './search-queries.js';
import { MAX_SEARCH_WINDOW } from './search-queries.js';
import { analyzeQuery, foldLabel, searchDocumentOf } from './search-text.js';

/** Candidates ranked per search (the deepest page reaches MAX_SEARCH_WINDOW). */
export const CANDIDATE_CAP = MAX_SEARCH_WINDOW;
/** Candidates read beyond the page asked for, so ranking can lift a place from further down the store's order. */
export const CANDIDATE_SLACK = 100;
/** Estimated matches up to which the store reads all matches through the GIN indexes (else it walks an order index). */
export const SPARSE_MATCHES = 5_000;
const STATISTICS_TTL_MS = 60_000;
/** Matches counted for `total`; beyond it `totalCapped` is true. */
export const TOTAL_CAP = 1_000;
/** Everyday categories empty suggestions start with, in this order. */
export const EVERYDAY_CATEGORIES = ['restaurant', 'cafe', 'pharmacy', 'supermarket', 'fuel', 'atm', 'bank', 'bakery', 'hospital', 'mosque'] as const;
/** Categories whose places are landmarks, most landmark-like first. */
export const LANDMARK_CATEGORIES = ['mall', 'attraction', 'museum', 'university', 'hospital', 'park', 'sports', 'cinema', 'hotel'] as const;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface SearchServiceDeps {
  places: PlacesService;
  placeRepository: PlaceRepository;
  repository: PlaceSearchRepository;
  /** Candidates of a search: the in-memory index, kept up to date with the catalogue before each search. */
  index: LiveSearchIndex;
  concepts: ConceptIndex;
  categoryWords: CategoryWords;
  embeddings?: EmbeddingSignal;
  retentionDays: number;
  logger: Logger;
  now?: () => number;
}

/** A candidate with its distance from the origin. */
type Candidate = SearchCandidate & { distanceKm?: number };

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A candidate with its distance, field by field: every one of a search's candidates gets one, and copying a
 * frozen index candidate with Object.assign (withFields) cost 7 % of a semantic search's CPU at 100 000 places.
 */
function withDistance(candidate: SearchCandidate, distanceKm: number): Required<Candidate> {
  return {
    id: candidate.id,
    slug: candidate.slug,
    doc: candidate.doc,
    names: candidate.names,
    categories: candidate.categories,
    amenities: candidate.amenities,
    nameEn: candidate.nameEn,
    nameAr: candidate.nameAr,
    canonicalCategory: candidate.canonicalCategory,
    lat: candidate.lat,
    lng: candidate.lng,
    reviewCount: candidate.reviewCount,
    popularity: candidate.popularity,
    rating: candidate.rating,
    priceLevel: candidate.priceLevel,
    distanceKm,
  };
}

export class SearchService {
  private readonly now: () => number;
  private pruneTimer?: NodeJS.Timeout;
  private statistics?: { at: number; value: Promise<{ places: number; priced: number; categories: Map<string, number> }> };

  constructor(private readonly deps: SearchServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Indexes places not indexed since they changed (at start, after seeding). */
  async reindex(): Promise<number> {
    return this.deps.repository.reindex((place) => searchDocumentOf(place));
  }

  /** Prunes event counters past retention now and every hour. */
  startRetention(): void {
    const prune = () =>
      this.prune().catch((error: unknown) => this.deps.logger.warn({ err: (error as Error).message }, 'search: pruning event counters failed'));
    void prune();
    this.pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
    this.pruneTimer.unref();
  }

  stop(): void {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
  }

  async prune(): Promise<number> {
    const firstKept = utcDay(this.now() - (this.deps.retentionDays - 1) * 86_400_000);
    return this.deps.repository.prune(firstKept);
  }

  /**
   * Sparse or dense (see SearchCandidateFilter.plan): a text query is sparse; otherwise the estimate is
   * the catalogue's count of places in the categories asked for (category, meaning) or priced.
   */
  private async planOf(filter: SearchCandidateFilter): Promise<'sparse' | 'dense'> {
    if (filter.words.length > 0 && !filter.meaning) return 'sparse';
    const now = this.now();
    if (!this.statistics || now - this.statistics.at > STATISTICS_TTL_MS) {
      const value = this.deps.repository.statistics();
      this.statistics = { at: now, value };
      // a failed read is not kept: the next search asks again
      value.catch(() => {
        if (this.statistics?.value === value) this.statistics = undefined;
      });
    }
    const stats = await this.statistics.value;
    const inCategories = (slugs: Iterable<string>) => [...slugs].reduce((sum, slug) => sum + (stats.categories.get(slug) ?? 0), 0);
    let estimate = stats.places;
    if (filter.anyCategory?.length) estimate = Math.min(estimate, inCategories(filter.anyCategory));
    if (filter.priceLevels?.length) estimate = Math.min(estimate, stats.priced);
    if (filter.meaning) {
      // amenities (cuisines) have no count here: a meaning with one counts as dense
      const meaning = filter.meaning.amenities.length ? stats.places : inCategories(filter.meaning.categories);
      estimate = filter.anyCategory?.length || filter.priceLevels?.length ? estimate : meaning;
    }
    return estimate <= SPARSE_MATCHES ? 'sparse' : 'dense';
  }

  private meaningOf(semantic: boolean, tokens: readonly string[]): ConceptAnalysis | undefined {
    return semantic && tokens.length ? this.deps.concepts.analyze(tokens) : undefined;
  }

  /** GET /search */
  async search(query: SearchQuery, language: TextLanguage) {
    const atMs = query.at ?? this.now();
    const run = await this.run(query, atMs);
    const { analyzed, semantic, concepts, hybrid, embeddings, openNow, openNowFromQuery, sort, found } = run;
    const items = await this.shape(run.page, atMs, language);
    return {
      query: query.q,
      ...(analyzed.rewritten ? { normalizedQuery: analyzed.normalized } : {}),
      mode: query.mode,
      semantic,
      index: {
        mode: hybrid ? ('hybrid' as const) : ('text' as const),
        concepts: (concepts?.matches ?? []).map((match) => ({
          id: match.id,
          matched: match.matched,
          categories: Object.keys(match.categories),
          amenities: Object.keys(match.amenities),
          ...(match.openNow ? { openNow: true } : {}),
          ...(match.nearby ? { nearby: true } : {}),
          fuzzy: match.fuzzy,
        })),
        embeddings,
      },
      items,
      total: found.total,
      totalCapped: found.totalCapped,
      page: query.page,
      limit: query.limit,
      category: query.category ?? null,
      openNow,
      openNowFromQuery,
      price: query.price ?? null,
      sort,
      near: query.origin ? `${query.origin.lat},${query.origin.lng}` : null,
      radiusKm: query.radiusKm ?? null,
      attribution: ATTRIBUTION,
    };
  }

  /**
   * The page of a query as the index ranked it, without the listing's shaping (records, photos, opening and
   * holiday flags): for callers that need names, category, rating and position only (the assistant's grounding).
   */
  async ranked(query: SearchQuery): Promise<SearchCandidate[]> {
    const run = await this.run(query, query.at ?? this.now());
    return run.page.map((entry) => entry.candidate);
  }

  /** Candidates of a query, ranked, and the page asked for. */
  private async run(query: SearchQuery, atMs: number) {
    const analyzed = analyzeQuery(query.q);
    const typeahead = query.mode === 'typeahead';
    // meaning-based matching: opted in with semantic=on, never while typing (spec §4.3)
    const semantic = query.semantic && !typeahead;
    const concepts = this.meaningOf(semantic, analyzed.tokens.map((token) => token.token));
    // words that only asked for a filter ("open now", "near me") are not looked for in names
    const filterWords = new Set<number>();
    if (concepts) {
      let index = 0;
      for (const match of concepts.matches) {
        if (!(match.openNow || match.nearby)) continue;
        const words = match.matched.split(' ');
        for (let position = index; position < analyzed.tokens.length; position++) {
          if (analyzed.tokens.slice(position, position + words.length).map((token) => token.token).join(' ') === match.matched) {
            for (let used = position; used < position + words.length; used++) filterWords.add(used);
            index = position + words.length;
            break;
          }
        }
      }
    }
    const textTokens = analyzed.tokens.filter((_, index) => !filterWords.has(index));
    const meaningCategories = new Map(concepts?.categories ?? []);
    const meaningAmenities = new Map(concepts?.amenities ?? []);
    let embeddings: EmbeddingStatus = 'off';
    if (semantic && this.deps.embeddings && textTokens.length > 0) {
      const answer = await this.deps.embeddings.categoriesFor(textTokens.map((token) => token.token).join(' '));
      embeddings = answer.status;
      for (const [slug, weight] of answer.categories) meaningCategories.set(slug, Math.max(meaningCategories.get(slug) ?? 0, weight));
    }
    const meaningful = meaningCategories.size > 0 || meaningAmenities.size > 0;
    const openNowFromQuery = concepts?.openNow === true && !query.openNow;
    const openNow = query.openNow || concepts?.openNow === true;
    const nearby = concepts?.nearby === true && query.origin !== undefined;
    const sort = query.sort === 'relevance' && nearby ? 'distance' : query.sort;

    const required = textTokens.filter((token) => !token.optional);
    const words = required.map((token) => ({
      token: token.token,
      keys: typeahead ? [] : token.keys,
      categories: this.deps.categoryWords.categoriesOf(token.token),
      // one or two letters typed alone: the start of a name
      nameStart: typeahead && required.length === 1 && [...token.token].length < 3,
    }));
    const window = query.page * query.limit;
    const filter: SearchCandidateFilter = {
      words,
      typeahead,
      meaning: meaningful ? { categories: [...meaningCategories.keys()], amenities: [...meaningAmenities.keys()] } : undefined,
      anyCategory: query.category,
      priceLevels: query.price,
      openNow: openNow ? await this.deps.places.openNowFilter(atMs) : undefined,
      origin: query.origin,
      radiusKm: query.radiusKm,
      order: sort === 'rating' || sort === 'popularity' ? sort : query.origin ? 'distance' : 'prominence',
      exactName: sort === 'relevance' && words.length ? textTokens.map((token) => token.token).join(' ') : undefined,
      plan: 'sparse',
      limit: Math.min(CANDIDATE_CAP, window + CANDIDATE_SLACK),
      window,
    };
    filter.plan = await this.planOf(filter);
    // a query of punctuation only names nothing: no match rather than the whole catalogue
    const unsearchable = query.q !== '' && analyzed.tokens.length === 0;
    const found = unsearchable ? { candidates: [], total: 0, totalCapped: false } : await this.deps.index.candidates(filter, TOTAL_CAP);
    const rankQuery: RankQuery = {
      tokens: textTokens,
      typeahead,
      categoriesOfWord: (token) => this.deps.categoryWords.categoriesOf(token),
      meaningCategories,
      meaningAmenities,
    };
    const candidates = found.candidates.map((candidate) => this.rankCandidate(candidate, query.origin));
    const ranked = this.order(sort, rankQuery, candidates);
    const offset = (query.page - 1) * query.limit;
    const page = ranked.slice(offset, offset + query.limit);
    // meaning-based matching contributed: it matched a ranked place, or its words set a filter or the order
    const hybrid = ranked.some((entry) => entry.meaning > 0) || openNowFromQuery || (nearby && sort !== query.sort);
    return { analyzed, semantic, concepts, hybrid, embeddings, openNow, openNowFromQuery, sort, found, page };
  }

  private rankCandidate(candidate: SearchCandidate, origin: { lat: number; lng: number } | undefined): Candidate {
    return origin ? withDistance(candidate, haversineMeters(origin.lat, origin.lng, candidate.lat, candidate.lng) / 1000) : candidate;
  }

  private order(sort: SearchQuery['sort'], query: RankQuery, candidates: readonly Candidate[]): RankedCandidate<Candidate>[] {
    if (sort === 'relevance') return rank(query, candidates);
    const scored = candidates.map((candidate) => scoreCandidate(query, candidate) ?? { candidate, score: 0, kind: 'browse' as const, text: 0, meaning: 0, prominent: false });
    const bySlug = (a: RankedCandidate<Candidate>, b: RankedCandidate<Candidate>) => (a.candidate.slug < b.candidate.slug ? -1 : a.candidate.slug > b.candidate.slug ? 1 : 0);
    // the store's order, made exact: haversine distance, or rating or popularity then reviews, ties by slug
    if (sort === 'distance') return scored.sort((a, b) => a.candidate.distanceKm! - b.candidate.distanceKm! || bySlug(a, b));
    if (sort === 'rating') return scored.sort((a, b) => b.candidate.rating - a.candidate.rating || b.candidate.reviewCount - a.candidate.reviewCount || bySlug(a, b));
    return scored.sort((a, b) => b.candidate.popularity - a.candidate.popularity || b.candidate.reviewCount - a.candidate.reviewCount || bySlug(a, b));
  }

  private async shape(page: readonly RankedCandidate<Candidate>[], atMs: number, language: TextLanguage) {
    const records = await this.deps.placeRepository.findByIds(page.map((entry) => entry.candidate.id));
    const byId = new Map(records.map((record) => [record.id, record]));
    const listed: ListedPlace[] = [];
    const kept: RankedCandidate<Candidate>[] = [];
    for (const entry of page) {
      const record = byId.get(entry.candidate.id);
      if (!record) continue; // deleted between the two reads
      listed.push(entry.candidate.distanceKm === undefined ? record : withFields(record, { distanceKm: entry.candidate.distanceKm }));
      kept.push(entry);
    }
    const shaped = await this.deps.places.shapeList(listed, atMs, language);
    return shaped.map((item, index) => {
      const entry = kept[index]!;
      return withFields(item, {
        priceLevel: entry.candidate.priceLevel,
        popularity: entry.candidate.popularity,
        match: { kind: entry.kind, score: roundTo(entry.score, 2), text: roundTo(entry.text, 2), meaning: roundTo(entry.meaning, 3), prominent: entry.prominent },
      });
    });
  }

  /** GET /search/suggestions */
  async suggestions(query: SuggestionsQuery, language: TextLanguage) {
    const categoryLabel = (slug: string) => {
      const category = categoryBySlug(slug)!;
      return language === 'ar' ? category.nameAr : category.nameEn;
    };
    const categorySuggestion = (slug: string) => ({
      id: `category:${slug}`,
      type: 'category' as const,
      label: categoryLabel(slug),
      name: categoryLabel(slug),
      lat: null,
      lng: null,
      category: slug,
      slug: null,
      icon: categoryBySlug(slug)!.icon,
    });
    const placeSuggestion = (place: SearchCandidate) => {
      const name = (language === 'ar' ? place.nameAr : place.nameEn) ?? place.nameEn ?? place.nameAr ?? place.slug;
      const distanceKm = query.near ? roundTo(haversineMeters(query.near.lat, query.near.lng, place.lat, place.lng) / 1000, 3) : undefined;
      return {
        id: place.slug,
        type: 'place' as const,
        label: `${name} · ${categoryLabel(place.canonicalCategory)}`,
        name,
        lat: place.lat,
        lng: place.lng,
        category: place.canonicalCategory,
        slug: place.slug,
        icon: categoryBySlug(place.canonicalCategory)?.icon ?? null,
        ...(distanceKm !== undefined ? { distanceKm } : {}),
      };
    };
    if (!query.q) {
      const categories = EVERYDAY_CATEGORIES.slice(0, Math.ceil(query.limit / 2));
      const landmarkCount = query.limit - categories.length;
      const landmarks = (await this.deps.index.candidates({ words: [], typeahead: true, anyCategory: LANDMARK_CATEGORIES, order: 'prominence', plan: 'dense', limit: 50 }, 50)).candidates;
      const priority = (place: SearchCandidate) => {
        const index = LANDMARK_CATEGORIES.findIndex((slug) => place.categories.includes(slug));
        return index < 0 ? LANDMARK_CATEGORIES.length : index;
      };
      landmarks.sort((a, b) => b.popularity + b.reviewCount - (a.popularity + a.reviewCount) || priority(a) - priority(b) || (a.slug < b.slug ? -1 : 1));
      return {
        query: '',
        locale: language,
        suggestions: [...categories.map(categorySuggestion), ...landmarks.slice(0, landmarkCount).map(placeSuggestion)],
      };
    }
    const folded = foldLabel(query.q);
    const categories = folded
      ? PLACE_CATEGORIES.filter(
          (category) => category.slug !== 'other' && [category.nameEn, category.nameAr, ...category.aliases].some((term) => foldLabel(term).startsWith(folded)),
        )
          .slice(0, Math.min(3, query.limit))
          .map((category) => categorySuggestion(category.slug))
      : [];
    const run = await this.run(
      { q: query.q, mode: 'typeahead', semantic: false, openNow: false, sort: 'relevance', page: 1, limit: query.limit - categories.length, origin: query.near, locale: query.locale, category: undefined, price: undefined, radiusKm: undefined, at: undefined },
      this.now(),
    );
    return {
      query: query.q,
      locale: language,
      suggestions: [...categories, ...run.page.map((entry) => placeSuggestion(entry.candidate))],
    };
  }

  /** POST /search/events: counters only, nothing about the caller (docs/places.md "Search events"). */
  async recordEvent(body: SearchEventBody) {
    const day = utcDay(this.now());
    if (body.type === 'click') {
      const known = await this.deps.repository.recordClick(body.placeSlug!, day);
      if (!known) throw new ApiError('NOT_FOUND', { message: `No place has the slug ${body.placeSlug!.slice(0, 120)}` });
      return { recorded: true, type: body.type, day };
    }
    const normalized = analyzeQuery(body.query!).normalized.slice(0, 100);
    await this.deps.repository.recordSearch(normalized || body.query!.slice(0, 100), day, body.resultCount === 0);
    return { recorded: true, type: body.type, day };
  }
}
