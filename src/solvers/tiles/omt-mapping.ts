/**
 * Which tile layer, class and fields each pack feature or road gets, following the OpenMapTiles schema
 * (openmaptiles.org/schema), and from which zoom it is drawn. Pure functions of tags: the tile source
 * (tile-source.ts) calls them once per feature when a worker first cuts a tile.
 */
import type { RoadClass } from '../../datapack/pack-layout.js';
import type { TileLayerName } from './tile-schema.js';

export type TileProperties = Record<string, string | number>;

/** What one pack feature contributes to the tiles (a feature may feed several layers: a named lake is water and water_name). */
export interface MappedFeature {
  layer: TileLayerName;
  /** First zoom the feature is in (a size test thins it further, see tile-encoder.ts). */
  minZoom: number;
  properties: TileProperties;
  /** Draw the feature as its representative point (labels), or its polygon rings as lines (boundaries). */
  as: 'geometry' | 'point' | 'rings';
}

type Tags = Readonly<Record<string, string>>;

const ARABIC = /[\u0600-\u06FF]/;

/** `name`, `name:ar`, `name:en`, `name_en` as OpenMapTiles styles read them; empty when the feature has no name. */
export function nameFields(tags: Tags): TileProperties {
  const fields: TileProperties = {};
  const name = tags.name ?? tags['name:ar'] ?? tags['name:en'];
  if (!name) return fields;
  fields.name = name;
  const arabic = tags['name:ar'] ?? (ARABIC.test(name) ? name : undefined);
  if (arabic) fields['name:ar'] = arabic;
  if (tags['name:en']) fields['name:en'] = tags['name:en'];
  fields.name_en = tags['name:en'] ?? name;
  return fields;
}

function brunnel(tags: Tags): TileProperties {
  if (tags.bridge && tags.bridge !== 'no') return { brunnel: 'bridge' };
  if (tags.tunnel && tags.tunnel !== 'no') return { brunnel: 'tunnel' };
  return {};
}

const intermittent = (tags: Tags) => (tags.intermittent === 'yes' || tags.seasonal === 'yes' ? 1 : 0);

// ── roads ──

export interface RoadClassMapping {
  class: string;
  subclass?: string;
  minZoom: number;
  nameMinZoom: number;
}

const PATH_CLASSES = new Set<RoadClass>(['pedestrian', 'footway', 'path', 'cycleway', 'steps', 'bridleway']);
const MINOR_CLASSES = new Set<RoadClass>(['unclassified', 'residential', 'living_street', 'road']);
const MAJOR_ZOOMS: Partial<Record<RoadClass, [number, number]>> = {
  motorway: [4, 10],
  trunk: [5, 10],
  primary: [7, 12],
  secondary: [9, 12],
  tertiary: [11, 13],
  busway: [12, 13],
  service: [13, 14],
  track: [13, 14],
  ferry: [8, 12],
};

/** The OpenMapTiles transportation class of a routable road class, and the zooms of the road and its name. */
export function roadClassMapping(roadClass: RoadClass): RoadClassMapping {
  if (PATH_CLASSES.has(roadClass)) return { class: 'path', subclass: roadClass, minZoom: 13, nameMinZoom: 14 };
  if (MINOR_CLASSES.has(roadClass)) return { class: 'minor', minZoom: 12, nameMinZoom: 13 };
  const [minZoom, nameMinZoom] = MAJOR_ZOOMS[roadClass] ?? [13, 14];
  return { class: roadClass, minZoom, nameMinZoom };
}

// ── features of the pack's layers ──

const TRANSIT_RAILWAYS = new Set(['subway', 'light_rail', 'monorail', 'tram']);

export function mapRailway(tags: Tags): MappedFeature[] {
  const transit = TRANSIT_RAILWAYS.has(tags.railway ?? '');
  return [{ layer: 'transportation', minZoom: transit ? 11 : 9, as: 'geometry', properties: { class: transit ? 'transit' : 'rail', subclass: tags.railway ?? 'rail', ...brunnel(tags) } }];
}

function waterClass(tags: Tags): string {
  if (tags.waterway === 'riverbank' || ['river', 'canal', 'stream', 'oxbow'].includes(tags.water ?? '')) return 'river';
  if (tags.waterway === 'dock' || tags.waterway === 'boatyard') return 'dock';
  if (tags.natural === 'bay' || tags.natural === 'strait') return 'ocean';
  if (tags.water === 'pond') return 'pond';
  return 'lake';
}

export function mapWater(tags: Tags): MappedFeature[] {
  const mapped: MappedFeature[] = [{ layer: 'water', minZoom: 6, as: 'geometry', properties: { class: waterClass(tags), intermittent: intermittent(tags), ...brunnel(tags) } }];
  const names = nameFields(tags);
  if (names.name) {
    const labelClass = tags.natural === 'bay' || tags.natural === 'strait' ? tags.natural : waterClass(tags) === 'river' ? 'river' : 'lake';
    mapped.push({ layer: 'water_name', minZoom: 9, as: 'point', properties: { class: labelClass, intermittent: intermittent(tags), ...names } });
  }
  return mapped;
}

const WATERWAY_ZOOMS: Record<string, number> = { river: 8, canal: 10, tidal_channel: 11, stream: 12, drain: 13, ditch: 13 };

export function mapWaterway(tags: Tags): MappedFeature[] {
  const kind = tags.waterway ?? 'stream';
  return [{ layer: 'waterway', minZoom: WATERWAY_ZOOMS[kind] ?? 13, as: 'geometry', properties: { class: kind, intermittent: intermittent(tags), ...brunnel(tags), ...nameFields(tags) } }];
}

/** OpenMapTiles landcover classes by the OSM natural/landuse/leisure value. */
const LANDCOVER: Record<string, string> = {
  farmland: 'farmland',
  farm: 'farmland',
  orchard: 'farmland',
  vineyard: 'farmland',
  plant_nursery: 'farmland',
  allotments: 'farmland',
  wood: 'wood',
  forest: 'wood',
  grass: 'grass',
  grassland: 'grass',
  meadow: 'grass',
  heath: 'grass',
  scrub: 'grass',
  village_green: 'grass',
  recreation_ground: 'grass',
  park: 'grass',
  garden: 'grass',
  common: 'grass',
  dog_park: 'grass',
  golf_course: 'grass',
  flowerbed: 'grass',
  wetland: 'wetland',
  bog: 'wetland',
  swamp: 'wetland',
  marsh: 'wetland',
  beach: 'sand',
  sand: 'sand',
  desert: 'sand',
  shingle: 'sand',
  dune: 'sand',
  bare_rock: 'rock',
  scree: 'rock',
};

/** Landuse classes OpenMapTiles takes from amenity, leisure and tourism areas. */
const LANDUSE_FROM_OTHER_KEYS: readonly string[] = ['amenity', 'leisure', 'tourism'];

export function mapLanduse(tags: Tags): MappedFeature[] {
  const cover = tags.natural ?? tags.landuse;
  if (cover && LANDCOVER[cover]) return [{ layer: 'landcover', minZoom: 7, as: 'geometry', properties: { class: LANDCOVER[cover]!, subclass: cover } }];
  if (tags.landuse) return [{ layer: 'landuse', minZoom: tags.landuse === 'residential' ? 6 : 9, as: 'geometry', properties: { class: tags.landuse } }];
  for (const key of LANDUSE_FROM_OTHER_KEYS) {
    const value = tags[key];
    if (value) return [{ layer: 'landuse', minZoom: 11, as: 'geometry', properties: { class: value === 'grave_yard' ? 'cemetery' : value } }];
  }
  return [];
}

const PROTECTED = new Set(['nature_reserve', 'national_park', 'protected_area']);

export function mapPark(tags: Tags): MappedFeature[] {
  const mapped: MappedFeature[] = [];
  const leisure = tags.leisure ?? '';
  const protectedClass = tags.boundary === 'national_park' ? 'national_park' : PROTECTED.has(leisure) ? leisure : tags.boundary === 'protected_area' ? 'protected_area' : undefined;
  if (protectedClass) mapped.push({ layer: 'park', minZoom: 6, as: 'geometry', properties: { class: protectedClass } });
  else if (leisure === 'playground') mapped.push({ layer: 'landuse', minZoom: 13, as: 'geometry', properties: { class: 'playground' } });
  else if (LANDCOVER[leisure]) mapped.push({ layer: 'landcover', minZoom: 9, as: 'geometry', properties: { class: LANDCOVER[leisure]!, subclass: leisure } });
  const names = nameFields(tags);
  if (names.name) mapped.push({ layer: 'park', minZoom: protectedClass ? 8 : 13, as: 'point', properties: { class: protectedClass ?? (leisure || 'park'), rank: protectedClass ? 1 : 5, ...names } });
  return mapped;
}

/** Metres per storey, as OpenMapTiles counts `building:levels`. */
const LEVEL_HEIGHT_METERS = 3.66;
const DEFAULT_BUILDING_HEIGHT_METERS = 5;

function metres(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const number = Number.parseFloat(value.replace(',', '.'));
  return Number.isFinite(number) && number >= 0 && number < 1000 ? number : undefined;
}

export function mapBuilding(tags: Tags): MappedFeature[] {
  const levels = metres(tags['building:levels']);
  const minLevel = metres(tags['building:min_level']);
  const height = metres(tags.height) ?? (levels !== undefined ? levels * LEVEL_HEIGHT_METERS : DEFAULT_BUILDING_HEIGHT_METERS);
  const minHeight = metres(tags.min_height) ?? (minLevel !== undefined ? minLevel * LEVEL_HEIGHT_METERS : 0);
  const properties: TileProperties = { render_height: Math.round(Math.max(height, minHeight) * 10) / 10, render_min_height: Math.round(minHeight * 10) / 10 };
  if (tags['building:colour']) properties.colour = tags['building:colour'];
  return [{ layer: 'building', minZoom: 13, as: 'geometry', properties }];
}

export function mapAddress(tags: Tags): MappedFeature[] {
  const number = tags['addr:housenumber'];
  return number ? [{ layer: 'housenumber', minZoom: 14, as: 'point', properties: { housenumber: number } }] : [];
}

/** Place classes by importance: [rank, first zoom]. */
const PLACES: Record<string, [number, number]> = {
  country: [1, 2],
  state: [2, 4],
  province: [2, 4],
  region: [3, 5],
  city: [4, 5],
  town: [6, 8],
  island: [7, 10],
  municipality: [7, 9],
  village: [9, 10],
  suburb: [10, 11],
  borough: [10, 11],
  quarter: [12, 12],
  hamlet: [13, 12],
  neighbourhood: [14, 13],
  locality: [15, 13],
  square: [15, 14],
  isolated_dwelling: [16, 14],
};

export function mapPlace(tags: Tags): MappedFeature[] {
  const names = nameFields(tags);
  if (!names.name) return [];
  const kind = tags.place ?? 'locality';
  const [rank, minZoom] = PLACES[kind] ?? [15, 13];
  const properties: TileProperties = { class: kind, rank, ...names };
  if (tags.capital === 'yes' || tags.capital === '2') properties.capital = 2;
  else if (tags.capital === '4') properties.capital = 4;
  return [{ layer: 'place', minZoom: properties.capital === 2 ? Math.min(minZoom, 3) : minZoom, as: 'point', properties }];
}

const ADMIN_ZOOMS: [maxLevel: number, minZoom: number][] = [
  [2, 0],
  [4, 3],
  [6, 8],
  [8, 10],
];

export function mapAdminArea(tags: Tags): MappedFeature[] {
  const level = Number.parseInt(tags.admin_level ?? '', 10);
  if (!Number.isFinite(level)) return [];
  const minZoom = ADMIN_ZOOMS.find(([maxLevel]) => level <= maxLevel)?.[1] ?? 12;
  return [{ layer: 'boundary', minZoom, as: 'rings', properties: { admin_level: level, disputed: tags.disputed === 'yes' ? 1 : 0, maritime: tags.maritime === 'yes' ? 1 : 0 } }];
}

const AEROWAY_ZOOMS: Record<string, number> = { aerodrome: 10, heliport: 12, runway: 11, taxiway: 13, apron: 12, helipad: 13 };

export function mapAeroway(tags: Tags): MappedFeature[] {
  const kind = tags.aeroway ?? '';
  const properties: TileProperties = { class: kind };
  if (tags.ref) properties.ref = tags.ref;
  return [{ layer: 'aeroway', minZoom: AEROWAY_ZOOMS[kind] ?? 13, as: 'geometry', properties }];
}
