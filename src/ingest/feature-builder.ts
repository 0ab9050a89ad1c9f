/**
 * Builds the pack's feature sections (geocoding sources, POIs, tile layers,
 * chargers, stops, cameras) from kept nodes, ways, assembled multipolygons and
 * admin GeoJSON, sorted by layer.
 */
import { COORDINATE_SCALE, FEATURE_LAYERS, GeometryKind, SourceKind, type FeatureLayer } from '../datapack/pack-layout.js';
import type { AdminArea } from './admin-areas.js';
import { areaOrLineLayers, keptTags, type FeatureGeometryKind } from './feature-tags.js';
import { binarySearch } from './sorted-ids.js';
import type { Bbox, CollectedOsm } from './osm-collector.js';
import { assembleRings } from './ring-assembler.js';
import type { StringTableBuilder } from './string-table-builder.js';

type Ring = { inner: boolean; lon: number[]; lat: number[] };

interface PendingFeature {
  layer: number;
  geometry: number;
  sourceKind: number;
  osmId: number;
  parts: Ring[];
  tags: [string, string][];
  /** A representative point given by the source (admin areas: a point inside the polygon). */
  point?: [number, number];
}

export interface BuiltFeatures {
  arrays: {
    layer: Uint8Array;
    geometry: Uint8Array;
    sourceKind: Uint8Array;
    osmId: Float64Array;
    lat: Int32Array;
    lon: Int32Array;
    minLat: Int32Array;
    minLon: Int32Array;
    maxLat: Int32Array;
    maxLon: Int32Array;
    partStart: Uint32Array;
    partCount: Uint32Array;
    tagStart: Uint32Array;
    tagCount: Uint32Array;
    pointStart: Uint32Array;
    pointCount: Uint32Array;
    inner: Uint8Array;
    pointLat: Int32Array;
    pointLon: Int32Array;
    tagKey: Uint32Array;
    tagValue: Uint32Array;
  };
  layers: Record<string, [number, number]>;
  unclosedRelations: number;
}

const GEOMETRY: Record<FeatureGeometryKind, number> = { point: GeometryKind.point, line: GeometryKind.line, polygon: GeometryKind.polygon };

export function buildFeatures(collected: CollectedOsm, adminAreas: AdminArea[], strings: StringTableBuilder, bbox?: Bbox): BuiltFeatures {
  const pending: PendingFeature[] = [];
  const { wayRefs, wayRefIndex, nodeLat, nodeLon } = collected;
  const layerIndex = (layer: FeatureLayer) => FEATURE_LAYERS.indexOf(layer);

  for (const point of collected.points) {
    const tags = keptTags(point.tags);
    for (const layer of point.layers) {
      pending.push({ layer: layerIndex(layer), geometry: GeometryKind.point, sourceKind: SourceKind.node, osmId: point.id, parts: [{ inner: false, lon: [point.lon], lat: [point.lat] }], tags });
    }
  }

  const ringFromChain = (chain: number[], inner: boolean): Ring | undefined => {
    const ring: Ring = { inner, lon: [], lat: [] };
    for (const id of chain) {
      const slot = slotOfId(collected, id);
      if (slot < 0) return undefined;
      ring.lon.push(nodeLon[slot]!);
      ring.lat.push(nodeLat[slot]!);
    }
    return ring;
  };

  for (const way of collected.ways) {
    if (!way.layers.length) continue;
    const ring: Ring = { inner: false, lon: [], lat: [] };
    let complete = true;
    for (let index = way.refStart; index < way.refStart + way.refCount; index++) {
      const slot = wayRefIndex[index]!;
      if (slot < 0) {
        complete = false;
        continue;
      }
      ring.lon.push(nodeLon[slot]!);
      ring.lat.push(nodeLat[slot]!);
    }
    if (ring.lon.length < 2) continue;
    const tags = keptTags(way.tags);
    for (const match of way.layers) {
      if (match.geometry === 'polygon' && (!complete || ring.lon.length < 4)) continue;
      const parts = match.geometry === 'point' ? [representative([ring], way.layers.some((m) => m.geometry === 'polygon') || isClosed(ring))] : [ring];
      // with a bbox, lines and areas touching it stay whole, but a point (a building's POI) must lie inside it
      if (bbox && match.geometry === 'point' && !inside(parts[0]!, bbox)) continue;
      pending.push({ layer: layerIndex(match.layer), geometry: GEOMETRY[match.geometry], sourceKind: SourceKind.way, osmId: way.id, parts, tags });
    }
  }

  // multipolygon and boundary relations
  const wayById = new Map(collected.ways.map((way) => [way.id, way]));
  let unclosedRelations = 0;
  for (const relation of collected.relations) {
    const chains = (ids: number[]) =>
      ids.flatMap((id) => {
        const way = wayById.get(id);
        return way ? [Array.from(wayRefs.subarray(way.refStart, way.refStart + way.refCount))] : [];
      });
    const outer = assembleRings(chains(relation.outer)).map((chain) => ringFromChain(chain, false));
    const inner = assembleRings(chains(relation.inner)).map((chain) => ringFromChain(chain, true));
    const rings = [...outer, ...inner].filter((ring): ring is Ring => !!ring);
    if (!rings.some((ring) => !ring.inner)) {
      unclosedRelations++;
      continue;
    }
    if (bbox && !intersects(bounds(rings), bbox)) continue;
    const tags = keptTags(relation.tags).filter(([key]) => key !== 'type');
    for (const match of areaOrLineLayers(relation.tags, true)) {
      const parts = match.geometry === 'point' ? [representative(rings, true)] : rings;
      if (bbox && match.geometry === 'point' && !inside(parts[0]!, bbox)) continue;
      pending.push({ layer: layerIndex(match.layer), geometry: GEOMETRY[match.geometry === 'line' ? 'polygon' : match.geometry], sourceKind: SourceKind.relation, osmId: relation.id, parts, tags });
    }
  }

  adminAreas.forEach((area, position) => {
    const rings: Ring[] = area.rings.map((ring, index) => ({ inner: area.inner[index]!, lon: ring.map((c) => c[0]), lat: ring.map((c) => c[1]) }));
    if (bbox && !intersects(bounds(rings), bbox)) return;
    pending.push({ layer: layerIndex('admin_area'), geometry: GeometryKind.polygon, sourceKind: SourceKind.external, osmId: position, parts: rings, tags: Object.entries(area.tags), point: area.point });
  });

  // stable sort by layer
  const order = pending.map((_, index) => index).sort((a, b) => pending[a]!.layer - pending[b]!.layer || a - b);
  return packFeatures(order.map((index) => pending[index]!), strings, unclosedRelations);
}

function slotOfId(collected: CollectedOsm, id: number): number {
  const slot = binarySearch(collected.nodeIds, id);
  return slot >= 0 && !Number.isNaN(collected.nodeLat[slot]!) ? slot : -1;
}

function isClosed(ring: Ring): boolean {
  return ring.lon.length >= 4 && ring.lon[0] === ring.lon[ring.lon.length - 1] && ring.lat[0] === ring.lat[ring.lat.length - 1];
}

/** The representative point: area centroid of the largest outer ring, or the middle of a line. */
function representative(rings: Ring[], area: boolean): Ring {
  const outer = rings.filter((ring) => !ring.inner);
  const ring = outer.reduce((best, current) => (current.lon.length > best.lon.length ? current : best), outer[0] ?? rings[0]!);
  if (area) {
    let twiceArea = 0;
    let x = 0;
    let y = 0;
    for (let index = 0; index + 1 < ring.lon.length; index++) {
      const cross = ring.lon[index]! * ring.lat[index + 1]! - ring.lon[index + 1]! * ring.lat[index]!;
      twiceArea += cross;
      x += (ring.lon[index]! + ring.lon[index + 1]!) * cross;
      y += (ring.lat[index]! + ring.lat[index + 1]!) * cross;
    }
    if (Math.abs(twiceArea) > 1e-14) return { inner: false, lon: [x / (3 * twiceArea)], lat: [y / (3 * twiceArea)] };
  }
  const middle = Math.floor(ring.lon.length / 2);
  if (ring.lon.length % 2 === 0 && ring.lon.length >= 2) {
    return { inner: false, lon: [(ring.lon[middle - 1]! + ring.lon[middle]!) / 2], lat: [(ring.lat[middle - 1]! + ring.lat[middle]!) / 2] };
  }
  return { inner: false, lon: [ring.lon[middle]!], lat: [ring.lat[middle]!] };
}

function inside(point: Ring, bbox: Bbox): boolean {
  const lon = point.lon[0]!;
  const lat = point.lat[0]!;
  return lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3];
}

function bounds(rings: Ring[]): Bbox {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (const ring of rings) {
    for (let index = 0; index < ring.lon.length; index++) {
      west = Math.min(west, ring.lon[index]!);
      east = Math.max(east, ring.lon[index]!);
      south = Math.min(south, ring.lat[index]!);
      north = Math.max(north, ring.lat[index]!);
    }
  }
  return [west, south, east, north];
}

function intersects(a: Bbox, b: Bbox): boolean {
  return a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];
}

function packFeatures(features: PendingFeature[], strings: StringTableBuilder, unclosedRelations: number): BuiltFeatures {
  const count = features.length;
  const fixed = (degrees: number) => Math.round(degrees * COORDINATE_SCALE);
  const arrays: BuiltFeatures['arrays'] = {
    layer: new Uint8Array(count),
    geometry: new Uint8Array(count),
    sourceKind: new Uint8Array(count),
    osmId: new Float64Array(count),
    lat: new Int32Array(count),
    lon: new Int32Array(count),
    minLat: new Int32Array(count),
    minLon: new Int32Array(count),
    maxLat: new Int32Array(count),
    maxLon: new Int32Array(count),
    partStart: new Uint32Array(count),
    partCount: new Uint32Array(count),
    tagStart: new Uint32Array(count),
    tagCount: new Uint32Array(count),
    pointStart: new Uint32Array(0),
    pointCount: new Uint32Array(0),
    inner: new Uint8Array(0),
    pointLat: new Int32Array(0),
    pointLon: new Int32Array(0),
    tagKey: new Uint32Array(0),
    tagValue: new Uint32Array(0),
  };
  const pointStart: number[] = [];
  const pointCount: number[] = [];
  const inner: number[] = [];
  const pointLat: number[] = [];
  const pointLon: number[] = [];
  const tagKey: number[] = [];
  const tagValue: number[] = [];
  const layers: Record<string, [number, number]> = {};

  features.forEach((feature, index) => {
    const layerName = FEATURE_LAYERS[feature.layer]!;
    const range = (layers[layerName] ??= [index, 0]);
    range[1]++;
    arrays.layer[index] = feature.layer;
    arrays.geometry[index] = feature.geometry;
    arrays.sourceKind[index] = feature.sourceKind;
    arrays.osmId[index] = feature.osmId;
    const [west, south, east, north] = bounds(feature.parts);
    arrays.minLon[index] = fixed(west);
    arrays.minLat[index] = fixed(south);
    arrays.maxLon[index] = fixed(east);
    arrays.maxLat[index] = fixed(north);
    const point =
      feature.point ??
      (feature.geometry === GeometryKind.point
        ? [feature.parts[0]!.lon[0]!, feature.parts[0]!.lat[0]!]
        : (() => {
            const rep = representative(feature.parts, feature.geometry === GeometryKind.polygon);
            return [rep.lon[0]!, rep.lat[0]!];
          })());
    arrays.lon[index] = fixed(point[0]!);
    arrays.lat[index] = fixed(point[1]!);
    arrays.partStart[index] = pointStart.length;
    arrays.partCount[index] = feature.parts.length;
    for (const part of feature.parts) {
      pointStart.push(pointLat.length);
      pointCount.push(part.lon.length);
      inner.push(part.inner ? 1 : 0);
      for (let p = 0; p < part.lon.length; p++) {
        pointLat.push(fixed(part.lat[p]!));
        pointLon.push(fixed(part.lon[p]!));
      }
    }
    arrays.tagStart[index] = tagKey.length;
    arrays.tagCount[index] = feature.tags.length;
    for (const [key, value] of feature.tags) {
      tagKey.push(strings.id(key));
      tagValue.push(strings.id(value));
    }
  });
  arrays.pointStart = Uint32Array.from(pointStart);
  arrays.pointCount = Uint32Array.from(pointCount);
  arrays.inner = Uint8Array.from(inner);
  arrays.pointLat = Int32Array.from(pointLat);
  arrays.pointLon = Int32Array.from(pointLon);
  arrays.tagKey = Uint32Array.from(tagKey);
  arrays.tagValue = Uint32Array.from(tagValue);
  for (const layer of FEATURE_LAYERS) layers[layer] ??= [count, 0];
  return { arrays, layers, unclosedRelations };
}
