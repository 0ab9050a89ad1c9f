/**
 * Assembles a style document (MapLibre style specification version 8) for one of the six styles,
 * following every rule of part 2 §4.7: the vector source `svc` with its tile template inline and
 * `?v=`, metadata `svcStyle`/`svcAttribution`, the hybrids' raster under the vector layers, the
 * watermark without an API key, flat footprints or the 3d extrusion, and labels in the caller's
 * language.
 */
import { DARK_PALETTE, POSITRON_PALETTE, SATELLITE_PALETTE, STANDARD_PALETTE, TERRAIN_PALETTE, type Palette } from './palettes.js';
import { BOLD_FONT_STACK, NATURAL_EARTH_ATTRIBUTION, REGULAR_FONT_STACK, SERVICE_ATTRIBUTION, type StyleName } from './style-catalogue.js';
import { BUILDING_LAYER_ID, buildingExtrusionLayer, nameExpression, SOURCE_ID, vectorLayers, type StyleLayer } from './vector-layers.js';

/** A third-party imagery source for the satellite style (SATELLITE_TILE_URL, SATELLITE_ATTRIBUTION). */
export interface ImageryConfig {
  tileUrl: string;
  attribution: string;
  maxZoom: number;
}

/** An elevation model for `3d` with `terrain=1` (TERRAIN_DEM_TILE_URL and friends). */
export interface ElevationConfig {
  tileUrl: string;
  encoding: 'terrarium' | 'mapbox';
  attribution: string;
  maxZoom: number;
}

/** The version tokens put in asset URLs (`?v=`): each changes when what it names changes. */
export interface AssetVersions {
  vectorTiles: string;
  glyphs: string;
  sprite: string;
  raster: string;
}

export interface StyleRequest {
  style: StyleName;
  /** `version` of the request: becomes the style's `name`. */
  name: string | undefined;
  /** Label languages, preferred first (`ar` → `name:ar`). */
  languages: readonly string[];
  /** A key or signed-in user was presented: no watermark. */
  authenticated: boolean;
  /** `terrain=1|true`: elevation in `3d` when an elevation model is configured. */
  terrain: boolean;
}

export interface StyleContext {
  /** Absolute base of the API, e.g. `https://api.example.com/api/v1`. */
  apiBase: string;
  versions: AssetVersions;
  /** Where the camera starts: the data pack's centre. */
  center: readonly [number, number];
  /** Bounds of the pack's vector data, `[west, south, east, north]`, when known. */
  bounds: readonly [number, number, number, number] | undefined;
  imagery: ImageryConfig | undefined;
  elevation: ElevationConfig | undefined;
}

export type StyleDocument = {
  version: 8;
  name: string;
  metadata: Record<string, unknown>;
  sources: Record<string, Record<string, unknown>>;
  layers: StyleLayer[];
} & Record<string, unknown>;

const PALETTES: Record<StyleName, Palette> = {
  standard: STANDARD_PALETTE,
  positron: POSITRON_PALETTE,
  dark: DARK_PALETTE,
  satellite: SATELLITE_PALETTE,
  '3d': STANDARD_PALETTE,
  terrain: TERRAIN_PALETTE,
};

export const WATERMARK_ID = 'svc-watermark';
export const VECTOR_MAX_ZOOM = 14;
export const NATURAL_EARTH_MAX_ZOOM = 6;

export function buildStyle(request: StyleRequest, context: StyleContext): StyleDocument {
  const { style } = request;
  const palette = PALETTES[style];
  const base = context.apiBase;
  const tagged = vectorLayers(palette, { regularFont: REGULAR_FONT_STACK, boldFont: BOLD_FONT_STACK, name: nameExpression(request.languages) });
  let vector = (style === 'satellite' ? tagged.filter((entry) => entry.hybrid) : tagged).map((entry) => entry.layer);
  if (style === '3d') {
    // above the roads and bridges, under the labels, so labels stay readable in front of the blocks
    vector = vector.filter((layer) => layer.id !== BUILDING_LAYER_ID);
    const firstLabel = vector.findIndex((layer) => layer.type === 'symbol');
    vector.splice(firstLabel, 0, buildingExtrusionLayer(palette));
  }

  const sources: Record<string, Record<string, unknown>> = {};
  const layers: StyleLayer[] = [{ id: 'background', type: 'background', paint: { 'background-color': palette.background } }];
  if (style === 'satellite') {
    const imagery = context.imagery;
    sources.satellite = {
      type: 'raster',
      tiles: [imagery ? imagery.tileUrl : `${base}/tiles/raster/satellite/{z}/{x}/{y}.jpg?v=${context.versions.raster}`],
      tileSize: 256,
      maxzoom: imagery?.maxZoom ?? 19,
      // the imagery credit travels in the imagery source itself (rule 6); the vector source carries the service's
      attribution: imagery ? imagery.attribution : 'Imagery: none configured (placeholder tiles by svc)',
    };
    layers.push({ id: 'satellite', type: 'raster', source: 'satellite' });
  }
  if (style === 'terrain') {
    sources.ne2_shaded = {
      type: 'raster',
      tiles: [`${base}/tiles/raster/svc-natural-earth/{z}/{x}/{y}.png?v=${context.versions.raster}`],
      tileSize: 256,
      maxzoom: NATURAL_EARTH_MAX_ZOOM,
      attribution: NATURAL_EARTH_ATTRIBUTION,
    };
    layers.push({ id: 'ne2_shaded', type: 'raster', source: 'ne2_shaded', paint: { 'raster-opacity': 0.9 } });
  }
  sources[SOURCE_ID] = {
    type: 'vector',
    tiles: [`${base}/tiles/vector/svc/planet/{z}/{x}/{y}.pbf?v=${context.versions.vectorTiles}`],
    minzoom: 0,
    maxzoom: VECTOR_MAX_ZOOM,
    attribution: SERVICE_ATTRIBUTION,
    ...(context.bounds ? { bounds: [...context.bounds] } : {}),
  };
  layers.push(...vector);
  if (!request.authenticated) {
    sources[WATERMARK_ID] = {
      type: 'raster',
      tiles: [`${base}/tiles/raster/${WATERMARK_ID}/{z}/{x}/{y}.png?v=${context.versions.raster}`],
      tileSize: 256,
    };
    layers.push({ id: WATERMARK_ID, type: 'raster', source: WATERMARK_ID });
  }

  const document: StyleDocument = {
    version: 8,
    name: request.name ?? `svc-${style}`,
    metadata: { svcStyle: style, svcAttribution: SERVICE_ATTRIBUTION, svcLanguages: [...request.languages] },
    center: [...context.center],
    zoom: 14,
    bearing: style === '3d' ? -17.6 : 0,
    pitch: style === '3d' ? 60 : 0,
    sprite: `${base}/tiles/sprites/svc/sprite?v=${context.versions.sprite}`,
    glyphs: `${base}/tiles/glyphs/svc/{fontstack}/{range}.pbf?v=${context.versions.glyphs}`,
    sources,
    layers,
  };
  if (style === '3d' && request.terrain && context.elevation) {
    const elevation = context.elevation;
    sources['svc-dem'] = { type: 'raster-dem', tiles: [elevation.tileUrl], tileSize: 256, encoding: elevation.encoding, maxzoom: elevation.maxZoom, attribution: elevation.attribution };
    document.terrain = { source: 'svc-dem', exaggeration: 1 };
  }
  return document;
}
