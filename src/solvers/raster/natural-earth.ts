/**
 * Raster tiles drawn from Natural Earth (public domain) land and country polygons, as redistributed
 * by the `world-atlas` package (Natural Earth 4.1.0 as TopoJSON): the `svc-natural-earth` source
 * and the terrain style's `ne2_shaded` layer. 1:50m data up to zoom 3, 1:10m from zoom 4.
 *
 * Polygons are projected to Web Mercator once per worker (unit square) with a bounding box each, so a
 * tile draws only what crosses it. Drawn in the solver workers (task `naturalEarthTile`): about 90 ms a
 * tile, and reading the 1:10m data takes about 1.3 s on a worker's first tile from zoom 4. Honest limit: Natural Earth's shaded-relief rasters are not in any
 * npm package, so the relief of the terrain style is land and water colouring with coastlines and
 * borders, not hill shading.
 */
import { createRequire } from 'node:module';
import { createCanvas } from '@napi-rs/canvas';
import type { Feature, GeoJsonProperties, MultiLineString, MultiPolygon, Polygon } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { fail, ok, type TaskFailure, type TaskResult } from '../task-result.js';

const require = createRequire(import.meta.url);
const TILE_PX = 256;
const MAX_LATITUDE = 85.0511287798;
const WATER = '#a9c9de';
const LAND = '#ece6d6';
const COAST = '#8fb2c9';
const BORDER = 'rgba(120, 100, 130, 0.55)';

/** One ring or line in unit Web Mercator (x, y interleaved) with its bounding box. */
interface ProjectedPath {
  coordinates: Float64Array;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** A polygon's rings (outer first) and the box of its outer ring. */
interface ProjectedPolygon {
  rings: ProjectedPath[];
  box: ProjectedPath;
}

interface Layer {
  polygons: ProjectedPolygon[];
  borders: ProjectedPath[];
}

function project(positions: number[][]): ProjectedPath {
  const coordinates = new Float64Array(positions.length * 2);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  positions.forEach(([lng, lat], i) => {
    const clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat!));
    const x = (lng! + 180) / 360;
    const sin = Math.sin((clamped * Math.PI) / 180);
    const y = 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
    coordinates[i * 2] = x;
    coordinates[i * 2 + 1] = y;
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  });
  return { coordinates, minX, minY, maxX, maxY };
}

function loadLayer(scale: '50m' | '10m'): Layer {
  const land = require(`world-atlas/land-${scale}.json`) as Topology<{ land: GeometryCollection }>;
  const countries = require(`world-atlas/countries-${scale}.json`) as Topology<{ countries: GeometryCollection }>;
  const polygons: ProjectedPolygon[] = [];
  const collection = feature(land, land.objects.land);
  const features = ('features' in collection ? collection.features : [collection]) as Feature<Polygon | MultiPolygon, GeoJsonProperties>[];
  for (const item of features) {
    const geometry = item.geometry;
    const parts = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
    for (const part of parts) {
      const rings = part.map(project);
      polygons.push({ rings, box: rings[0]! });
    }
  }
  const borderLines = mesh(countries, countries.objects.countries, (a, b) => a !== b) as MultiLineString;
  return { polygons, borders: borderLines.coordinates.map(project) };
}

export type NaturalEarthFormat = 'png' | 'webp';

/** Renders Natural Earth tiles; the data of each scale is read on first use. */
export class NaturalEarthRenderer {
  /** Zoom levels served: the style uses 0–6 (maxzoom 6); two more for clients that ask. */
  static readonly MAX_ZOOM = 8;
  private readonly layers = new Map<string, Layer>();

  private layer(zoom: number): Layer {
    const scale = zoom <= 3 ? '50m' : '10m';
    let layer = this.layers.get(scale);
    if (!layer) {
      layer = loadLayer(scale);
      this.layers.set(scale, layer);
    }
    return layer;
  }

  render(z: number, x: number, y: number, format: NaturalEarthFormat): Buffer {
    const world = 2 ** z;
    const canvas = createCanvas(TILE_PX, TILE_PX);
    const context = canvas.getContext('2d');
    context.fillStyle = WATER;
    context.fillRect(0, 0, TILE_PX, TILE_PX);
    // the tile in unit coordinates, with a pixel of margin so strokes at the edge are drawn
    const margin = 2 / (world * TILE_PX);
    const west = x / world - margin;
    const east = (x + 1) / world + margin;
    const north = y / world - margin;
    const south = (y + 1) / world + margin;
    const crosses = (box: ProjectedPath) => box.maxX >= west && box.minX <= east && box.maxY >= north && box.minY <= south;
    const scale = world * TILE_PX;
    const trace = (path: ProjectedPath) => {
      const c = path.coordinates;
      context.moveTo(c[0]! * scale - x * TILE_PX, c[1]! * scale - y * TILE_PX);
      for (let i = 2; i < c.length; i += 2) context.lineTo(c[i]! * scale - x * TILE_PX, c[i + 1]! * scale - y * TILE_PX);
      context.closePath();
    };
    const layer = this.layer(z);
    context.beginPath();
    for (const polygon of layer.polygons) {
      if (!crosses(polygon.box)) continue;
      for (const ring of polygon.rings) trace(ring);
    }
    context.fillStyle = LAND;
    context.fill('evenodd');
    context.strokeStyle = COAST;
    context.lineWidth = z < 3 ? 0.6 : 1;
    context.stroke();
    context.beginPath();
    for (const border of layer.borders) {
      if (!crosses(border)) continue;
      const c = border.coordinates;
      context.moveTo(c[0]! * scale - x * TILE_PX, c[1]! * scale - y * TILE_PX);
      for (let i = 2; i < c.length; i += 2) context.lineTo(c[i]! * scale - x * TILE_PX, c[i + 1]! * scale - y * TILE_PX);
    }
    context.strokeStyle = BORDER;
    context.lineWidth = z < 4 ? 0.6 : 1;
    context.stroke();
    return format === 'webp' ? canvas.toBuffer('image/webp', 90) : canvas.toBuffer('image/png');
  }
}

const renderer = new NaturalEarthRenderer();

export interface NaturalEarthTileInput {
  z: number;
  x: number;
  y: number;
  format: NaturalEarthFormat;
}

/** The worker task: one tile's image bytes. */
export function naturalEarthTileTask(input: NaturalEarthTileInput): TaskResult<Uint8Array, TaskFailure<'tile_out_of_range'>> {
  const { z, x, y } = input;
  if (!Number.isInteger(z) || z < 0 || z > NaturalEarthRenderer.MAX_ZOOM || !Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= 2 ** z || y >= 2 ** z) {
    return fail('tile_out_of_range');
  }
  return ok(new Uint8Array(renderer.render(z, x, y, input.format)));
}
