/**
 * What the geocoder knows, read from a map data pack: named streets (ways of the
 * road graph with the same names, joined where they touch), places, administrative
 * areas (OSM boundaries and --admin files), address points and named buildings.
 * Businesses (shops, amenities, offices …) are left to the place catalogue: an
 * address point keeps its house number and street, never the business name.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { COORDINATE_SCALE, GeometryKind, NO_INDEX, ROAD_CLASSES } from '../../datapack/pack-layout.js';

export type EntryKind = 'admin' | 'place' | 'street' | 'address' | 'building';
export type OsmType = 'node' | 'way' | 'relation' | 'external';

export interface EntryNames {
  /** `name` as tagged */
  name?: string;
  ar?: string;
  en?: string;
  /** Every spelling searched: name, name:ar, name:en, alt_name, old_name, int_name, official_name, short_name. */
  all: string[];
}

export interface GeoEntry {
  id: number;
  kind: EntryKind;
  osmType: OsmType;
  osmId: number;
  /** Representative point */
  lon: number;
  lat: number;
  /** west, south, east, north */
  bbox: [number, number, number, number];
  category: string;
  type: string;
  names: EntryNames;
  /** 0..1: admin level, place rank, road class, population */
  importance: number;
  adminLevel?: number;
  /** Area rings for containment (admin areas and place polygons), each flat: lon0, lat0, lon1, lat1 … */
  rings?: Float64Array[];
  /** Address points: house number and the `addr:*` tags. */
  address?: Record<string, string>;
  /** Feature tags (admin/place/building/address) for address parts. */
  tags?: Record<string, string>;
  /** Streets: OSM ids of the member ways, and graph edges for reverse lookups. */
  wayIds?: number[];
  /** The pack feature it was read from (not for streets). */
  feature?: number;
  /** Enclosing admin areas and places, smallest first (filled by the index). */
  parents: number[];
}

const NAME_KEYS = ['name', 'name:ar', 'name:en', 'alt_name', 'old_name', 'int_name', 'official_name', 'short_name', 'loc_name'];
const BUSINESS_KEYS = ['amenity', 'shop', 'office', 'craft', 'healthcare', 'tourism', 'leisure', 'brand'];
const OSM_TYPES: OsmType[] = ['node', 'way', 'relation', 'external'];
const LOCALITY_TYPES = new Set(['city', 'town', 'village', 'hamlet', 'suburb', 'quarter', 'neighbourhood', 'borough', 'locality', 'isolated_dwelling', 'island']);
const PLACE_IMPORTANCE: Record<string, number> = {
  country: 1,
  state: 0.9,
  city: 0.85,
  town: 0.75,
  borough: 0.65,
  suburb: 0.6,
  village: 0.55,
  quarter: 0.5,
  neighbourhood: 0.48,
  hamlet: 0.45,
  square: 0.45,
  locality: 0.4,
};

const ARABIC = /[\u0600-\u06FF]/;

export function namesOf(tags: Record<string, string>): EntryNames {
  const all: string[] = [];
  for (const key of NAME_KEYS) {
    for (const value of (tags[key] ?? '').split(';')) {
      const trimmed = value.trim();
      if (trimmed && !all.includes(trimmed)) all.push(trimmed);
    }
  }
  const name = tags.name?.trim() || undefined;
  return {
    name,
    ar: tags['name:ar']?.trim() || (name && ARABIC.test(name) ? name : undefined),
    en: tags['name:en']?.trim() || tags.int_name?.trim() || (name && !ARABIC.test(name) ? name : undefined),
    all,
  };
}

export function isLocality(entry: GeoEntry): boolean {
  return entry.kind === 'admin' || (entry.kind === 'place' && LOCALITY_TYPES.has(entry.type));
}

/**
 * The `addr:*` tags without the prefix. A street given in both scripts ("Abbas El-Akkad;شارع عباس العقاد")
 * is split: the Arabic spelling becomes `street`, the Latin one `street:en` unless that is tagged.
 */
function addressOf(tags: Record<string, string>): Record<string, string> {
  const address: Record<string, string> = {};
  for (const [key, value] of Object.entries(tags)) if (key.startsWith('addr:')) address[key.slice(5)] = value;
  const spellings = (address.street ?? '').split(';').map((value) => value.trim()).filter(Boolean);
  if (spellings.length > 1) {
    const arabic = spellings.find((value) => ARABIC.test(value));
    const latin = spellings.find((value) => !ARABIC.test(value));
    address.street = arabic ?? spellings[0]!;
    if (latin && !address['street:en']) address['street:en'] = latin;
    else if (latin) address['street:alt'] = latin;
  }
  return address;
}

function featureBase(pack: MapPack, feature: number) {
  const s = pack.sections;
  const [lon, lat] = pack.featurePosition(feature);
  const scale = 1e7;
  return {
    osmType: OSM_TYPES[s['features.sourceKind'][feature]!] ?? 'node',
    osmId: s['features.osmId'][feature]!,
    feature,
    lon,
    lat,
    bbox: [s['features.minLon'][feature]! / scale, s['features.minLat'][feature]! / scale, s['features.maxLon'][feature]! / scale, s['features.maxLat'][feature]! / scale] as [
      number,
      number,
      number,
      number,
    ],
  };
}

/** A polygon feature's rings as flat coordinate arrays, read straight from the pack's columns. */
export function polygonRings(pack: MapPack, feature: number): Float64Array[] | undefined {
  const s = pack.sections;
  if (s['features.geometry'][feature] !== GeometryKind.polygon) return undefined;
  const rings: Float64Array[] = [];
  const first = s['features.partStart'][feature]!;
  for (let part = first; part < first + s['features.partCount'][feature]!; part++) {
    const start = s['parts.pointStart'][part]!;
    const count = s['parts.pointCount'][part]!;
    const ring = new Float64Array(count * 2);
    for (let index = 0; index < count; index++) {
      ring[index * 2] = s['points.lon'][start + index]! / COORDINATE_SCALE;
      ring[index * 2 + 1] = s['points.lat'][start + index]! / COORDINATE_SCALE;
    }
    rings.push(ring);
  }
  return rings;
}

function populationBoost(tags: Record<string, string>): number {
  const population = Number(tags.population);
  return Number.isFinite(population) && population > 0 ? Math.min(0.1, Math.log10(population) / 70) : 0;
}

export interface PackEntries {
  entries: GeoEntry[];
  /** Street entry of each routable way (index of the pack's way table), or -1 for unnamed ways. */
  streetOfWay: Int32Array;
}

type PushEntry = (entry: Omit<GeoEntry, 'id' | 'parents'>) => number;

/** All geocodable entries of a pack; `id` is the position in the returned array. */
export function readEntries(pack: MapPack): PackEntries {
  const entries: GeoEntry[] = [];
  const push: PushEntry = (entry) => entries.push({ ...entry, id: entries.length, parents: [] }) - 1;

  let [start, end] = pack.layerRange('admin_area');
  for (let feature = start; feature < end; feature++) {
    const tags = pack.featureTags(feature);
    const names = namesOf(tags);
    if (!names.all.length) continue;
    const level = Number(tags.admin_level) || 8;
    push({
      ...featureBase(pack, feature),
      kind: 'admin',
      category: 'boundary',
      type: 'administrative',
      names,
      adminLevel: level,
      importance: Math.max(0.3, Math.min(1, 1.1 - level * 0.07)) + populationBoost(tags),
      rings: polygonRings(pack, feature),
      tags,
    });
  }

  [start, end] = pack.layerRange('place');
  for (let feature = start; feature < end; feature++) {
    const tags = pack.featureTags(feature);
    const names = namesOf(tags);
    if (!names.all.length) continue;
    const type = tags.place ?? 'locality';
    push({
      ...featureBase(pack, feature),
      kind: 'place',
      category: 'place',
      type,
      names,
      importance: (PLACE_IMPORTANCE[type] ?? 0.4) + populationBoost(tags),
      rings: polygonRings(pack, feature),
      tags,
    });
  }

  const streetOfWay = readStreets(pack, push);

  // address points and named buildings; an element can sit in both layers: keep it once
  const seen = new Set<string>();
  for (const layer of ['address', 'building'] as const) {
    [start, end] = pack.layerRange(layer);
    for (let feature = start; feature < end; feature++) {
      const tags = pack.featureTags(feature);
      const base = featureBase(pack, feature);
      const key = `${base.osmType}/${base.osmId}`;
      if (seen.has(key)) continue;
      const business = BUSINESS_KEYS.some((businessKey) => tags[businessKey] !== undefined);
      const houseNumber = tags['addr:housenumber'];
      if (houseNumber && (tags['addr:street'] || tags['addr:street:en'])) {
        seen.add(key);
        const address = addressOf(tags);
        push({
          ...base,
          kind: 'address',
          category: tags.building ? 'building' : 'place',
          type: tags.building ? (tags.building === 'yes' ? 'house' : tags.building) : 'house',
          names: business ? { all: [] } : namesOf(tags),
          importance: 0.2,
          address,
          tags: business ? undefined : tags,
        });
      } else if (layer === 'building' && !business && tags.name) {
        seen.add(key);
        push({ ...base, kind: 'building', category: 'building', type: tags.building ?? 'yes', names: namesOf(tags), importance: 0.3, tags });
      }
    }
  }
  return { entries, streetOfWay };
}

/** Same-named ways less than this apart (bounding boxes, degrees, ~300 m) are one street even where they do not touch. */
const STREET_JOIN_GAP = 0.003;

/**
 * A street is often mapped in pieces that do not share a node (dual carriageways, a gap at a
 * square, an unnamed stretch); pieces with the same names whose bounding boxes come within
 * STREET_JOIN_GAP of each other are joined (single linkage over the pieces of each name).
 */
function joinNearbySameNamed(
  pack: MapPack,
  named: (way: number) => boolean,
  nameKey: (way: number) => string,
  find: (way: number) => number,
  parent: Int32Array,
): void {
  const s = pack.sections;
  const boxes = new Map<number, [number, number, number, number]>();
  for (let edge = 0; edge < s['graph.edgeTarget'].length; edge++) {
    const way = s['graph.edgeWay'][edge]!;
    if (way === NO_INDEX || !named(way)) continue;
    let box = boxes.get(way);
    if (!box) boxes.set(way, (box = [Infinity, Infinity, -Infinity, -Infinity]));
    for (const node of [s['graph.edgeSource'][edge]!, s['graph.edgeTarget'][edge]!]) {
      const [lon, lat] = pack.nodePosition(node);
      box[0] = Math.min(box[0], lon);
      box[1] = Math.min(box[1], lat);
      box[2] = Math.max(box[2], lon);
      box[3] = Math.max(box[3], lat);
    }
  }
  const byName = new Map<string, number[]>();
  for (const way of boxes.keys()) {
    const list = byName.get(nameKey(way));
    if (list) list.push(way);
    else byName.set(nameKey(way), [way]);
  }
  for (const ways of byName.values()) {
    if (ways.length < 2 || ways.length > 2000) continue;
    for (let i = 0; i < ways.length; i++) {
      const a = boxes.get(ways[i]!)!;
      for (let j = i + 1; j < ways.length; j++) {
        const b = boxes.get(ways[j]!)!;
        const gapLon = Math.max(0, a[0] - b[2], b[0] - a[2]);
        const gapLat = Math.max(0, a[1] - b[3], b[1] - a[3]);
        if (gapLon <= STREET_JOIN_GAP && gapLat <= STREET_JOIN_GAP) parent[find(ways[i]!)] = find(ways[j]!);
      }
    }
  }
}

/**
 * Streets: routable ways with a name, grouped by their (name, name:ar, name:en) and joined
 * where they share a graph node, so a long street split into many OSM ways is one result.
 */
function readStreets(pack: MapPack, push: PushEntry): Int32Array {
  const s = pack.sections;
  const wayCount = s['ways.osmId'].length;
  const keys = Array.from({ length: wayCount }, (_, way) => `${s['ways.name'][way]}|${s['ways.nameAr'][way]}|${s['ways.nameEn'][way]}|${s['ways.ref'][way]}`);
  const nameKey = (way: number) => keys[way]!;
  const named = (way: number) => s['ways.name'][way] !== 0 || s['ways.nameAr'][way] !== 0 || s['ways.nameEn'][way] !== 0 || s['ways.ref'][way] !== 0;
  const streetOfWay = new Int32Array(wayCount).fill(-1);
  const parent = Int32Array.from({ length: wayCount }, (_, index) => index);
  const find = (way: number): number => {
    while (parent[way] !== way) {
      parent[way] = parent[parent[way]!]!;
      way = parent[way]!;
    }
    return way;
  };
  // ways meeting at a node: union those with the same names
  const waysAtNode = new Map<number, number[]>();
  const edgeCount = s['graph.edgeTarget'].length;
  for (let edge = 0; edge < edgeCount; edge++) {
    const way = s['graph.edgeWay'][edge]!;
    if (way === NO_INDEX || !named(way)) continue;
    for (const node of [s['graph.edgeSource'][edge]!, s['graph.edgeTarget'][edge]!]) {
      const list = waysAtNode.get(node);
      if (!list) waysAtNode.set(node, [way]);
      else if (!list.includes(way)) {
        for (const other of list) if (nameKey(other) === nameKey(way)) parent[find(other)] = find(way);
        list.push(way);
      }
    }
  }
  joinNearbySameNamed(pack, named, nameKey, find, parent);
  const groups = new Map<number, { ways: number[]; lengths: number[]; bbox: [number, number, number, number]; bestEdge: number; bestLength: number }>();
  for (let edge = 0; edge < edgeCount; edge++) {
    const way = s['graph.edgeWay'][edge]!;
    if (way === NO_INDEX || !named(way)) continue;
    const root = find(way);
    let group = groups.get(root);
    if (!group) {
      group = { ways: [], lengths: [], bbox: [Infinity, Infinity, -Infinity, -Infinity], bestEdge: edge, bestLength: -1 };
      groups.set(root, group);
    }
    if (!group.ways.includes(way)) group.ways.push(way);
    const length = s['graph.edgeLength'][edge]!;
    if (length > group.bestLength) {
      group.bestLength = length;
      group.bestEdge = edge;
    }
    const shapeStart = s['graph.edgeShapeStart'][edge]!;
    for (let index = shapeStart; index < shapeStart + s['graph.edgeShapeCount'][edge]!; index++) {
      const lon = s['graph.shapeLon'][index]! / COORDINATE_SCALE;
      const lat = s['graph.shapeLat'][index]! / COORDINATE_SCALE;
      group.bbox[0] = Math.min(group.bbox[0], lon);
      group.bbox[1] = Math.min(group.bbox[1], lat);
      group.bbox[2] = Math.max(group.bbox[2], lon);
      group.bbox[3] = Math.max(group.bbox[3], lat);
    }
  }
  for (const group of groups.values()) {
    const way = s['graph.edgeWay'][group.bestEdge]!;
    // the middle of the longest segment: inside the street, never at an intersection
    const shape = pack.edgeShape(group.bestEdge);
    const middle = Math.max(0, Math.floor((shape.length - 1) / 2));
    const [ax, ay] = shape[middle]!;
    const [bx, by] = shape[Math.min(middle + 1, shape.length - 1)]!;
    const lon = (ax + bx) / 2;
    const lat = (ay + by) / 2;
    const tags: Record<string, string> = {};
    const put = (key: string, id: number) => {
      if (id !== 0) tags[key] = pack.strings.get(id);
    };
    put('name', s['ways.name'][way]!);
    put('name:ar', s['ways.nameAr'][way]!);
    put('name:en', s['ways.nameEn'][way]!);
    put('ref', s['ways.ref'][way]!);
    const names = namesOf(tags);
    if (tags.ref && !names.all.includes(tags.ref)) names.all.push(tags.ref);
    if (!names.name && tags.ref) names.name = tags.ref;
    let roadClass: number = ROAD_CLASSES.length;
    for (const member of group.ways) roadClass = Math.min(roadClass, s['ways.class'][member]!);
    const className: string = (ROAD_CLASSES as readonly string[])[roadClass] ?? 'road';
    const id = push({
      osmType: 'way',
      osmId: s['ways.osmId'][way]!,
      lon,
      lat,
      bbox: group.bbox,
      kind: 'street',
      category: 'highway',
      type: className,
      names,
      importance: 0.45 - Math.min(roadClass, 10) * 0.02,
      wayIds: group.ways.map((member) => s['ways.osmId'][member]!),
      tags,
    });
    for (const member of group.ways) streetOfWay[member] = id;
  }
  return streetOfWay;
}
