/**
 * Wiring of the map styles family (part 2 §4.7): styles, glyphs, sprites, raster tiles and static maps. Glyph
 * ranges are cached on disk under DATA_DIR/tiles/glyphs (the temp dir when DATA_DIR is in memory).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MapPack } from '../datapack/map-pack.js';
import type { RouteDefinition } from '../edge/route.js';
import { mapStyleRoutes } from '../edge/routes/map-styles.js';
import { GlyphService } from '../services/tiles/glyphs/glyph-service.js';
import { MapStyleService } from '../services/tiles/map-styles/map-style-service.js';
import { RasterTiles } from '../services/tiles/raster/raster-tiles.js';
import { SpriteService } from '../services/tiles/sprites/sprite-sheet.js';
import { StaticMapService } from '../services/tiles/static-maps/static-map-service.js';
import { staticMapRoutes } from '../edge/routes/static-maps.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import type { SolverPool } from '../solvers/solver-pool.js';

export interface MapStylesWiring {
  routes: RouteDefinition[];
}

/** Where drawn map assets are kept between starts. */
export function tileAssetDir(dataDir: string): string {
  return dataDir.startsWith('memory://') ? join(tmpdir(), 'svc-location-platform', 'tiles') : join(dataDir, 'tiles');
}

/** `vectorTilesVersion`: the vector tile service's token (pack and tile code), put in the styles' tile template. */
export function wireMapStyles(config: Config, pack: MapPack, solvers: SolverPool, vectorTilesVersion: () => string, logger: Logger): MapStylesWiring {
  const glyphs = new GlyphService({ cacheDir: join(tileAssetDir(config.DATA_DIR), 'glyphs'), logger });
  const sprites = new SpriteService();
  const raster = new RasterTiles(solvers);
  const bbox = pack.header.bbox ?? undefined;
  const center: [number, number] = bbox ? [(bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2] : [31.34, 30.06];
  const styles = new MapStyleService({
    imagery: config.SATELLITE_TILE_URL ? { tileUrl: config.SATELLITE_TILE_URL, attribution: config.SATELLITE_ATTRIBUTION!, maxZoom: config.SATELLITE_MAX_ZOOM } : undefined,
    elevation: config.TERRAIN_DEM_TILE_URL
      ? { tileUrl: config.TERRAIN_DEM_TILE_URL, encoding: config.TERRAIN_DEM_ENCODING, attribution: config.TERRAIN_DEM_ATTRIBUTION!, maxZoom: config.TERRAIN_DEM_MAX_ZOOM }
      : undefined,
    center,
    // no `bounds` on the source: the tiles also hold admin areas far beyond the OSM box (see the TileJSON), and
    // MapLibre asks for no tile outside a source's bounds
    bounds: undefined,
    versions: () => ({ vectorTiles: vectorTilesVersion(), glyphs: glyphs.version, sprite: sprites.version, raster: raster.version }),
  });
  // static maps draw with the same styles, from the vector tiles' data, in the solver pool
  const staticMaps = new StaticMapService(solvers, styles, vectorTilesVersion);
  return { routes: [...mapStyleRoutes({ styles, glyphs, sprites, raster, publicBaseUrl: config.PUBLIC_BASE_URL }), ...staticMapRoutes({ staticMaps })] };
}
