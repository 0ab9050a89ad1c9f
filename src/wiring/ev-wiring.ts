/**
 * Wiring of EV charging (spec part 3 §2.7, §4.6): the station catalogue in SQL
 * (Open Charge Map imports and the pack's OSM charging stations, merged;
 * docs/ev.md), the planner on the routing service, and the route table.
 */
import type { MapPack } from '../datapack/map-pack.js';
import type { RouteDefinition } from '../edge/route.js';
import { evRoutes } from '../edge/routes/ev.js';
import { seedPackChargers } from '../services/ev/ev-catalog.js';
import { EvService } from '../services/ev/ev-service.js';
import type { RoutingService } from '../services/routing/routing-service.js';
import type { Logger } from '../shared/logger.js';
import { EvStationRepository } from '../store/pg/ev-stations.js';
import type { Backends } from './backends.js';

export async function wireEv(backends: Backends, pack: MapPack, routing: RoutingService, logger: Logger): Promise<{ routes: RouteDefinition[] }> {
  const repository = new EvStationRepository(backends.sql);
  await seedPackChargers(repository, pack, logger);
  return { routes: evRoutes(new EvService(repository, routing)) };
}
