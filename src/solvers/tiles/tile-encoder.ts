/**
 * Cuts one Mapbox Vector Tile (spec 2.1) from the tile source: the items whose boxes meet the tile
 * and its buffer, thinned by zoom and size, clipped and simplified by @maplibre/geojson-vt and
 * written by @maplibre/vt-pbf (no hand-made protobuf).
 */
import { geoJSONToTile, type GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import type { Feature, Geometry, Position } from 'geojson';
import { MAX_TILE_ZOOM, TILE_BUFFER, TILE_EXTENT, TILE_LAYER_ORDER, WATERMARK_LAYER, WATERMARK_TEXT, type TileLayerName } from './tile-schema.js';
import type { TileItem, TileSource } from './tile-source.js';

/** Smallest feature drawn below the top zoom, in 256-px screen pixels (the larger side of its box). */
const MIN_AREA_PIXELS = 1.5;
const MIN_BUILDING_PIXELS = 3;
const MIN_LINE_PIXELS = 1;
/**
 * Simplification tolerance in tile units (4096 per tile). geojson-vt keeps every vertex at maxZoom
 * (14); below it, vertices closer than this to the simplified line go.
 */
const TOLERANCE = 4;

export interface TileRequest {
  z: number;
  x: number;
  y: number;
  /** Add the watermark layer (a tile fetched without an API key). */
  watermark: boolean;
}

export interface EncodedTile {
  bytes: Uint8Array;
  /** Features per layer, for tests and the benchmark. */
  counts: Partial<Record<TileLayerName | typeof WATERMARK_LAYER, number>>;
}

export function tileBounds(z: number, x: number, y: number, bufferFraction = 0): [west: number, south: number, east: number, north: number] {
  const n = 2 ** z;
  const lon = (column: number) => (column / n) * 360 - 180;
  const lat = (row: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * row) / n))) * 180) / Math.PI;
  return [lon(x - bufferFraction), lat(y + 1 + bufferFraction), lon(x + 1 + bufferFraction), lat(y - bufferFraction)];
}

export function encodeTile(source: TileSource, request: TileRequest): EncodedTile {
  const { z, x, y } = request;
  const [west, south, east, north] = tileBounds(z, x, y, TILE_BUFFER / TILE_EXTENT);
  const worldPixels = 256 * 2 ** z;
  const byLayer = new Map<TileLayerName, Feature[]>();
  for (const id of source.search(west, south, east, north)) {
    const item = source.items[id]!;
    if (item.minZoom > z || tooSmall(item, worldPixels, z)) continue;
    const geometry = geometryOf(source, item);
    if (!geometry) continue;
    let list = byLayer.get(item.layer);
    if (!list) byLayer.set(item.layer, (list = []));
    list.push({ type: 'Feature', geometry, properties: item.properties });
  }
  const options = { maxZoom: MAX_TILE_ZOOM, extent: TILE_EXTENT, buffer: TILE_BUFFER, tolerance: TOLERANCE, clip: true };
  const layers: Record<string, GeoJSONVTTile> = {};
  const counts: EncodedTile['counts'] = {};
  for (const layer of TILE_LAYER_ORDER) {
    const features = byLayer.get(layer);
    if (!features) continue;
    const tile = geoJSONToTile({ type: 'FeatureCollection', features }, z, x, y, options);
    if (tile.features.length === 0) continue;
    layers[layer] = tile;
    counts[layer] = tile.features.length;
  }
  if (request.watermark) {
    // the north-west corner of the tile a half tile further on is this tile's centre
    const [centerLon, , , centerLat] = tileBounds(z, x + 0.5, y + 0.5);
    const center: Feature = { type: 'Feature', geometry: { type: 'Point', coordinates: [centerLon, centerLat] }, properties: { text: WATERMARK_TEXT } };
    layers[WATERMARK_LAYER] = geoJSONToTile({ type: 'FeatureCollection', features: [center] }, z, x, y, options);
    counts[WATERMARK_LAYER] = 1;
  }
  return { bytes: fromGeojsonVt(layers, { version: 2, extent: TILE_EXTENT }), counts };
}

/** Whether a tile of zoom `z` leaves the item out as too small to see (`worldPixels`: 256 · 2^z). */
export function tooSmall(item: TileItem, worldPixels: number, z: number): boolean {
  if (z >= MAX_TILE_ZOOM || item.as === 'point') return false;
  const pixels = item.size * worldPixels;
  if (item.layer === 'building') return pixels < MIN_BUILDING_PIXELS;
  if (item.source === 'way' || item.layer === 'waterway' || item.layer === 'boundary') return pixels < MIN_LINE_PIXELS;
  return pixels < MIN_AREA_PIXELS;
}

/** The item's geometry as GeoJSON (degrees), as the tiles carry it before clipping. */
export function geometryOf(source: TileSource, item: TileItem): Geometry | undefined {
  if (item.source === 'way') {
    const { lines } = source.wayLines(item.ref);
    const drawable = lines.filter((line) => line.length >= 2);
    if (drawable.length === 0) return undefined;
    return drawable.length === 1 ? { type: 'LineString', coordinates: drawable[0]! } : { type: 'MultiLineString', coordinates: drawable };
  }
  const pack = source.pack;
  if (item.as === 'point') return { type: 'Point', coordinates: pack.featurePosition(item.ref) };
  const geometry = pack.featureGeometry(item.ref);
  if (item.as === 'rings' || geometry.kind === 'line') {
    const lines = geometry.parts.map((part) => part.coordinates).filter((line) => line.length >= 2);
    if (lines.length === 0) return undefined;
    return lines.length === 1 ? { type: 'LineString', coordinates: lines[0]! } : { type: 'MultiLineString', coordinates: lines };
  }
  if (geometry.kind !== 'polygon') return undefined;
  return polygonOf(geometry.parts);
}

/** Outer rings with the inner rings inside them (the pack lists parts, not which outer an inner belongs to). */
function polygonOf(parts: { inner: boolean; coordinates: [number, number][] }[]): Geometry | undefined {
  const outers = parts.filter((part) => !part.inner && part.coordinates.length >= 4).map((part) => [part.coordinates as Position[]]);
  if (outers.length === 0) return undefined;
  for (const part of parts) {
    if (!part.inner || part.coordinates.length < 4) continue;
    const probe = part.coordinates[0]!;
    const owner = outers.length === 1 ? outers[0] : outers.find((polygon) => containsPoint(polygon[0]!, probe));
    owner?.push(part.coordinates);
  }
  return outers.length === 1 ? { type: 'Polygon', coordinates: outers[0]! } : { type: 'MultiPolygon', coordinates: outers };
}

function containsPoint(ring: Position[], [lon, lat]: [number, number]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number];
    const [xj, yj] = ring[j] as [number, number];
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
