/**
 * Isochrones and isodistances (Valhalla `/isochrone` semantics): the area
 * reachable from a location within each contour's time (minutes) or distance
 * (km). A one-to-all search up to the largest contour gives each road point's
 * cost; a cost grid over the reached roads is contoured by marching squares,
 * so every contour comes from the same surface and a larger one contains the
 * smaller.
 */
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { simplify } from '@turf/simplify';
import type { Feature, FeatureCollection, LineString, MultiLineString, MultiPoint, MultiPolygon, Polygon, Position } from 'geojson';
import type { MetricSpec } from '../costing/profiles.js';
import type { RoutingEngine, RouteLocation } from '../routing-engine.js';
import { EARTH_RADIUS_M } from '../../graph/geodesy.js';
import { buildCostGrid } from './cost-grid.js';
import { contourRings, type Ring } from './marching-squares.js';
import { searchReach, type ReachMetric } from './reach-search.js';
import { roundTo } from '../../../shared/rounding.js';

export interface IsochroneContour {
  /** Minutes (time) or kilometres (distance). */
  value: number;
  /** Hex colour without `#` (Valhalla's form); a palette colour when absent. */
  color?: string;
}

export interface IsochroneRequest {
  metric: MetricSpec;
  location: RouteLocation;
  contourMetric: ReachMetric;
  contours: IsochroneContour[];
  /** Polygons (true) or their outlines as lines (false, Valhalla's default). */
  polygons: boolean;
  /** 0..1: drop rings smaller than this share of the contour's largest (1 keeps only the largest). */
  denoise: number;
  /** Douglas–Peucker tolerance (m); 0 keeps the contour as traced. */
  generalizeMeters: number;
  /** Adds the input location and where it snapped as MultiPoint features. */
  showLocations?: boolean;
}

export type IsochroneProperties = {
  contour: number;
  metric: ReachMetric;
  color: string;
  fill: string;
  fillColor: string;
  opacity: number;
  fillOpacity: number;
  'fill-opacity': number;
};

export interface IsochroneResult {
  collection: FeatureCollection;
  stats: { reachedEdges: number; gridColumns: number; gridRows: number; cellMeters: number; searchMs: number; contourMs: number };
}

export type IsochroneOutcome = { ok: true; result: IsochroneResult } | { ok: false; code: 'no_road_nearby'; cutoffMeters: number };

const PALETTE = ['bf4040', 'bfaa40', '6abf40', '40bfbf', '4055bf', 'aa40bf'];
const OPACITY = 0.33;
const METERS_PER_DEGREE = EARTH_RADIUS_M * (Math.PI / 180);

export function computeIsochrone(engine: RoutingEngine, request: IsochroneRequest): IsochroneOutcome {
  const started = performance.now();
  const metric = engine.metric(request.metric);
  const origins = engine.snap(metric, request.location);
  if (!origins.length) return { ok: false, code: 'no_road_nearby', cutoffMeters: request.location.searchCutoffMeters ?? 0 };
  const scale = request.contourMetric === 'time' ? 60 : 1000;
  const ordered = request.contours.map((contour, index) => ({ ...contour, index })).sort((a, b) => a.value - b.value);
  const levels = ordered.map((contour) => contour.value * scale);
  const reach = searchReach(engine.pack, metric.graph, origins, request.contourMetric, levels[levels.length - 1]!);
  const searched = performance.now();
  const grid = buildCostGrid(engine.pack, reach, levels);
  const features: Feature[] = [];
  // largest first, as Valhalla answers, so smaller contours draw on top
  for (let at = ordered.length - 1; at >= 0; at--) {
    const contour = ordered[at]!;
    const polygons = toPolygons(contourRings(grid, levels[at]!), request.denoise, request.generalizeMeters);
    const color = `#${(contour.color ?? PALETTE[contour.index % PALETTE.length]!).toLowerCase()}`;
    const properties: IsochroneProperties = {
      contour: contour.value,
      metric: request.contourMetric,
      color,
      fill: color,
      fillColor: color,
      opacity: OPACITY,
      fillOpacity: OPACITY,
      'fill-opacity': OPACITY,
    };
    features.push({ type: 'Feature', properties, geometry: request.polygons ? polygonGeometry(polygons) : lineGeometry(polygons) });
  }
  if (request.showLocations) {
    const snapped = origins[0]!.hit;
    const locations: MultiPoint = { type: 'MultiPoint', coordinates: [[roundTo(request.location.lon, 6), roundTo(request.location.lat, 6)]] };
    const snappedPoints: MultiPoint = { type: 'MultiPoint', coordinates: [[roundTo(snapped.lon, 6), roundTo(snapped.lat, 6)]] };
    features.push({ type: 'Feature', properties: { type: 'input', location_index: 0 }, geometry: locations });
    features.push({ type: 'Feature', properties: { type: 'snapped', location_index: 0 }, geometry: snappedPoints });
  }
  return {
    ok: true,
    result: {
      collection: { type: 'FeatureCollection', features },
      stats: {
        reachedEdges: reach.edges.length,
        gridColumns: grid.columns,
        gridRows: grid.rows,
        cellMeters: grid.cellMeters,
        searchMs: searched - started,
        contourMs: performance.now() - searched,
      },
    },
  };
}

/** Outer rings (counter-clockwise) with the holes inside them; small outer rings dropped by `denoise`. */
function toPolygons(rings: Ring[], denoise: number, generalizeMeters: number): Ring[][] {
  const outers: { ring: Ring; area: number; holes: Ring[] }[] = [];
  const holes: Ring[] = [];
  for (const ring of rings) {
    const area = signedArea(ring);
    if (area > 0) outers.push({ ring, area, holes: [] });
    else if (area < 0) holes.push(ring);
  }
  outers.sort((a, b) => a.area - b.area);
  for (const hole of holes) {
    // the smallest outer ring around the hole owns it
    const owner = outers.find((outer) => booleanPointInPolygon(hole[0]!, { type: 'Polygon', coordinates: [outer.ring] }));
    owner?.holes.push(hole);
  }
  const largest = outers.length ? outers[outers.length - 1]!.area : 0;
  const kept = outers.filter((outer) => outer.area >= denoise * largest).reverse();
  const polygons: Ring[][] = [];
  for (const outer of kept) {
    // a ring needs four positions; one that collapsed when rounded is dropped (an outer one with its holes)
    const ring = finishRing(outer.ring, generalizeMeters);
    if (ring.length < 4) continue;
    polygons.push([ring, ...outer.holes.map((hole) => finishRing(hole, generalizeMeters)).filter((hole) => hole.length >= 4)]);
  }
  return polygons;
}

function finishRing(ring: Ring, generalizeMeters: number): Ring {
  let coordinates: Position[] = ring;
  if (generalizeMeters > 0 && ring.length > 4) {
    const simplified = simplify({ type: 'Polygon', coordinates: [ring] } as Polygon, { tolerance: generalizeMeters / METERS_PER_DEGREE, highQuality: true, mutate: true });
    coordinates = simplified.coordinates[0]!;
  }
  // rounding (and crossings exactly at grid nodes) can repeat a position; a ring keeps each once
  const rounded: [number, number][] = [];
  for (const [lon, lat] of coordinates) {
    const point: [number, number] = [roundTo(lon!, 6), roundTo(lat!, 6)];
    const last = rounded[rounded.length - 1];
    if (!last || last[0] !== point[0] || last[1] !== point[1]) rounded.push(point);
  }
  return rounded;
}

function polygonGeometry(polygons: Ring[][]): Polygon | MultiPolygon {
  if (polygons.length === 1) return { type: 'Polygon', coordinates: polygons[0]! };
  return { type: 'MultiPolygon', coordinates: polygons };
}

function lineGeometry(polygons: Ring[][]): LineString | MultiLineString {
  const lines = polygons.flat();
  if (lines.length === 1) return { type: 'LineString', coordinates: lines[0]! };
  return { type: 'MultiLineString', coordinates: lines };
}

/** Shoelace area in degrees² (positive = counter-clockwise). */
function signedArea(ring: Ring): number {
  let sum = 0;
  for (let index = 0; index + 1 < ring.length; index++) sum += ring[index]![0] * ring[index + 1]![1] - ring[index + 1]![0] * ring[index]![1];
  return sum / 2;
}
