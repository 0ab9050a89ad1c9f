/**
 * One overlay tile (part 2 §4.8) as a Mapbox Vector Tile with a single layer (`svc`, or `svc_weather`): the features
 * the main thread selected for the tile, clipped and simplified by @maplibre/geojson-vt and written
 * by @maplibre/vt-pbf. Run in the solver pool so encoding never holds up the event loop.
 */
import { geoJSONToTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import type { Feature } from 'geojson';
import { ok, type TaskResult } from '../task-result.js';
import { TILE_BUFFER, TILE_EXTENT } from './tile-schema.js';

export const OVERLAY_TILE_LAYER = 'svc';
/** geojson-vt keeps every vertex from this zoom on; overlay tiles go deeper than the base map's 14. */
const OVERLAY_MAX_ZOOM = 22;

export interface OverlayTileInput {
  z: number;
  x: number;
  y: number;
  features: Feature[];
  /** The MVT layer name: `svc` (the default) for overlays, `svc_weather` for the weather layer. */
  layer?: string;
}

export function overlayVectorTileTask(input: OverlayTileInput): TaskResult<{ raw: Uint8Array; count: number }, never> {
  const { z, x, y, features, layer = OVERLAY_TILE_LAYER } = input;
  const tile = geoJSONToTile({ type: 'FeatureCollection', features: features.map(withoutNulls) }, z, x, y, {
    maxZoom: OVERLAY_MAX_ZOOM,
    extent: TILE_EXTENT,
    buffer: TILE_BUFFER,
    tolerance: 3,
    clip: true,
  });
  const count = tile.features.length;
  return ok({ raw: count ? fromGeojsonVt({ [layer]: tile }, { version: 2, extent: TILE_EXTENT }) : new Uint8Array(0), count });
}

/** MVT values are strings, numbers and booleans: a null property is left out. */
function withoutNulls(feature: Feature): Feature {
  const properties: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(feature.properties ?? {})) if (value !== null && value !== undefined) properties[key] = value;
  return { ...feature, properties };
}
