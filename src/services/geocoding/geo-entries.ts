/**
 * What the geocoder knows, read from a map data pack: named streets (ways of the
 * road graph with the same names, joined where they touch), places, administrative
 * areas (OSM boundaries and --admin files), address points and named buildings.
 * Businesses (shops, amenities, offices …) are left to the place catalogue: an
 * address point keeps its house number and street, never the business name.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { COORDINATE_SCALE, GeometryKind } from '../../datapack/pack-layout.js';
import { ARABIC, namesOf, type EntryNames } from './entry-names.js';
import { readStreets } from './street-entries.js';

export type EntryKind = 'admin' | 'place' | 'street' | 'address' | 'building';
export type OsmType = 'node' | 'way' | 'relation' | 'external';

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

function hasTag(pack: MapPack, feature: number, key: string): boolean {
  const s = pack.sections;
  const start = s['features.tagStart'][feature]!;
  for (let index = start; index < start + s['features.tagCount'][feature]!; index++) if (pack.strings.get(s['tags.key'][index]!) === key) return true;
  return false;
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

export type PushEntry = (entry: Omit<GeoEntry, 'id' | 'parents'>) => number;

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
      // most buildings carry neither: skip them before building their tag object
      if (layer === 'building' && !hasTag(pack, feature, 'name') && !hasTag(pack, feature, 'addr:housenumber')) continue;
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
