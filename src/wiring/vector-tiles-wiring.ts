/**
 * Wiring of the vector tiles: the tile service over the shared solver pool (tiles are encoded in its
 * workers), the version token of the loaded pack and tile code, and the routes.
 */
import type { MapPack } from '../datapack/map-pack.js';
import type { Principal } from '../domain/principal.js';
import type { RouteDefinition } from '../edge/route.js';
import { vectorTileRoutes } from '../edge/routes/vector-tiles.js';
import { offlineRoutes } from '../edge/routes/offline.js';
import { DEFAULT_DATASET } from '../services/map-data/map-data-source.js';
import { OfflineRegionService } from '../services/tiles/offline-regions.js';
import { basename } from 'node:path';
import { buildTileJson } from '../services/tiles/tilejson.js';
import { tileVersion } from '../services/tiles/tile-version.js';
import { VectorTileService } from '../services/tiles/vector-tile-service.js';
import type { Config } from '../shared/config.js';
import type { SolverPool } from '../solvers/solver-pool.js';

export interface VectorTilesWiring {
  tiles: VectorTileService;
  /** Bounds of everything the tiles hold, asked of a worker once. */
  coverage(): Promise<[number, number, number, number] | undefined>;
  routes: RouteDefinition[];
}

export function wireVectorTiles(
  config: Config,
  pack: MapPack,
  solvers: SolverPool,
  /** The offline_maps gate of offline manifests (billing-wiring.ts). */
  requireOfflineMaps: (principal: Principal | undefined) => Promise<void>,
): VectorTilesWiring {
  const version = tileVersion(pack.header);
  const tiles = new VectorTileService(solvers, { version, cacheBytes: config.TILE_CACHE_BYTES });
  let coverage: Promise<[number, number, number, number] | undefined> | undefined;
  const coverageOnce = () =>
    (coverage ??= solvers.run('tileCoverage', undefined).then((result) => (result.ok ? result.value.bounds : undefined)).catch((error: unknown) => {
      coverage = undefined;
      throw error;
    }));
  const routes = vectorTileRoutes({
    tiles,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    tileJson: async (origin) => buildTileJson({ origin, version, header: pack.header, coverage: await coverageOnce() }),
  });
  // the embedded default pack is named in words; another pack by its file name
  const label = pack.header.source.name === basename(DEFAULT_DATASET.osm) ? DEFAULT_DATASET.label : undefined;
  const offline = new OfflineRegionService({ pack, tiles, solvers, label });
  routes.push(...offlineRoutes({ offline, publicBaseUrl: config.PUBLIC_BASE_URL, requireOfflineMaps }));
  return { tiles, coverage: coverageOnce, routes };
}
