/**
 * The TileJSON 3.0 document of the vector tiles (GET /tiles/tilejson/svc): the versioned tile template,
 * zoom range, the layers and fields of tile-schema.ts, the bounds of what the tiles hold and the
 * pack's attribution.
 */
import type { PackHeader } from '../../datapack/pack-layout.js';
import { MAX_TILE_ZOOM, MIN_TILE_ZOOM, TILE_LAYERS } from '../../solvers/tiles/tile-schema.js';

/** Path of the tile template below the origin; `{z}/{x}/{y}` as TileJSON and style documents write them. */
export const VECTOR_TILE_PATH = '/api/v1/tiles/vector/svc/planet/{z}/{x}/{y}.pbf';
export const TILE_ATTRIBUTION = '© OpenStreetMap contributors, ODbL';

export interface TileJson {
  tilejson: '3.0.0';
  name: string;
  description: string;
  version: string;
  attribution: string;
  scheme: 'xyz';
  tiles: string[];
  minzoom: number;
  maxzoom: number;
  bounds: [number, number, number, number];
  center: [number, number, number];
  vector_layers: { id: string; description: string; minzoom: number; maxzoom: number; fields: Record<string, string> }[];
}

/** The versioned tile template under `origin` (what styles and the TileJSON hand to renderers). */
export function vectorTileTemplate(origin: string, version: string): string {
  return `${origin}${VECTOR_TILE_PATH}?v=${version}`;
}

export function buildTileJson(options: {
  origin: string;
  version: string;
  header: Pick<PackHeader, 'bbox' | 'source'>;
  /** Bounds of everything the tiles hold (roads and admin areas), or undefined for an empty pack. */
  coverage: [number, number, number, number] | undefined;
}): TileJson {
  const world: [number, number, number, number] = [-180, -85.0511, 180, 85.0511];
  const bounds = options.coverage ?? options.header.bbox ?? world;
  // the centre of the OSM data (the streets), not of admin areas that may lie far away
  const focus = options.header.bbox ?? bounds;
  return {
    tilejson: '3.0.0',
    name: 'svc',
    description: `OpenMapTiles-schema vector tiles of ${options.header.source.name} (no poi layer)`,
    version: options.version,
    attribution: TILE_ATTRIBUTION,
    scheme: 'xyz',
    tiles: [vectorTileTemplate(options.origin, options.version)],
    minzoom: MIN_TILE_ZOOM,
    maxzoom: MAX_TILE_ZOOM,
    bounds: bounds.map((value) => Math.round(value * 1e6) / 1e6) as [number, number, number, number],
    center: [Math.round(((focus[0] + focus[2]) / 2) * 1e6) / 1e6, Math.round(((focus[1] + focus[3]) / 2) * 1e6) / 1e6, 13],
    vector_layers: TILE_LAYERS.map((layer) => ({ id: layer.id, description: layer.description, minzoom: layer.minzoom, maxzoom: layer.maxzoom, fields: { ...layer.fields } })),
  };
}
