/**
 * Wiring of the map configuration and overlays (part 2 §2.10, §4.8): the pack's cycleways, cameras
 * and signals, the imported transit network, learned traffic, the logistics zones and the weather
 * layer (the WEATHER_URL forecast, docs/map-data.md "Weather") behind one overlay service, encoded to
 * vector tiles in the shared solver pool.
 */
import type { MapPack } from '../datapack/map-pack.js';
import type { RouteDefinition } from '../edge/route.js';
import { mapOverlayRoutes } from '../edge/routes/map-overlays.js';
import { mapWeatherRoutes } from '../edge/routes/map-weather.js';
import { mapRouteRiskRoutes } from '../edge/routes/map-route-risk.js';
import type { MapDataService } from '../services/map-data/map-data-service.js';
import { MapOverlays } from '../services/map-data/map-overlays.js';
import { PackOverlays } from '../services/map-data/pack-overlays.js';
import { LogisticsZones } from '../services/map-data/logistics-zones.js';
import { WeatherLayer } from '../services/map-data/weather-layer.js';
import { WeatherReports } from '../services/map-data/weather-reports.js';
import { LogisticsZoneRepository } from '../store/pg/logistics-zones.js';
import type { Backends } from './backends.js';
import type { IncidentService } from '../services/incidents/incident-service.js';
import type { TrafficService } from '../services/traffic/traffic-service.js';
import type { TransitService } from '../services/transit/transit-service.js';
import type { RoutingService } from '../services/routing/routing-service.js';
import { RouteRiskService } from '../services/route-risk/route-risk-service.js';
import type { WeatherSource } from '../services/weather/open-meteo-forecast.js';
import type { WeatherProvider } from '../services/map-data/weather-layer.js';
import type { Config } from '../shared/config.js';
import type { SolverPool } from '../solvers/solver-pool.js';

export interface MapOverlaysWiring {
  overlays: MapOverlays;
  weather: WeatherLayer;
  routes: RouteDefinition[];
}

export interface MapOverlaysWiringDeps {
  config: Config;
  backends: Backends;
  pack: MapPack;
  solvers: SolverPool;
  mapData: MapDataService;
  transit: Pick<TransitService, 'mapNetwork'>;
  traffic: Pick<TrafficService, 'labels' | 'status'>;
  incidents: Pick<IncidentService, 'live'>;
  /** The zones (wireLogisticsZones), shared with the route planner. */
  zones: LogisticsZones;
  /** Route risk routes an origin and destination with it. */
  routing: Pick<RoutingService, 'trip'>;
  /** The process's one weather adapter (wireWeatherProvider): the layer asks it cells, route risk points. */
  weather: WeatherProvider & WeatherSource;
}

/** The operators' logistics zones over the SQL store: the overlays, the planner and route risk read them. */
export function wireLogisticsZones(backends: Backends): LogisticsZones {
  return new LogisticsZones(new LogisticsZoneRepository(backends.sql));
}

export function wireMapOverlays(deps: MapOverlaysWiringDeps): MapOverlaysWiring {
  const { config } = deps;
  const zones = deps.zones;
  const pack = new PackOverlays(deps.pack);
  const weather = new WeatherLayer({ provider: deps.weather, solvers: deps.solvers });
  const overlays = new MapOverlays({ pack, transit: deps.transit, traffic: deps.traffic, incidents: deps.incidents, zones, weather, solvers: deps.solvers });
  const routeRisk = new RouteRiskService({ routing: deps.routing, traffic: deps.traffic, weather: deps.weather, incidents: deps.incidents, zones, pack });
  const routes = [
    ...mapOverlayRoutes({
      overlays,
      mapData: deps.mapData,
      zones,
      elevation: config.TERRAIN_DEM_TILE_URL !== undefined,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      weather,
    }),
    ...mapWeatherRoutes({ weather, reports: new WeatherReports(weather), publicBaseUrl: config.PUBLIC_BASE_URL }),
    ...mapRouteRiskRoutes(routeRisk),
  ];
  return { overlays, weather, routes };
}
