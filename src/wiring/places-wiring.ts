/**
 * Wiring of the place catalogue (spec part 2 §2.4–2.6, §3, §4.4): the repository, the first-start /
 * after-ingest seed from the map data pack, the places service and its route tables.
 */
import type { MapPack } from '../datapack/map-pack.js';
import type { RouteDefinition } from '../edge/route.js';
import type { CalendarService } from '../services/calendars/calendar-service.js';
import { seedPlaces } from '../services/places/place-seeder.js';
import { countryAt } from '../services/geocoding/countries.js';
import type { Geocoder } from '../services/geocoding/geocoder.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { PlaceRepository } from '../store/pg/places.js';
import type { Backends } from './backends.js';

export interface PlacesWiring {
  repository: PlaceRepository;
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

export async function wirePlaces(_config: Config, backends: Backends, pack: MapPack, geocoder: Geocoder, _calendars: CalendarService, logger: Logger): Promise<PlacesWiring> {
  const repository = new PlaceRepository(backends.sql);
  await seedPlaces({ pack, repository, countryAt: countryResolver(geocoder), logger });
  return { repository, routes: [] };
}
