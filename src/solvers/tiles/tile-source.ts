/**
 * What a worker cuts tiles from: every pack feature and road mapped once to its tile layers
 * (omt-mapping.ts), with a Flatbush R-tree over their bounding boxes so a tile reads only what
 * touches it. Geometry stays in the pack (shared memory) and is read per tile. Roads are the
 * graph's edge shapes, joined back into one line per way (a way is split at every junction).
 */
import Flatbush from 'flatbush';
import { COORDINATE_SCALE, EdgeFlag, NO_INDEX, ROAD_CLASSES, type FeatureLayer } from '../../datapack/pack-layout.js';
import type { MapPack } from '../../datapack/map-pack.js';
import {
  mapAddress,
  mapAdminArea,
  mapAeroway,
  mapBuilding,
  mapLanduse,
  mapPark,
  mapPlace,
  mapRailway,
  mapWater,
  mapWaterway,
  nameFields,
  roadClassMapping,
  type MappedFeature,
  type TileProperties,
} from './omt-mapping.js';
import type { TileLayerName } from './tile-schema.js';

type Tags = Record<string, string>;

const FEATURE_MAPPERS: Partial<Record<FeatureLayer, (tags: Tags) => MappedFeature[]>> = {
  place: mapPlace,
  address: mapAddress,
  building: mapBuilding,
  water: mapWater,
  waterway: mapWaterway,
  landuse: mapLanduse,
  park: mapPark,
  railway: mapRailway,
  admin_area: mapAdminArea,
  aeroway: mapAeroway,
};

/** One thing a tile may show: a mapped pack feature, or a road (way) or its name. */
export interface TileItem {
  layer: TileLayerName;
  minZoom: number;
  properties: TileProperties;
  as: MappedFeature['as'];
  /** A pack feature index, or a way index for roads. */
  source: 'feature' | 'way';
  ref: number;
  /** The larger side of the bounding box in Web Mercator world units (0..1): thins features too small to see. */
  size: number;
}

/** A way's line parts as [lon, lat] pairs, and whether cars may drive it one way only (1, -1) or both (0). */
interface WayLines {
  lines: [number, number][][];
  oneway: number;
  flags: number;
}

export class TileSource {
  readonly items: TileItem[] = [];
  private readonly index: Flatbush | undefined;
  private readonly ways = new Map<number, WayLines>();
  /** [west, south, east, north] of everything the tiles show, or undefined for an empty pack. */
  readonly bounds: [number, number, number, number] | undefined;

  constructor(readonly pack: MapPack) {
    const boxes: number[] = [];
    const add = (item: TileItem, box: [number, number, number, number]) => {
      this.items.push(item);
      boxes.push(...box);
    };
    this.addFeatures(add);
    this.addRoads(add);
    if (this.items.length === 0) {
      this.bounds = undefined;
      return;
    }
    const index = new Flatbush(this.items.length);
    let west = Infinity;
    let south = Infinity;
    let east = -Infinity;
    let north = -Infinity;
    for (let at = 0; at < boxes.length; at += 4) {
      index.add(boxes[at]!, boxes[at + 1]!, boxes[at + 2]!, boxes[at + 3]!);
      // admin areas from --admin files may lie far away (Jordan beside Cairo): the bounds cover them too
      west = Math.min(west, boxes[at]!);
      south = Math.min(south, boxes[at + 1]!);
      east = Math.max(east, boxes[at + 2]!);
      north = Math.max(north, boxes[at + 3]!);
    }
    index.finish();
    this.index = index;
    this.bounds = [west, south, east, north];
  }

  /** Items whose bounding box meets [west, south, east, north] (degrees). */
  search(west: number, south: number, east: number, north: number): number[] {
    return this.index ? this.index.search(west, south, east, north) : [];
  }

  wayLines(way: number): WayLines {
    return this.ways.get(way)!;
  }

  private addFeatures(add: (item: TileItem, box: [number, number, number, number]) => void): void {
    const s = this.pack.sections;
    const scale = COORDINATE_SCALE;
    for (const [layer, mapper] of Object.entries(FEATURE_MAPPERS) as [FeatureLayer, (tags: Tags) => MappedFeature[]][]) {
      const [start, end] = this.pack.layerRange(layer);
      for (let feature = start; feature < end; feature++) {
        const mapped = mapper(this.pack.featureTags(feature));
        if (mapped.length === 0) continue;
        const geometry = s['features.geometry'][feature]!;
        const box: [number, number, number, number] = [
          s['features.minLon'][feature]! / scale,
          s['features.minLat'][feature]! / scale,
          s['features.maxLon'][feature]! / scale,
          s['features.maxLat'][feature]! / scale,
        ];
        const size = worldSize(box);
        for (const entry of mapped) {
          // a point-only feature (a place node) has no parts worth drawing as an area
          if (entry.as !== 'point' && geometry === 1) continue;
          const point: [number, number] = [s['features.lon'][feature]! / scale, s['features.lat'][feature]! / scale];
          add(
            { layer: entry.layer, minZoom: entry.minZoom, properties: entry.properties, as: entry.as, source: 'feature', ref: feature, size: entry.as === 'point' ? 0 : size },
            entry.as === 'point' ? [point[0], point[1], point[0], point[1]] : box,
          );
        }
      }
    }
  }

  /** Joins each way's edge shapes (shared by an edge and its twin) back into lines and adds the road and its name. */
  private addRoads(add: (item: TileItem, box: [number, number, number, number]) => void): void {
    const s = this.pack.sections;
    const segments = new Map<number, { start: number; count: number; forward: boolean; backward: boolean; flags: number }[]>();
    const edgeCount = this.pack.edgeCount;
    for (let edge = 0; edge < edgeCount; edge++) {
      const way = s['graph.edgeWay'][edge]!;
      const start = s['graph.edgeShapeStart'][edge]!;
      const flags = s['graph.edgeFlags'][edge]!;
      const reversed = (flags & EdgeFlag.reversed) !== 0;
      let list = segments.get(way);
      if (!list) segments.set(way, (list = []));
      // an edge and its twin share one shape: keep it once
      if (!reversed || s['graph.edgeTwin'][edge] === NO_INDEX) {
        const existing = list.find((segment) => segment.start === start);
        if (existing) existing[reversed ? 'backward' : 'forward'] = true;
        else list.push({ start, count: s['graph.edgeShapeCount'][edge]!, forward: !reversed, backward: reversed || s['graph.edgeTwin'][edge] !== NO_INDEX, flags: flags & ~EdgeFlag.reversed });
      }
    }
    const scale = COORDINATE_SCALE;
    for (const [way, list] of segments) {
      list.sort((a, b) => a.start - b.start);
      const lines: [number, number][][] = [];
      let current: [number, number][] | undefined;
      let west = Infinity;
      let south = Infinity;
      let east = -Infinity;
      let north = -Infinity;
      let forwardOnly = 0;
      let backwardOnly = 0;
      for (const segment of list) {
        if (segment.forward && !segment.backward) forwardOnly++;
        if (segment.backward && !segment.forward) backwardOnly++;
        const first: [number, number] = [s['graph.shapeLon'][segment.start]! / scale, s['graph.shapeLat'][segment.start]! / scale];
        const last = current?.[current.length - 1];
        // consecutive segments of a way share the junction between them
        const from = last && last[0] === first[0] && last[1] === first[1] ? 1 : 0;
        if (from === 0) lines.push((current = []));
        for (let index = segment.start + from; index < segment.start + segment.count; index++) {
          const lon = s['graph.shapeLon'][index]! / scale;
          const lat = s['graph.shapeLat'][index]! / scale;
          current!.push([lon, lat]);
          west = Math.min(west, lon);
          east = Math.max(east, lon);
          south = Math.min(south, lat);
          north = Math.max(north, lat);
        }
      }
      const flags = list[0]?.flags ?? 0;
      const oneway = forwardOnly > backwardOnly ? 1 : backwardOnly > forwardOnly ? -1 : 0;
      this.ways.set(way, { lines, oneway, flags });
      const roadClass = ROAD_CLASSES[s['ways.class'][way]!] ?? 'road';
      const mapping = roadClassMapping(roadClass);
      const box: [number, number, number, number] = [west, south, east, north];
      const size = worldSize(box);
      const properties: TileProperties = { class: mapping.class, oneway };
      if (mapping.subclass) properties.subclass = mapping.subclass;
      if (flags & EdgeFlag.link) properties.ramp = 1;
      if (flags & EdgeFlag.bridge) properties.brunnel = 'bridge';
      else if (flags & EdgeFlag.tunnel) properties.brunnel = 'tunnel';
      properties.surface = flags & EdgeFlag.unpaved ? 'unpaved' : 'paved';
      if (flags & EdgeFlag.toll) properties.toll = 1;
      add({ layer: 'transportation', minZoom: mapping.minZoom, properties, as: 'geometry', source: 'way', ref: way, size }, box);

      const strings = this.pack.strings;
      const names = nameFields({
        ...optionalTag('name', strings.optional(s['ways.name'][way]!)),
        ...optionalTag('name:ar', strings.optional(s['ways.nameAr'][way]!)),
        ...optionalTag('name:en', strings.optional(s['ways.nameEn'][way]!)),
      });
      const ref = strings.optional(s['ways.ref'][way]!);
      if (names.name || ref) {
        const label: TileProperties = { ...names, class: mapping.class };
        if (mapping.subclass) label.subclass = mapping.subclass;
        if (ref) {
          label.ref = ref;
          label.ref_length = [...ref].length;
        }
        if (properties.brunnel) label.brunnel = properties.brunnel;
        add({ layer: 'transportation_name', minZoom: mapping.nameMinZoom, properties: label, as: 'geometry', source: 'way', ref: way, size }, box);
      }
    }
  }
}

function optionalTag(key: string, value: string | undefined): Tags {
  return value === undefined ? {} : { [key]: value };
}

/** Web Mercator x (0..1) of a longitude. */
export function mercatorX(lon: number): number {
  return lon / 360 + 0.5;
}

/** Web Mercator y (0..1, north at 0) of a latitude. */
export function mercatorY(lat: number): number {
  const sin = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  return 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
}

function worldSize([west, south, east, north]: [number, number, number, number]): number {
  return Math.max(mercatorX(east) - mercatorX(west), mercatorY(south) - mercatorY(north));
}
