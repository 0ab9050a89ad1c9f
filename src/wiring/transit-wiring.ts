/**
 * Wiring of transit and shared micromobility (spec part 2 §2.8, §4.6): the
 * imported GTFS feeds from SQL (docs/transit.md), the map pack's OSM stops and
 * lines, the GBFS feeds of GBFS_FEEDS, and their route table.
 */
import type { Backends } from './backends.js';
import type { RouteDefinition } from '../edge/route.js';
import { transitRoutes } from '../edge/routes/transit.js';
import type { MapPack } from '../datapack/map-pack.js';
import { OsmTransitLines } from '../services/transit/osm-transit-lines.js';
import { GbfsService } from '../services/transit/gbfs-service.js';
import { TransitService } from '../services/transit/transit-service.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { TransitFeedRepository } from '../store/pg/transit-feeds.js';

export interface TransitWiring {
  routes: RouteDefinition[];
  transit: TransitService;
  stop(): void;
}

export async function wireTransit(config: Config, backends: Backends, pack: MapPack, logger: Logger): Promise<TransitWiring> {
  const osm = new OsmTransitLines(pack);
  if (!osm.isEmpty) logger.info({ stops: osm.stations.length, lines: osm.routes.length }, 'transit: OSM stops and lines of the map pack');
  const transit = new TransitService(new TransitFeedRepository(backends.sql), logger, osm);
  await transit.start();
  const gbfs = new GbfsService(config.GBFS_FEEDS, { allowedHosts: config.GBFS_ALLOWED_HOSTS }, logger);
  // the first read of the feeds runs in the background: a slow feed must not hold up the start
  void gbfs.start();
  return { routes: transitRoutes(transit, gbfs), transit, stop: () => gbfs.stop() };
}
