/**
 * Wiring of place search (spec part 2 §4.3): the search store over the place catalogue, the indexer run
 * after seeding, the concept index, the optional embeddings endpoint, event retention and the routes.
 */
import type { RouteDefinition } from '../edge/route.js';
import { searchRoutes } from '../edge/routes/search.js';
import type { PlacesService } from '../services/places/places-service.js';
import { PLACE_CATEGORIES } from '../services/places/place-taxonomy.js';
import { CategoryWords, ConceptIndex } from '../services/search/concept-index.js';
import { EmbeddingSignal, EmbeddingsClient } from '../services/search/embeddings.js';
import { LiveSearchIndex } from '../services/search/live-search-index.js';
import { SearchService } from '../services/search/search-service.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { PlaceSearchRepository } from '../store/pg/place-search.js';
import type { PlaceRepository } from '../store/pg/places.js';
import type { Backends } from './backends.js';

export interface SearchWiring {
  search: SearchService;
  routes: RouteDefinition[];
  stop(): void;
}

export async function wireSearch(deps: {
  config: Config;
  backends: Backends;
  places: PlacesService;
  placeRepository: PlaceRepository;
  logger: Logger;
  /** Place id → campaign id of live promoted placements, so /search marks those results sponsored (docs/ads.md). */
  sponsoredPlaces?: (placeIds: readonly string[]) => Promise<Map<string, string>>;
}): Promise<SearchWiring> {
  const { config, logger } = deps;
  const repository = new PlaceSearchRepository(deps.backends.sql, deps.placeRepository);
  const index = new LiveSearchIndex(repository, logger);
  let embeddings: EmbeddingSignal | undefined;
  if (config.EMBEDDINGS_URL) {
    const client = new EmbeddingsClient({ url: config.EMBEDDINGS_URL, model: config.EMBEDDINGS_MODEL, apiKey: config.EMBEDDINGS_API_KEY, timeoutMs: config.EMBEDDINGS_TIMEOUT_MS });
    const categories = PLACE_CATEGORIES.filter((category) => category.slug !== 'other').map((category) => ({
      slug: category.slug,
      text: `${category.nameEn} / ${category.nameAr}: ${category.aliases.join(', ')}`,
    }));
    embeddings = new EmbeddingSignal(client, categories, logger);
    // in the background: the server starts without waiting for the endpoint
    void embeddings.warm();
  }
  const search = new SearchService({
    places: deps.places,
    placeRepository: deps.placeRepository,
    repository,
    index,
    concepts: ConceptIndex.standard(),
    categoryWords: new CategoryWords(),
    embeddings,
    retentionDays: config.SEARCH_EVENT_RETENTION_DAYS,
    logger,
  });
  const started = performance.now();
  const indexed = await search.reindex();
  if (indexed > 0) logger.info({ places: indexed, ms: Math.round(performance.now() - started) }, 'search: place documents indexed');
  // loaded in the background: until it has, searches are answered by the SQL store
  void index.catchUp().catch((error: unknown) => logger.warn({ err: (error as Error).message }, 'search: loading the candidate index failed'));
  search.startRetention();
  return { search, routes: searchRoutes(search, deps.sponsoredPlaces), stop: () => search.stop() };
}
