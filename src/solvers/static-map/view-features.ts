/**
 * The vector tile features a static map shows: the worker's tile source (the same items, layers,
 * classes and fields the `/tiles/vector` tiles carry, thinned by the same first zooms and size rule at
 * the data zoom) searched over the image's box, their geometry projected once to CSS pixels. The
 * renderer reads them as a MapLibre renderer reads decoded tiles, without the round trip through MVT
 * bytes and without tile seams.
 */
import { Path2D } from '@napi-rs/canvas';
import type { Geometry, Position } from 'geojson';
import { MAX_TILE_ZOOM } from '../tiles/tile-schema.js';
import { geometryOf, tooSmall } from '../tiles/tile-encoder.js';
import type { TileSource } from '../tiles/tile-source.js';
import type { TileProperties } from '../tiles/omt-mapping.js';
import { mercatorX, mercatorY, viewBounds, worldPixels, type MapView } from './map-view.js';

/** Labels and wide lines just outside the image still reach into it. */
const SEARCH_MARGIN_PX = 96;
/** The tile size the size rule of the tiles is written for (tile-encoder.ts). */
const TILE_RULE_PX = 256;

export interface ViewFeature {
  sourceLayer: string;
  /** `Point`, `LineString`, `Polygon` or their Multi forms, as MapLibre's `geometry-type`. */
  geometryType: string;
  properties: TileProperties;
  /** Points, lines, or rings (outer and inner together, drawn even-odd) as flat x, y lists in CSS pixels. */
  parts: Float64Array[];
  /** The parts as one canvas path, made on first draw. */
  path?: Path2D;
}

/** The zoom of the tiles MapLibre would read at a map zoom (512-pixel tiles: the integer part, at most 14). */
export function dataZoom(zoom: number): number {
  return Math.max(0, Math.min(MAX_TILE_ZOOM, Math.floor(zoom)));
}

/** Features by source layer, in the tile source's order. */
export function viewFeatures(source: TileSource, view: MapView): Map<string, ViewFeature[]> {
  const z = dataZoom(view.zoom);
  const rulePixels = TILE_RULE_PX * 2 ** z;
  const world = worldPixels(view.zoom);
  const project = (position: Position): [number, number] => [(mercatorX(position[0]!) - view.centerX) * world + view.width / 2, (mercatorY(position[1]!) - view.centerY) * world + view.height / 2];
  const byLayer = new Map<string, ViewFeature[]>();
  for (const id of source.search(...viewBounds(view, SEARCH_MARGIN_PX)).sort((a, b) => a - b)) {
    const item = source.items[id]!;
    if (item.minZoom > z || tooSmall(item, rulePixels, z)) continue;
    const geometry = geometryOf(source, item);
    if (!geometry) continue;
    const parts = projectedParts(geometry, project);
    if (parts.length === 0) continue;
    let list = byLayer.get(item.layer);
    if (!list) byLayer.set(item.layer, (list = []));
    list.push({ sourceLayer: item.layer, geometryType: geometry.type, properties: item.properties, parts });
  }
  return byLayer;
}

function projectedParts(geometry: Geometry, project: (position: Position) => [number, number]): Float64Array[] {
  const flat = (positions: Position[]) => {
    const part = new Float64Array(positions.length * 2);
    positions.forEach((position, index) => {
      const [x, y] = project(position);
      part[index * 2] = x;
      part[index * 2 + 1] = y;
    });
    return part;
  };
  switch (geometry.type) {
    case 'Point':
      return [flat([geometry.coordinates])];
    case 'MultiPoint':
    case 'LineString':
      return [flat(geometry.coordinates)];
    case 'MultiLineString':
    case 'Polygon':
      return geometry.coordinates.map(flat);
    case 'MultiPolygon':
      return geometry.coordinates.flat().map(flat);
    default:
      return [];
  }
}

/** The feature's lines or rings as one path (rings closed). */
export function featurePath(feature: ViewFeature): Path2D {
  if (!feature.path) {
    const path = new Path2D();
    const closed = feature.geometryType === 'Polygon' || feature.geometryType === 'MultiPolygon';
    for (const part of feature.parts) {
      path.moveTo(part[0]!, part[1]!);
      for (let at = 2; at < part.length; at += 2) path.lineTo(part[at]!, part[at + 1]!);
      if (closed) path.closePath();
    }
    feature.path = path;
  }
  return feature.path;
}
