/**
 * Wiring of user content of places (docs/places.md "User content"): the repositories, the photo store (a
 * directory under DATA_DIR, or bounded memory with the `memory://` default), the service the places service
 * reads photos and detail content from, and the route tables.
 */
import { join } from 'node:path';
import type { RouteDefinition } from '../edge/route.js';
import { adminPlaceContentRoutes, placeContentRoutes } from '../edge/routes/place-content.js';
import { PlaceContentService } from '../services/places/place-content-service.js';
import type { PlaceRecord } from '../domain/place.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { DirectoryPhotoStore, MemoryPhotoStore, type PhotoStore } from '../store/files/photo-store.js';
import { PlacePhotoRepository } from '../store/pg/place-photos.js';
import { PlaceQuestionRepository } from '../store/pg/place-questions.js';
import { PlaceReviewRepository } from '../store/pg/place-reviews.js';
import type { PlaceRepository } from '../store/pg/places.js';
import type { Backends } from './backends.js';

export interface PlaceContentWiring {
  content: PlaceContentService;
  routes: RouteDefinition[];
}

/** Photos live under DATA_DIR/uploads; with `memory://` in memory, as the database does. */
export function photoStoreOf(dataDir: string): PhotoStore {
  return dataDir.startsWith('memory://') ? new MemoryPhotoStore() : new DirectoryPhotoStore(join(dataDir, 'uploads'));
}

export function wirePlaceContent(deps: {
  config: Config;
  backends: Backends;
  places: PlaceRepository;
  findPlace: (slug: string) => Promise<PlaceRecord | null>;
  siteUrl: () => string;
  logger: Logger;
}): PlaceContentWiring {
  const sql = deps.backends.sql;
  const content = new PlaceContentService({
    reviews: new PlaceReviewRepository(sql),
    questions: new PlaceQuestionRepository(sql),
    photos: new PlacePhotoRepository(sql),
    places: deps.places,
    store: photoStoreOf(deps.config.DATA_DIR),
    findPlace: deps.findPlace,
    get siteUrl() {
      return deps.siteUrl();
    },
  });
  // files of photos an account deletion removed by cascade (the service never saw those deletes)
  void content.sweepOrphanFiles().then(
    (removed) => removed > 0 && deps.logger.info({ removed }, 'orphaned place photo files removed'),
    (error: unknown) => deps.logger.warn({ err: error }, 'sweeping orphaned place photo files failed'),
  );
  return { content, routes: [...placeContentRoutes(content), ...adminPlaceContentRoutes(content)] };
}
