import type { MapPack } from '../datapack/map-pack.js';
import type { RouteDefinition } from '../edge/route.js';
import { addressingRoutes } from '../edge/routes/addressing.js';
import { geocodingRoutes } from '../edge/routes/geocoding.js';
import { PlusCodeAddresses } from '../services/addressing/plus-code-addresses.js';
import { Geocoder } from '../services/geocoding/geocoder.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';

export interface GeocodingWiring {
  geocoder: Geocoder;
  routes: RouteDefinition[];
}

/**
 * Geocoding (spec part 2 §4.2) and Plus Code addressing (§4.1): the geocoding index is built
 * from the loaded map data pack at start (in memory, on the main thread; see docs/geocoding.md).
 */
export function wireGeocoding(config: Config, pack: MapPack, logger: Logger, port: () => number): GeocodingWiring {
  const geocoder = config.GEOCODING_ENABLED ? Geocoder.build(pack, logger) : Geocoder.disabled();
  if (!config.GEOCODING_ENABLED) logger.info('geocoding switched off (GEOCODING_ENABLED=false)');
  const siteUrl = config.SITE_URL ?? config.PUBLIC_BASE_URL?.replace(/\/+$/, '');
  const addresses = new PlusCodeAddresses(geocoder, () => siteUrl ?? `http://localhost:${port()}`);
  return { geocoder, routes: [...addressingRoutes(addresses), ...geocodingRoutes(geocoder)] };
}
