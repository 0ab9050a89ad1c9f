/**
 * The vector tile schema: the OpenMapTiles layers this server cuts from the map pack, their fields and
 * zoom ranges. One list feeds the encoder's checks, the TileJSON `vector_layers` and docs/tiles.md.
 * There is no `poi` layer (spec part 2 §4.7 rule 5).
 */

/** Tile extent (MVT units per tile side) and the clipping buffer around it, in the same units. */
export const TILE_EXTENT = 4096;
export const TILE_BUFFER = 64;
export const MIN_TILE_ZOOM = 0;
export const MAX_TILE_ZOOM = 14;

/** Added to every tile fetched without an API key (spec part 2 §4.7 rule 3); see docs/tiles.md. */
export const WATERMARK_LAYER = 'svc_watermark';
export const WATERMARK_TEXT = 'Provide an API key · أضف مفتاح API';

export interface TileLayerSpec {
  id: string;
  description: string;
  minzoom: number;
  maxzoom: number;
  /** Field name → what it holds (TileJSON 3.0 `vector_layers[].fields`). */
  fields: Record<string, string>;
}

const NAMES = {
  name: 'String: the local name (OSM `name`)',
  'name:ar': 'String: Arabic name (`name:ar`, else an Arabic `name`)',
  'name:en': 'String: English name (`name:en`)',
  name_en: 'String: `name:en`, else `name` (OpenMapTiles compatibility)',
} as const;

export const TILE_LAYERS: readonly TileLayerSpec[] = [
  {
    id: 'water',
    description: 'Water areas',
    minzoom: 6,
    maxzoom: 14,
    fields: { class: 'String: lake, river, pond, dock, ocean', intermittent: 'Number: 1 for seasonal water, else 0', brunnel: 'String: bridge or tunnel' },
  },
  {
    id: 'waterway',
    description: 'Rivers, streams, canals, drains and ditches as lines',
    minzoom: 8,
    maxzoom: 14,
    fields: { class: 'String: river, stream, canal, drain, ditch, tidal_channel', brunnel: 'String: bridge or tunnel', intermittent: 'Number: 0 or 1', ...NAMES },
  },
  {
    id: 'landcover',
    description: 'Physical land cover',
    minzoom: 7,
    maxzoom: 14,
    fields: { class: 'String: farmland, wood, grass, wetland, sand, rock', subclass: 'String: the OSM natural, landuse or leisure value' },
  },
  {
    id: 'landuse',
    description: 'Use of land by people',
    minzoom: 6,
    maxzoom: 14,
    fields: { class: 'String: residential, commercial, industrial, retail, railway, cemetery, military, school, university, kindergarten, college, library, hospital, stadium, pitch, track, playground, theme_park, zoo, bus_station, or another landuse value' },
  },
  {
    id: 'park',
    description: 'Protected areas (polygons) and named parks (label points with rank)',
    minzoom: 6,
    maxzoom: 14,
    fields: { class: 'String: national_park, nature_reserve, protected_area; park or garden on label points', rank: 'Number: label priority within the tile, 1 first (points only)', ...NAMES },
  },
  {
    id: 'boundary',
    description: 'Administrative boundaries as lines',
    minzoom: 0,
    maxzoom: 14,
    fields: { admin_level: 'Number: OSM admin_level', disputed: 'Number: 0 or 1', maritime: 'Number: 0 or 1' },
  },
  {
    id: 'aeroway',
    description: 'Airport areas and runway/taxiway lines',
    minzoom: 10,
    maxzoom: 14,
    fields: { class: 'String: aerodrome, heliport, runway, helipad, taxiway, apron', ref: 'String: the runway or gate reference' },
  },
  {
    id: 'transportation',
    description: 'Roads, paths, railways and ferries',
    minzoom: 4,
    maxzoom: 14,
    fields: {
      class: 'String: motorway, trunk, primary, secondary, tertiary, minor, service, track, path, busway, ferry, rail, transit',
      subclass: 'String: the highway value of paths (footway, path, cycleway, steps, bridleway, pedestrian) or the railway value',
      oneway: 'Number: 1 along the line, -1 against it, 0 both ways',
      ramp: 'Number: 1 on link roads',
      brunnel: 'String: bridge or tunnel',
      surface: 'String: paved or unpaved',
      toll: 'Number: 1 on toll roads',
    },
  },
  {
    id: 'transportation_name',
    description: 'Road names and references, for labels along roads',
    minzoom: 10,
    maxzoom: 14,
    fields: { ...NAMES, ref: 'String: road reference', ref_length: 'Number: characters in ref', class: 'String: as in transportation', subclass: 'String: as in transportation', brunnel: 'String: bridge or tunnel' },
  },
  {
    id: 'building',
    description: 'Building footprints with heights for extrusion',
    minzoom: 13,
    maxzoom: 14,
    fields: {
      render_height: 'Number: metres; `height`, else `building:levels` × 3.66, else 5',
      render_min_height: 'Number: metres; `min_height`, else `building:min_level` × 3.66, else 0',
      colour: 'String: `building:colour` when tagged',
    },
  },
  {
    id: 'water_name',
    description: 'Label points of named water areas',
    minzoom: 9,
    maxzoom: 14,
    fields: { class: 'String: lake, river, ocean, bay, strait', intermittent: 'Number: 0 or 1', ...NAMES },
  },
  {
    id: 'place',
    description: 'Label points of settlements and neighbourhoods',
    minzoom: 4,
    maxzoom: 14,
    fields: {
      class: 'String: country, state, province, city, town, village, hamlet, suburb, quarter, neighbourhood, isolated_dwelling, island, locality, square',
      rank: 'Number: 1 (most important) to 16',
      capital: 'Number: 2 for national capitals, 4 for regional ones',
      ...NAMES,
    },
  },
  {
    id: 'housenumber',
    description: 'House numbers at address points',
    minzoom: 14,
    maxzoom: 14,
    fields: { housenumber: 'String: addr:housenumber' },
  },
];

export type TileLayerName =
  | 'water'
  | 'waterway'
  | 'landcover'
  | 'landuse'
  | 'park'
  | 'boundary'
  | 'aeroway'
  | 'transportation'
  | 'transportation_name'
  | 'building'
  | 'water_name'
  | 'place'
  | 'housenumber';

/** Layer order in an encoded tile: the drawing order of a typical style (areas, lines, labels). */
export const TILE_LAYER_ORDER: readonly TileLayerName[] = [
  'water',
  'waterway',
  'landcover',
  'landuse',
  'park',
  'boundary',
  'aeroway',
  'transportation',
  'building',
  'transportation_name',
  'water_name',
  'place',
  'housenumber',
];
