/**
 * Wiring of the place catalogue (spec part 2 §2.4–2.6, §3, §4.4): the repository, the first-start /
 * after-ingest seed from the map data pack, the places service and its route tables.
 */
import type { MapPack } from '../datapack/map-pack.js';
import type { RouteDefinition } from '../edge/route.js';
import { adminPlaceRoutes, placeRoutes } from '../edge/routes/places.js';
import type { CalendarService } from '../services/calendars/calendar-service.js';
import { seedPlaces } from '../services/places/place-seeder.js';
import { PlacesService } from '../services/places/places-service.js';
import type { PlaceCategory } from '../services/places/place-taxonomy.js';
import { countryAt } from '../services/geocoding/countries.js';
import type { Geocoder } from '../services/geocoding/geocoder.js';
import type { RoutingService } from '../services/routing/routing-service.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { PlaceRepository } from '../store/pg/places.js';
import type { Backends } from './backends.js';
import { wirePlaceContent } from './place-content-wiring.js';

export interface PlacesWiring {
  repository: PlaceRepository;
  places: PlacesService;
  routes: RouteDefinition[];
}

/** A point's country: the geocoder's admin areas, else the region's country boxes. */
function countryResolver(geocoder: Geocoder) {
  return (lat: number, lng: number): string | undefined => {
    try {
      const code = (geocoder.reverse(lat, lng, ['en'])?.address as Record<string, string | undefined> | undefined)?.country_code;
      if (code) return code;
    } catch {
      // geocoding off: the country boxes answer
    }
    return countryAt(lng, lat)?.code;
  };
}

export interface PlacesWiringDeps {
  config: Config;
  backends: Backends;
  pack: MapPack;
  geocoder: Geocoder;
  calendars: CalendarService;
  routing: RoutingService;
  logger: Logger;
  /** The listening port, for the default site origin. */
  port: () => number;
  /** Path under /api/v1 of a category's pin icon (map data's category icons). */
  pinPath: (category: PlaceCategory, theme: 'light' | 'dark') => string;
}

export async function wirePlaces(deps: PlacesWiringDeps): Promise<PlacesWiring> {
  const { config } = deps;
  const repository = new PlaceRepository(deps.backends.sql);
  await seedPlaces({ pack: deps.pack, repository, countryAt: countryResolver(deps.geocoder), logger: deps.logger });
  const configuredSite = config.SITE_URL ?? config.PUBLIC_BASE_URL?.replace(/\/+$/, '');
  const siteUrl = () => configuredSite ?? `http://localhost:${deps.port()}`;
  // user content finds places as the detail does (the places service, built next, with user content as its source)
  let places: PlacesService | undefined;
  const userContent = wirePlaceContent({ config, backends: deps.backends, places: repository, findPlace: (slug) => places!.find(slug), siteUrl, logger: deps.logger });
  places = new PlacesService({
    repository,
    calendars: deps.calendars,
    roads: deps.routing,
    content: userContent.content,
    get siteUrl() {
      return siteUrl();
    },
    iconUrl: (category, theme) => `${siteUrl()}/api/v1${deps.pinPath(category, theme)}`,
  });
  return { repository, places, routes: [...placeRoutes(places), ...adminPlaceRoutes(places), ...userContent.routes] };
}
