import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../route.js';
import { publicOrigin } from '../public-origin.js';
import type { Principal } from '../../domain/principal.js';
import type { OfflineRegionService } from '../../services/tiles/offline-regions.js';

const route = { tags: ['offline'] };
const regionParams = z.object({ id: z.string().min(1).max(128) });

/** Offline regions and their download manifests (spec part 2 §4.6, scope `tiles`; docs/tiles.md). */
export function offlineRoutes(deps: {
  offline: Pick<OfflineRegionService, 'regions' | 'manifest'>;
  publicBaseUrl: string | undefined;
  /** The offline_maps gate (docs/billing.md "Gates"): throws unless the caller holds it. */
  requireOfflineMaps: (principal: Principal | undefined) => Promise<void>;
}): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/offline/regions',
      summary: 'Regions downloadable for offline use: the map data coverage, its admin areas and country, with tile counts and sizes measured from encoded tiles',
      handler: () => deps.offline.regions(),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/offline/regions/{id}/manifest',
      summary: 'Download manifest of one region (needs the offline_maps entitlement): style, vector tile ranges per zoom, glyph ranges its names need, sprites, raster fallbacks, bytes, version',
      params: regionParams,
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ params, headers, principal }) => {
        await deps.requireOfflineMaps(principal);
        return deps.offline.manifest(params.id, publicOrigin(deps.publicBaseUrl, headers));
      },
    }),
  ];
}
