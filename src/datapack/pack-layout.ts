/**
 * The binary layout of a map data pack (see docs/data-pack.md).
 *
 * A pack is one file: an 8-byte magic, the format version (u32 LE), the byte
 * length of a JSON header (u32 LE), the header, then typed-array sections, each
 * starting on an 8-byte boundary. The header's `sections` directory gives each
 * section's element type, byte offset and element count, so loading is one
 * read into a SharedArrayBuffer and one typed-array view per section: no
 * per-record parsing, and workers receive the same memory.
 *
 * Bump PACK_FORMAT_VERSION whenever a section, enum or meaning changes; the
 * server rebuilds its default pack when the version differs.
 */
export const PACK_MAGIC = 'SVCMAP\u0000\u0001';
export const PACK_FORMAT_VERSION = 6;
export const PACK_ATTRIBUTION = '© OpenStreetMap contributors, ODbL 1.0';

/** Coordinates are fixed-point: degrees × 1e7 in an Int32 (about 1 cm). */
export const COORDINATE_SCALE = 1e7;

/**
 * A road's other names (`ways.altNames`, joined by ';'), searched by the geocoder: renamed streets keep their old
 * name in everyday use (Cairo's شارع الطيران is also tagged with its newer شارع الشهيد هشام بركات).
 */
export const ALTERNATIVE_NAME_KEYS = [
  'alt_name',
  'alt_name:ar',
  'alt_name:en',
  'old_name',
  'old_name:ar',
  'old_name:en',
  'int_name',
  'official_name',
  'official_name:ar',
  'official_name:en',
  'short_name',
  'loc_name',
] as const;
/** "None" in u32 index columns. */
export const NO_INDEX = 0xffffffff;

/** Travel modes as bits of the per-direction access masks. */
export const TravelMode = {
  car: 1,
  foot: 2,
  bicycle: 4,
  motorScooter: 8,
  truck: 16,
  wheelchair: 32,
  bus: 64,
  taxi: 128,
} as const;
export type TravelModeName = keyof typeof TravelMode;
export const ALL_MODES = 0xff;
export const MOTOR_MODES = TravelMode.car | TravelMode.motorScooter | TravelMode.truck | TravelMode.bus | TravelMode.taxi;

/** Road classes (`ways.class`), in descending importance; the index is the stored value. */
export const ROAD_CLASSES = [
  'motorway',
  'trunk',
  'primary',
  'secondary',
  'tertiary',
  'unclassified',
  'residential',
  'service',
  'living_street',
  'track',
  'road',
  'busway',
  'pedestrian',
  'footway',
  'path',
  'cycleway',
  'steps',
  'bridleway',
  'ferry',
] as const;
export type RoadClass = (typeof ROAD_CLASSES)[number];

/** Bits of `graph.edgeFlags`. */
export const EdgeFlag = {
  toll: 1,
  unpaved: 2,
  ferry: 4,
  bridge: 8,
  tunnel: 16,
  roundabout: 32,
  link: 64,
  /** Motor access only to reach a destination on it (access=destination/private/delivery). */
  destinationOnly: 128,
  /** motorway or trunk: what `avoid: highways` avoids. */
  highway: 256,
  /** The edge runs against its way's digitised direction (its shape is read backwards). */
  reversed: 512,
} as const;

/** Bits of `graph.nodeFlags`. */
export const NodeFlag = {
  trafficSignals: 1,
  stop: 2,
  giveWay: 4,
  crossing: 8,
  barrier: 16,
  speedCamera: 32,
} as const;

/** Feature layers; features are stored sorted by layer. */
export const FEATURE_LAYERS = [
  'place',
  'address',
  'building',
  'poi',
  'ev_charger',
  'transit_stop',
  'speed_camera',
  'traffic_signal',
  'water',
  'waterway',
  'landuse',
  'park',
  'railway',
  'admin_area',
  'aeroway',
  // format 4: OSM entrance=* nodes, the place catalogue's entrances
  'entrance',
  // format 5: OSM public transport route relations (type=route, route=bus|tram|subway|train|…)
  'transit_route',
  // format 6: enforcement cameras (type=enforcement relations at their device, speed cameras, traffic surveillance)
  'traffic_camera',
] as const;
export type FeatureLayer = (typeof FEATURE_LAYERS)[number];

/** `transitRouteStops.role`: the member's role in its route relation. */
export const TransitStopRole = {
  /** `stop`, `stop_entry_only`, `stop_exit_only`: where the vehicle halts (PTv2). */
  stop: 0,
  /** `platform*`: where passengers wait (PTv2). */
  platform: 1,
  /** An empty or direction role (PTv1 routes list their stops so). */
  unspecified: 2,
} as const;

export const GeometryKind = { point: 1, line: 2, polygon: 3 } as const;
export const SourceKind = { node: 0, way: 1, relation: 2, external: 3 } as const;

export type SectionType = 'u8' | 'u16' | 'u32' | 'i32' | 'f32' | 'f64';

/** Every section a pack holds, with its element type. The order is the file order. */
export const PACK_SECTIONS = {
  // routable graph: nodes (CSR over outgoing edges)
  'graph.nodeLat': 'i32',
  'graph.nodeLon': 'i32',
  'graph.nodeFlags': 'u8',
  /** Modes a barrier or node access tag stops at this node. */
  'graph.nodeBlockedModes': 'u8',
  'graph.nodeOsmId': 'f64',
  /** nodeCount + 1 entries: the outgoing edges of node n are firstEdge[n] .. firstEdge[n+1]-1. */
  'graph.firstEdge': 'u32',
  // directed edges
  'graph.edgeSource': 'u32',
  'graph.edgeTarget': 'u32',
  /** The edge in the opposite direction over the same segment, or NO_INDEX. */
  'graph.edgeTwin': 'u32',
  'graph.edgeWay': 'u32',
  'graph.edgeLength': 'f32',
  /** Car free-flow speed, km/h: the tagged maxspeed, else the class default. */
  'graph.edgeSpeed': 'u8',
  /** Modes allowed in this direction (TravelMode bits). */
  'graph.edgeAccess': 'u8',
  'graph.edgeFlags': 'u16',
  'graph.edgeShapeStart': 'u32',
  'graph.edgeShapeCount': 'u16',
  // segment shapes (in the way's direction; reversed edges read them backwards)
  'graph.shapeLat': 'i32',
  'graph.shapeLon': 'i32',
  // routable ways
  'ways.osmId': 'f64',
  'ways.class': 'u8',
  'ways.name': 'u32',
  'ways.nameAr': 'u32',
  'ways.nameEn': 'u32',
  'ways.ref': 'u32',
  /** Alternative names (ALTERNATIVE_NAME_KEYS), distinct values joined by ';'; 0 = none. */
  'ways.altNames': 'u32',
  'ways.destination': 'u32',
  'ways.surface': 'u32',
  /** Tagged speed limit in km/h; 0 = not tagged. */
  'ways.maxspeed': 'u8',
  'ways.lanesForward': 'u8',
  'ways.lanesBackward': 'u8',
  'ways.turnLanesForward': 'u32',
  'ways.turnLanesBackward': 'u32',
  /** Truck limits; 0 = none tagged. Tonnes and metres. */
  'ways.maxWeight': 'f32',
  'ways.maxHeight': 'f32',
  'ways.maxWidth': 'f32',
  'ways.maxLength': 'f32',
  // turn restrictions resolved to edges
  'restrictions.osmId': 'f64',
  /** 0 = no_* (forbid this turn), 1 = only_* (forbid every other turn). */
  'restrictions.kind': 'u8',
  /** Modes the restriction applies to (after `except`). */
  'restrictions.modes': 'u8',
  'restrictions.fromEdge': 'u32',
  'restrictions.toEdge': 'u32',
  /** The via node, or NO_INDEX for a via-way restriction. */
  'restrictions.viaNode': 'u32',
  'restrictions.viaStart': 'u32',
  'restrictions.viaCount': 'u32',
  /** Edges of via-way restrictions, in travel order. */
  'restrictions.viaEdges': 'u32',
  // features (geocoding sources, POIs, tile layers), sorted by layer
  'features.layer': 'u8',
  'features.geometry': 'u8',
  'features.sourceKind': 'u8',
  'features.osmId': 'f64',
  /** Representative point: the node, the middle of a line, the centroid of an area. */
  'features.lat': 'i32',
  'features.lon': 'i32',
  'features.minLat': 'i32',
  'features.minLon': 'i32',
  'features.maxLat': 'i32',
  'features.maxLon': 'i32',
  'features.partStart': 'u32',
  'features.partCount': 'u32',
  'features.tagStart': 'u32',
  'features.tagCount': 'u32',
  'parts.pointStart': 'u32',
  'parts.pointCount': 'u32',
  /** 0 = line or outer ring, 1 = inner ring. */
  'parts.inner': 'u8',
  'points.lat': 'i32',
  'points.lon': 'i32',
  /**
   * Format 5: the stop and platform node members of each `transit_route` feature, in member order.
   * Per route (index within the layer): its first row in `transitRouteStops.*` and its number of rows.
   */
  'transitRoutes.stopStart': 'u32',
  'transitRoutes.stopCount': 'u32',
  'transitRouteStops.osmId': 'f64',
  /** TransitStopRole. */
  'transitRouteStops.role': 'u8',
  'transitRouteStops.lat': 'i32',
  'transitRouteStops.lon': 'i32',
  'tags.key': 'u32',
  'tags.value': 'u32',
  // strings: UTF-8 bytes; string i is bytes[offsets[i] .. offsets[i+1]); string 0 is ''
  'strings.offsets': 'u32',
  'strings.bytes': 'u8',
} as const satisfies Record<string, SectionType>;
export type SectionName = keyof typeof PACK_SECTIONS;

export type SectionArray<T extends SectionType> = T extends 'u8'
  ? Uint8Array
  : T extends 'u16'
    ? Uint16Array
    : T extends 'u32'
      ? Uint32Array
      : T extends 'i32'
        ? Int32Array
        : T extends 'f32'
          ? Float32Array
          : Float64Array;

export type PackSections = { [K in SectionName]: SectionArray<(typeof PACK_SECTIONS)[K]> };

/**
 * Sections as the ingest hands them to the writer: a section may be a list of
 * chunks written one after the other (the feature sections come straight from
 * their per-layer staging columns instead of being concatenated first).
 */
export type PackSectionChunks = {
  [K in SectionName]: SectionArray<(typeof PACK_SECTIONS)[K]> | readonly SectionArray<(typeof PACK_SECTIONS)[K]>[];
};

export const SECTION_CONSTRUCTORS = {
  u8: Uint8Array,
  u16: Uint16Array,
  u32: Uint32Array,
  i32: Int32Array,
  f32: Float32Array,
  f64: Float64Array,
} as const;

export interface PackSourceInfo {
  name: string;
  format: string;
  bytes: number;
  sha256: string;
}

/** The JSON header: metadata, the enums the numbers mean, and the section directory. */
export interface PackHeader {
  format: 'svc-map-pack';
  version: number;
  createdAt: string;
  generator: string;
  attribution: string;
  source: PackSourceInfo;
  adminSources: PackSourceInfo[];
  bbox: [number, number, number, number] | null;
  selectionBbox: [number, number, number, number] | null;
  enums: {
    modes: Record<string, number>;
    roadClasses: readonly string[];
    edgeFlags: Record<string, number>;
    nodeFlags: Record<string, number>;
    layers: readonly string[];
    transitStopRoles?: Record<string, number>;
  };
  /** For each layer, [first feature index, count]. */
  layers: Record<string, [number, number]>;
  counts: Record<string, number>;
  stats: Record<string, number>;
  sections: { name: string; type: SectionType; offset: number; length: number }[];
}
