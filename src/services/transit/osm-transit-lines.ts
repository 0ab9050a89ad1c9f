/**
 * Public transport stops and lines of the map pack's OSM data (docs/transit.md, "Stops and lines from OSM"):
 * the `transit_stop` layer's stops and the `transit_route` layer's route relations with their ordered stop
 * members. They are served by /transit/stops and /transit/routes beside imported GTFS feeds, with ids that
 * cannot collide with a feed's (`<feed>:<id>` always holds a colon; these never do), and are never planned:
 * OSM gives no timetable.
 */
import Flatbush from 'flatbush';
import polyline from '@mapbox/polyline';
import type { MapPack } from '../../datapack/map-pack.js';
import { COORDINATE_SCALE, SourceKind, TransitStopRole } from '../../datapack/pack-layout.js';
import { routeTypeLabel } from '../../domain/transit.js';
import { haversineMeters } from '../../solvers/graph/geodesy.js';
import { near, type TransitRoute, type TransitStation } from './transit-network.js';

export const OSM_TRANSIT_ATTRIBUTION = '© OpenStreetMap contributors, ODbL';

/** `route=*` → GTFS route_type (extended codes where the basic ones have no match) and the label shown. */
export const OSM_ROUTE_TYPES: Readonly<Record<string, { routeType: number; label: string }>> = {
  bus: { routeType: 3, label: 'Bus' },
  trolleybus: { routeType: 11, label: 'Trolleybus' },
  tram: { routeType: 0, label: 'Tram' },
  light_rail: { routeType: 0, label: 'Light rail' },
  subway: { routeType: 1, label: 'Metro' },
  train: { routeType: 2, label: 'Rail' },
  minibus: { routeType: 3, label: 'Minibus' },
  // GTFS extended type 1501 "Communal Taxi Service": the shared minibus taxis of Cairo and Amman
  share_taxi: { routeType: 1501, label: 'Shared taxi' },
};

/** The stop kinds served (the layer also holds subway entrances and bus station areas, which are not stops). */
const SERVED_STOP = (tags: Record<string, string>) =>
  tags.highway === 'bus_stop' ||
  tags.public_transport === 'platform' ||
  tags.public_transport === 'stop_position' ||
  tags.public_transport === 'station' ||
  tags.railway === 'station' ||
  tags.railway === 'halt' ||
  tags.railway === 'tram_stop';

/** A stop position and its platform listed one after the other closer than this are one stop of the line. */
const STOP_PAIR_M = 100;

const KIND_NAMES = ['node', 'way', 'relation'] as const;

export class OsmTransitLines {
  readonly stations: TransitStation[] = [];
  readonly routes: TransitRoute[] = [];
  private readonly index: Flatbush | undefined;

  constructor(pack: MapPack) {
    const s = pack.sections;
    const [routeStart, routeEnd] = pack.layerRange('transit_route');
    // which routes call at each stop node (any role)
    const routesOfNode = new Map<number, string[]>();
    for (let feature = routeStart; feature < routeEnd; feature++) {
      const routeId = `relation/${s['features.osmId'][feature]}`;
      for (const { osmId } of routeStops(pack, feature - routeStart)) {
        const list = routesOfNode.get(osmId);
        if (!list) routesOfNode.set(osmId, [routeId]);
        else if (!list.includes(routeId)) list.push(routeId);
      }
    }
    const [stopStart, stopEnd] = pack.layerRange('transit_stop');
    const stationOfNode = new Map<number, TransitStation>();
    for (let feature = stopStart; feature < stopEnd; feature++) {
      const kind = KIND_NAMES[s['features.sourceKind'][feature]!];
      if (!kind) continue;
      const osmId = s['features.osmId'][feature]!;
      const routeIds = kind === 'node' ? (routesOfNode.get(osmId) ?? []) : [];
      const tags = pack.featureTags(feature);
      if (!SERVED_STOP(tags) && !routeIds.length) continue;
      const [lng, lat] = pack.featurePosition(feature);
      const station: TransitStation = {
        id: `osm-${kind}-${osmId}`,
        source: 'osm',
        attribution: OSM_TRANSIT_ATTRIBUTION,
        stopId: `${kind}/${osmId}`,
        name: tags.name ?? tags['name:en'] ?? tags['name:ar'] ?? tags.ref ?? '',
        nameAr: tags['name:ar'] ?? null,
        nameEn: tags['name:en'] ?? null,
        lat,
        lng,
        routeIds: routeIds.sort(),
      };
      this.stations.push(station);
      if (s['features.sourceKind'][feature] === SourceKind.node) stationOfNode.set(osmId, station);
    }
    for (let feature = routeStart; feature < routeEnd; feature++) {
      const route = this.routeOf(pack, feature, feature - routeStart, stationOfNode);
      if (route) this.routes.push(route);
    }
    if (this.stations.length) {
      this.index = new Flatbush(this.stations.length);
      for (const station of this.stations) this.index.add(station.lng, station.lat, station.lng, station.lat);
      this.index.finish();
    }
  }

  get isEmpty(): boolean {
    return this.stations.length === 0 && this.routes.length === 0;
  }

  stationsNear(lat: number, lng: number, radiusM: number, limit: number): Array<TransitStation & { distanceM: number }> {
    return near(this.index, this.stations, lat, lng, radiusM, limit).map(({ index, distanceM }) => ({ ...this.stations[index]!, distanceM }));
  }

  private routeOf(pack: MapPack, feature: number, position: number, stationOfNode: Map<number, TransitStation>): TransitRoute | undefined {
    const tags = pack.featureTags(feature);
    const mode = OSM_ROUTE_TYPES[tags.route ?? ''];
    if (!mode) return undefined;
    const geometry = pack.featureGeometry(feature);
    const parts = geometry.kind === 'line' ? geometry.parts.map((part) => part.coordinates.map(([lng, lat]) => [lat, lng] as [number, number])) : [];
    const points = parts.flat();
    const osmId = pack.sections['features.osmId'][feature]!;
    const type = routeTypeLabel(mode.routeType);
    return {
      id: `osm-route-${osmId}`,
      source: 'osm',
      attribution: OSM_TRANSIT_ATTRIBUTION,
      routeId: `relation/${osmId}`,
      shortName: tags.ref ?? null,
      longName: tags.name ?? tags['name:en'] ?? tags['name:ar'] ?? null,
      type,
      typeLabel: mode.label,
      routeType: mode.routeType,
      color: hexColour(tags.colour),
      shape: points.length >= 2 ? polyline.encode(points, 5) : null,
      points,
      ...(parts.length > 1 ? { parts } : {}),
      stopIds: lineStops(routeStops(pack, position), stationOfNode),
    };
  }
}

interface RouteStop {
  osmId: number;
  role: number;
  lat: number;
  lng: number;
}

function routeStops(pack: MapPack, position: number): RouteStop[] {
  const s = pack.sections;
  const start = s['transitRoutes.stopStart'][position]!;
  const count = s['transitRoutes.stopCount'][position]!;
  const stops: RouteStop[] = [];
  for (let row = start; row < start + count; row++) {
    stops.push({
      osmId: s['transitRouteStops.osmId'][row]!,
      role: s['transitRouteStops.role'][row]!,
      lat: s['transitRouteStops.lat'][row]! / COORDINATE_SCALE,
      lng: s['transitRouteStops.lon'][row]! / COORDINATE_SCALE,
    });
  }
  return stops;
}

/**
 * The line's stops in order, as served stop ids. PTv2 lists each stop twice, its stop position and its
 * platform, one after the other: such a pair (different roles, under STOP_PAIR_M apart) is one stop, named by
 * its platform, where passengers wait. Members the pack does not serve as stops (outside the extract) are left out.
 */
export function lineStops(stops: readonly RouteStop[], stationOfNode: ReadonlyMap<number, Pick<TransitStation, 'id'>>): string[] {
  const ids: string[] = [];
  let previous: RouteStop | undefined;
  let paired = false;
  for (const stop of stops) {
    const station = stationOfNode.get(stop.osmId);
    if (!station) continue;
    const pairs =
      previous !== undefined &&
      !paired &&
      previous.role !== TransitStopRole.unspecified &&
      stop.role !== TransitStopRole.unspecified &&
      previous.role !== stop.role &&
      haversineMeters(previous.lat, previous.lng, stop.lat, stop.lng) <= STOP_PAIR_M;
    if (pairs) {
      if (stop.role === TransitStopRole.platform) ids[ids.length - 1] = station.id;
      paired = true;
    } else {
      if (ids[ids.length - 1] !== station.id) ids.push(station.id);
      paired = false;
    }
    previous = stop;
  }
  return ids;
}

/** `colour=#f2b600` → `#F2B600` (the form GTFS colours are served in); named or malformed colours → null. */
export function hexColour(colour: string | undefined): string | null {
  const match = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(colour?.trim() ?? '');
  if (!match) return null;
  const hex = match[1]!.length === 3 ? [...match[1]!].map((digit) => digit + digit).join('') : match[1]!;
  return `#${hex.toUpperCase()}`;
}
