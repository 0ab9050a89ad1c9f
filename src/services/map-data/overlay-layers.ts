/**
 * The ten overlay layer types of part 2 §4.8 and what each is drawn from here. A layer whose data
 * this server does not hold says so in `source` and answers `hasData: false`; nothing is invented.
 */

export const OVERLAY_LAYER_TYPES = [
  'traffic',
  'transit',
  'biking',
  'terrain',
  'incidents',
  'speed_cameras',
  'traffic_cameras',
  'traffic_lights',
  'weather',
  'logistics_zones',
] as const;
export type OverlayLayerType = (typeof OVERLAY_LAYER_TYPES)[number];

/** Part 2 §4.8: the overlay types a map client must find in `/map/layers`. */
export const REQUIRED_OVERLAYS: readonly OverlayLayerType[] = ['traffic', 'transit', 'incidents', 'weather', 'logistics_zones'];

export interface OverlayLayerEntry {
  layerType: OverlayLayerType;
  name: string;
  /** Drawn as points, lines or polygons (a client picks symbol, line or fill layers by it). */
  geometry: 'point' | 'line' | 'polygon' | 'mixed';
  /** The layer's default colour (features may carry their own, e.g. a transit line's). */
  color: string;
  /** Least zoom worth drawing the layer at. */
  minZoom: number;
  /** Where the features come from, or why there are none. */
  source: string;
}

export const OVERLAY_LAYERS: Readonly<Record<OverlayLayerType, OverlayLayerEntry>> = {
  traffic: { layerType: 'traffic', name: 'Traffic', geometry: 'line', color: '#e53935', minZoom: 10, source: 'learned traffic profiles (GET /traffic/labels) on the road segments of the map pack' },
  transit: { layerType: 'transit', name: 'Transit', geometry: 'mixed', color: '#1e4f8a', minZoom: 10, source: 'imported GTFS feeds (route shapes and stations) and the OSM route relations and stops of the map pack' },
  biking: { layerType: 'biking', name: 'Cycleways', geometry: 'line', color: '#2e7d32', minZoom: 11, source: 'OSM highway=cycleway ways of the map pack' },
  terrain: { layerType: 'terrain', name: 'Terrain', geometry: 'polygon', color: '#8d6e63', minZoom: 8, source: 'no elevation data is loaded: no contours or relief' },
  incidents: { layerType: 'incidents', name: 'Incidents', geometry: 'point', color: '#f57c00', minZoom: 10, source: 'live community-reported incidents (POST /incidents), newest first' },
  speed_cameras: { layerType: 'speed_cameras', name: 'Speed cameras', geometry: 'point', color: '#6a1b9a', minZoom: 12, source: 'OSM highway=speed_camera and enforcement=maxspeed nodes of the map pack' },
  traffic_cameras: {
    layerType: 'traffic_cameras',
    name: 'Traffic cameras',
    geometry: 'point',
    color: '#37474f',
    minZoom: 13,
    source: 'OSM type=enforcement relations (at their device node), highway=speed_camera and enforcement=* nodes, and man_made=surveillance cameras on traffic, from the map pack',
  },
  traffic_lights: { layerType: 'traffic_lights', name: 'Traffic lights', geometry: 'point', color: '#f9a825', minZoom: 14, source: 'OSM highway=traffic_signals and crossing=traffic_signals nodes of the map pack' },
  weather: { layerType: 'weather', name: 'Weather', geometry: 'polygon', color: '#0288d1', minZoom: 4, source: 'no weather provider is configured (WEATHER_URL): weather is never invented' },
  logistics_zones: { layerType: 'logistics_zones', name: 'Logistics zones', geometry: 'polygon', color: '#d84315', minZoom: 8, source: 'zones operators manage (admin /admin/logistics-zones)' },
};

export function isOverlayLayerType(value: string): value is OverlayLayerType {
  return (OVERLAY_LAYER_TYPES as readonly string[]).includes(value);
}
