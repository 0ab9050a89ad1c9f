/**
 * Itineraries (spec part 3 §2.4, §4.3; docs/itineraries.md): the planner over the routing engine, the place
 * catalogue and the solver threads, the saved itineraries' repository, and the route table.
 */
import type { Backends } from './backends.js';
import type { RouteDefinition } from '../edge/route.js';
import { itineraryRoutes } from '../edge/routes/itineraries.js';
import { ItineraryPlanner } from '../services/itineraries/itinerary-planner.js';
import { SavedItineraries } from '../services/itineraries/saved-itineraries.js';
import type { RoutingService } from '../services/routing/routing-service.js';
import type { Config } from '../shared/config.js';
import type { SolverPool } from '../solvers/solver-pool.js';
import { ItineraryRepository } from '../store/pg/itineraries.js';
import type { PlaceRepository } from '../store/pg/places.js';

export interface ItinerariesWiring {
  routes: RouteDefinition[];
}

export function wireItineraries(config: Config, backends: Backends, solvers: SolverPool, routing: RoutingService, places: PlaceRepository): ItinerariesWiring {
  const planner = new ItineraryPlanner({ routing, places, solvers, timeoutMs: config.ROUTING_TIMEOUT_MS });
  return { routes: itineraryRoutes(planner, new SavedItineraries(new ItineraryRepository(backends.sql))) };
}
