/**
 * Which pack layers an OSM element belongs to. One element can feed several
 * layers (a named mall is a building and a POI); each becomes its own feature.
 */
import { FEATURE_LAYERS, type FeatureLayer } from '../datapack/pack-layout.js';
import type { OsmTags } from './osm/osm-visitor.js';

const PLACE_VALUES = new Set([
  'country', 'state', 'region', 'province', 'district', 'county', 'municipality', 'city', 'borough', 'town', 'village',
  'hamlet', 'suburb', 'quarter', 'neighbourhood', 'city_block', 'locality', 'isolated_dwelling', 'island', 'islet', 'square',
]);
const POI_KEYS = ['amenity', 'shop', 'tourism', 'leisure', 'office', 'healthcare', 'craft'] as const;
const WATER_AREAS = new Set(['water', 'bay', 'strait']);
const WATERWAY_LINES = new Set(['river', 'stream', 'canal', 'drain', 'ditch', 'tidal_channel']);
const WATERWAY_AREAS = new Set(['riverbank', 'dock', 'boatyard']);
const PARK_LEISURE = new Set(['park', 'garden', 'nature_reserve', 'playground', 'common', 'dog_park', 'recreation_ground']);
const LANDCOVER_NATURAL = new Set(['wood', 'scrub', 'heath', 'grassland', 'sand', 'beach', 'bare_rock', 'scree', 'wetland', 'desert', 'shingle']);
const RAILWAYS = new Set(['rail', 'light_rail', 'subway', 'tram', 'narrow_gauge', 'monorail', 'funicular', 'preserved']);
const TRANSIT_RAILWAY = new Set(['station', 'halt', 'tram_stop', 'subway_entrance']);
const TRANSIT_PT = new Set(['platform', 'stop_position', 'station']);
/** Areas whose use OpenMapTiles' landuse layer draws although they are not tagged `landuse` (schools, stadiums, zoos). */
const LANDUSE_AMENITIES = new Set(['school', 'university', 'kindergarten', 'college', 'library', 'hospital', 'bus_station', 'grave_yard']);
const LANDUSE_LEISURE = new Set(['stadium', 'pitch', 'track']);
const LANDUSE_TOURISM = new Set(['theme_park', 'zoo']);
/** Airport areas and lines (the `aeroway` tile layer). */
const AEROWAY_AREAS = new Set(['aerodrome', 'heliport', 'runway', 'helipad', 'taxiway', 'apron']);
const AEROWAY_LINES = new Set(['runway', 'taxiway']);
/** Tags that describe the edit, not the feature. */
const NOISE = /^(created_by|source|source:.*|note|note:.*|fixme|FIXME|todo|tiger:.*|gnis:.*|osak:.*|KSJ2:.*|yh:.*|odbl|odbl:note)$/;

export type FeatureGeometryKind = 'point' | 'line' | 'polygon';

export interface LayerMatch {
  readonly layer: FeatureLayer;
  readonly geometry: FeatureGeometryKind;
}

/** One shared, frozen match object per (layer, geometry): classifying a way allocates no match objects. */
const MATCHES = Object.fromEntries(
  FEATURE_LAYERS.map((layer) => [layer, { point: Object.freeze({ layer, geometry: 'point' }), line: Object.freeze({ layer, geometry: 'line' }), polygon: Object.freeze({ layer, geometry: 'polygon' }) }]),
) as Record<FeatureLayer, Record<FeatureGeometryKind, LayerMatch>>;

export function hasName(tags: OsmTags): boolean {
  if (tags.name || tags.brand) return true;
  for (const key in tags) if (key.startsWith('name:')) return true;
  return false;
}

/** Layers of a node (always a point). */
export function nodeLayers(tags: OsmTags): FeatureLayer[] {
  const layers: FeatureLayer[] = [];
  if (tags.place && PLACE_VALUES.has(tags.place) && hasName(tags)) layers.push('place');
  if (tags['addr:housenumber']) layers.push('address');
  if (tags.amenity === 'charging_station') layers.push('ev_charger');
  else if (isPoi(tags)) layers.push('poi');
  if (isTransitStop(tags)) layers.push('transit_stop');
  if (tags.highway === 'speed_camera' || tags.enforcement === 'maxspeed') layers.push('speed_camera');
  if (tags.highway === 'traffic_signals' || tags.crossing === 'traffic_signals') layers.push('traffic_signal');
  // entrances of buildings (the place catalogue's `entrances`), named or not
  if (tags.entrance && tags.entrance !== 'no') layers.push('entrance');
  return layers;
}

/**
 * Layers of a way or multipolygon relation. `closed` says whether the way's
 * ends meet (relations are areas by definition). Points derived from areas
 * (POIs, addresses, places) use the area's centroid.
 */
export function areaOrLineLayers(tags: OsmTags, closed: boolean): LayerMatch[] {
  const matches: LayerMatch[] = [];
  const area = closed && tags.area !== 'no';
  const push = (layer: FeatureLayer, geometry: FeatureGeometryKind) => matches.push(MATCHES[layer][geometry]);

  if (tags.place && PLACE_VALUES.has(tags.place) && hasName(tags)) push('place', area ? 'polygon' : 'point');
  if (tags['addr:housenumber']) push('address', 'point');
  if (tags.building && tags.building !== 'no' && area) push('building', 'polygon');
  if (tags.amenity === 'charging_station') push('ev_charger', 'point');
  else if (isPoi(tags)) push('poi', 'point');
  if (isTransitStop(tags)) push('transit_stop', 'point');

  if (area && (WATER_AREAS.has(tags.natural ?? '') || WATERWAY_AREAS.has(tags.waterway ?? '') || tags.landuse === 'reservoir' || tags.landuse === 'basin')) {
    push('water', 'polygon');
  } else if (tags.waterway && WATERWAY_LINES.has(tags.waterway)) push('waterway', 'line');

  if (area && (PARK_LEISURE.has(tags.leisure ?? '') || tags.boundary === 'national_park')) push('park', 'polygon');
  else if (area && ((tags.landuse && tags.landuse !== 'reservoir' && tags.landuse !== 'basin') || LANDCOVER_NATURAL.has(tags.natural ?? ''))) {
    push('landuse', 'polygon');
  } else if (area && (LANDUSE_AMENITIES.has(tags.amenity ?? '') || LANDUSE_LEISURE.has(tags.leisure ?? '') || LANDUSE_TOURISM.has(tags.tourism ?? ''))) {
    push('landuse', 'polygon');
  }
  if (tags.aeroway) {
    if (area && AEROWAY_AREAS.has(tags.aeroway)) push('aeroway', 'polygon');
    else if (!area && AEROWAY_LINES.has(tags.aeroway)) push('aeroway', 'line');
  }
  if (tags.railway && RAILWAYS.has(tags.railway) && !closed) push('railway', 'line');
  if (tags.boundary === 'administrative' && tags.admin_level && area && hasName(tags)) push('admin_area', 'polygon');
  return matches;
}

function isPoi(tags: OsmTags): boolean {
  // the key lookups first: hasName walks every key, and most elements have no POI key
  return POI_KEYS.some((key) => tags[key] !== undefined && tags[key] !== 'no') && hasName(tags);
}

function isTransitStop(tags: OsmTags): boolean {
  return (
    tags.highway === 'bus_stop' ||
    tags.amenity === 'bus_station' ||
    TRANSIT_RAILWAY.has(tags.railway ?? '') ||
    (TRANSIT_PT.has(tags.public_transport ?? '') && tags.public_transport !== 'stop_position') ||
    (tags.public_transport === 'stop_position' && hasName(tags))
  );
}

/** Whether a relation is an area (multipolygon or boundary) whose tags feed a layer. */
export function isAreaRelation(tags: OsmTags): boolean {
  if (tags.type !== 'multipolygon' && tags.type !== 'boundary') return false;
  return areaOrLineLayers(tags, true).some((match) => match.geometry === 'polygon' || match.geometry === 'point');
}

/** Whether a tag key describes the edit rather than the feature (not kept in the pack). */
export function isEditKey(key: string): boolean {
  return NOISE.test(key);
}
