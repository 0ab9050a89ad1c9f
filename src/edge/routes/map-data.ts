import type { MapPack } from '../../datapack/map-pack.js';
import { mapReadiness } from '../../services/map-data/map-readiness.js';
import { defineRoute, type RouteDefinition } from '../route.js';

/** Map data endpoints (spec part 2 §4.8, scope `tiles`). Tiles and overlays join this family later. */
export function mapDataRoutes(pack: MapPack): RouteDefinition[] {
  return [
    defineRoute({
      tags: ['map'],
      method: 'GET',
      path: '/map/readiness',
      summary: 'Self-audit of the loaded map data: boolean checks plus a summary of counts',
      handler: () => mapReadiness(pack),
    }),
  ];
}
