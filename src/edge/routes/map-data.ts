import type { MapDataService } from '../../services/map-data/map-data-service.js';
import { defineRoute, type RouteDefinition } from '../route.js';

/** Map data endpoints (spec part 2 §4.8, scope `tiles`). Tiles and overlays join this family later. */
export function mapDataRoutes(mapData: Pick<MapDataService, 'readiness'>): RouteDefinition[] {
  return [
    defineRoute({
      tags: ['map'],
      method: 'GET',
      path: '/map/readiness',
      summary: 'Self-audit of the loaded map data: boolean checks, which map capabilities are served and ready, and a summary of counts',
      handler: () => mapData.readiness(),
    }),
  ];
}
