/**
 * Wiring of the map data family: the loaded pack behind the map data service and
 * its route table (GET /map/readiness). Readiness asks the composed route table
 * which capabilities this server serves, so it is handed the table lazily: the
 * map data routes are part of it.
 */
import type { MapPack } from '../datapack/map-pack.js';
import { mountedPath, type RouteDefinition } from '../edge/route.js';
import { mapDataRoutes } from '../edge/routes/map-data.js';
import { MapDataService } from '../services/map-data/map-data-service.js';
import type { MapCapability, MapReadinessOptions } from '../services/map-data/map-readiness.js';
import { PoiMarkers } from '../services/map-data/poi-markers.js';
import type { Config } from '../shared/config.js';
import { PlaceMarkerRepository } from '../store/pg/place-markers.js';
import type { Backends } from './backends.js';

export interface MapDataWiring {
  mapData: MapDataService;
  routes: RouteDefinition[];
}

/** `weatherProvider` is the process's one weather provider (wireWeatherProvider), which readiness asks. */
export function wireMapData(config: Config, pack: MapPack, backends: Backends, servedRoutes: () => readonly RouteDefinition[], weatherProvider: NonNullable<MapReadinessOptions['weather']>): MapDataWiring {
  let served: Set<string> | undefined;
  const serves = (method: string, path: string) => {
    served ??= new Set(servedRoutes().map((route) => `${route.method} ${mountedPath(route)}`));
    return served.has(`${method} ${mountedPath({ path })}`);
  };
  const switchedOff: MapCapability[] = config.GEOCODING_ENABLED ? [] : ['geocoding'];
  const mapData = new MapDataService(pack, { serves, switchedOff, weather: weatherProvider });
  const poi = new PoiMarkers({ repository: new PlaceMarkerRepository(backends.sql), pinPath: (category, theme) => mapData.pinPath(category, theme) });
  return { mapData, routes: mapDataRoutes({ mapData, poi, publicBaseUrl: config.PUBLIC_BASE_URL }) };
}
