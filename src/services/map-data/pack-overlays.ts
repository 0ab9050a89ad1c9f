/**
 * Overlay features read from the loaded map pack: cycleways (routable ways of class `cycleway`),
 * speed cameras, enforcement cameras and traffic lights (the pack's `speed_camera`, `traffic_camera` and
 * `traffic_signal` point layers),
 * and the road segment geometry traffic labels are drawn on. Each list is built on first use and
 * kept: the pack does not change while the process runs.
 */
import type { Feature, LineString, Point } from 'geojson';
import type { MapPack } from '../../datapack/map-pack.js';
import { NO_INDEX, ROAD_CLASSES, TravelMode, type FeatureLayer } from '../../datapack/pack-layout.js';
import { OVERLAY_LAYERS, type OverlayLayerType } from './overlay-layers.js';
import { segmentEdgeIndex } from '../../solvers/routing/traffic/trip-traversals.js';

export type OverlayFeature = Feature<Feature['geometry'], Record<string, string | number | boolean | null>>;
export type Bbox = [west: number, south: number, east: number, north: number];

/** A feature with its bounds, for the bbox filter. */
export interface IndexedFeature {
  feature: OverlayFeature;
  bounds: Bbox;
}

const CYCLEWAY_CLASS = ROAD_CLASSES.indexOf('cycleway');
const SOURCE_KIND_NAMES = ['node', 'way', 'relation'] as const;

export function boundsOf(coordinates: readonly (readonly number[])[]): Bbox {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (const [lng, lat] of coordinates) {
    if (lng! < west) west = lng!;
    if (lng! > east) east = lng!;
    if (lat! < south) south = lat!;
    if (lat! > north) north = lat!;
  }
  return [west, south, east, north];
}

export function intersects(a: Bbox, b: Bbox): boolean {
  return a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];
}

export class PackOverlays {
  private readonly lists = new Map<OverlayLayerType, IndexedFeature[]>();
  private segmentEdges: Map<string, number> | undefined;

  constructor(private readonly pack: MapPack) {}

  /** The layer's features from the pack, or undefined when the pack is no source of it. */
  features(layerType: OverlayLayerType): IndexedFeature[] | undefined {
    const build = {
      biking: () => this.cycleways(),
      speed_cameras: () => this.points('speed_camera', 'speed_cameras'),
      traffic_cameras: () => this.points('traffic_camera', 'traffic_cameras'),
      traffic_lights: () => this.points('traffic_signal', 'traffic_lights'),
    }[layerType as 'biking' | 'speed_cameras' | 'traffic_cameras' | 'traffic_lights'];
    if (!build) return undefined;
    let list = this.lists.get(layerType);
    if (!list) this.lists.set(layerType, (list = build()));
    return list;
  }

  /** The shape of a traffic segment (`w<way>:<from node>-<to node>`, segmentKeyOf) as [lng, lat] pairs. */
  segmentShape(segmentKey: string): [number, number][] | undefined {
    this.segmentEdges ??= segmentEdgeIndex(this.pack);
    const edge = this.segmentEdges.get(segmentKey);
    return edge === undefined ? undefined : this.pack.edgeShape(edge);
  }

  private points(layer: FeatureLayer, layerType: OverlayLayerType): IndexedFeature[] {
    const [start, end] = this.pack.layerRange(layer);
    const osmIds = this.pack.sections['features.osmId'];
    const kinds = this.pack.sections['features.sourceKind'];
    const list: IndexedFeature[] = [];
    for (let feature = start; feature < end; feature++) {
      const tags = this.pack.featureTags(feature);
      const position = this.pack.featurePosition(feature);
      const geometry: Point = { type: 'Point', coordinates: position };
      const properties: Record<string, string | number | null> = {
        id: `osm-${SOURCE_KIND_NAMES[kinds[feature]!] ?? 'node'}-${osmIds[feature]}`,
        name: tags.name ?? null,
        layerType,
        color: OVERLAY_LAYERS[layerType].color,
      };
      if (layerType === 'speed_cameras' || layerType === 'traffic_cameras') properties.maxspeed = tags.maxspeed ?? null;
      // what the camera enforces: the relation's enforcement=*, else a speed camera's maxspeed, else a traffic watch
      if (layerType === 'traffic_cameras') properties.enforcement = tags.enforcement ?? (tags.highway === 'speed_camera' ? 'maxspeed' : 'surveillance');
      list.push({ feature: { type: 'Feature', geometry, properties }, bounds: [position[0], position[1], position[0], position[1]] });
    }
    return list;
  }

  /** One line per cycleway segment between junctions (an edge and its twin drawn once). */
  private cycleways(): IndexedFeature[] {
    const s = this.pack.sections;
    const list: IndexedFeature[] = [];
    for (let edge = 0; edge < this.pack.edgeCount; edge++) {
      const way = s['graph.edgeWay'][edge]!;
      if (s['ways.class'][way] !== CYCLEWAY_CLASS) continue;
      const twin = s['graph.edgeTwin'][edge]!;
      if (twin !== NO_INDEX && twin < edge) continue;
      const bothWays = twin !== NO_INDEX && (s['graph.edgeAccess'][twin]! & TravelMode.bicycle) !== 0 && (s['graph.edgeAccess'][edge]! & TravelMode.bicycle) !== 0;
      const coordinates = this.pack.edgeShape(edge);
      if (coordinates.length < 2) continue;
      const nameId = s['ways.name'][way]!;
      const surfaceId = s['ways.surface'][way]!;
      const geometry: LineString = { type: 'LineString', coordinates };
      list.push({
        feature: {
          type: 'Feature',
          geometry,
          properties: {
            id: `osm-way-${s['ways.osmId'][way]}-${edge}`,
            name: nameId ? this.pack.strings.get(nameId) : null,
            layerType: 'biking',
            color: OVERLAY_LAYERS.biking.color,
            // highway=cycleway is a way of its own, apart from traffic; lanes on roads are not in the pack
            network: 'protected',
            surface: surfaceId ? this.pack.strings.get(surfaceId) : null,
            // the pack keeps no lit tag
            lit: null,
            oneway: !bothWays,
          },
        },
        bounds: boundsOf(coordinates),
      });
    }
    return list;
  }
}
