/**
 * Public transport lines from OSM route relations (`type=route`, `route=bus|tram|…`): the relation's tags, its
 * way members chained into the line's shape, and its stop and platform node members in order. They become
 * features of the `transit_route` layer plus the `transitRoutes.*`/`transitRouteStops.*` sections (format 5),
 * which /transit/routes and /transit/stops serve beside imported GTFS feeds (docs/transit.md).
 */
import { COORDINATE_SCALE, GeometryKind, FEATURE_LAYERS, SourceKind, TransitStopRole } from '../datapack/pack-layout.js';
import type { FeatureStage } from './feature-stage.js';
import { GrowableArray } from './growable-array.js';
import { MemberType, type OsmMember, type OsmTags } from './osm/osm-visitor.js';

/** The `route=*` values that are public transport lines (not roads, hiking or ferries). */
export const TRANSIT_ROUTE_VALUES = new Set(['bus', 'trolleybus', 'tram', 'subway', 'train', 'light_rail', 'share_taxi', 'minibus']);

const STOP_ROLES: Record<string, number> = {
  stop: TransitStopRole.stop,
  stop_entry_only: TransitStopRole.stop,
  stop_exit_only: TransitStopRole.stop,
  platform: TransitStopRole.platform,
  platform_entry_only: TransitStopRole.platform,
  platform_exit_only: TransitStopRole.platform,
  // PTv1: stops are node members with an empty (or direction) role
  '': TransitStopRole.unspecified,
  forward: TransitStopRole.unspecified,
  backward: TransitStopRole.unspecified,
};

export interface KeptTransitRoute {
  id: number;
  tags: OsmTags;
  /** Way members that draw the line, in member order. */
  ways: number[];
  /** Stop and platform node members, in member order. */
  stops: { ref: number; role: number }[];
}

export function isTransitRoute(tags: OsmTags): boolean {
  return tags.type === 'route' && TRANSIT_ROUTE_VALUES.has(tags.route ?? '');
}

/** The route's line ways and stop nodes; platform ways (areas beside the road) are not part of the line. */
export function parseTransitRoute(id: number, members: readonly OsmMember[], tags: OsmTags): KeptTransitRoute | undefined {
  const ways: number[] = [];
  const stops: { ref: number; role: number }[] = [];
  for (const member of members) {
    if (member.type === MemberType.Way && !member.role.startsWith('platform')) ways.push(member.ref);
    else if (member.type === MemberType.Node) {
      const role = STOP_ROLES[member.role];
      if (role !== undefined) stops.push({ ref: member.ref, role });
    }
  }
  return ways.length || stops.length ? { id, tags, ways, stops } : undefined;
}

/**
 * Chains member ways (their node ids) into as few lines as possible: a way that starts or ends where the line
 * so far ends is appended (reversed if need be); a line of one way may be turned round to meet the next.
 * A gap (a way not meeting the line, or a member missing from the file) starts a new line. Many routes list
 * their sections out of order (PTv1), so lines whose ends meet are then joined whatever their member order;
 * lines that meet nowhere stay apart (nothing is drawn between them).
 */
export function chainWays(ways: readonly (readonly number[])[]): number[][] {
  const lines: number[][] = [];
  let line: number[] | undefined;
  let waysInLine = 0;
  for (const way of ways) {
    if (way.length < 2) continue;
    const first = way[0]!;
    const last = way[way.length - 1]!;
    if (line) {
      const end = line[line.length - 1]!;
      if (waysInLine === 1 && end !== first && end !== last && (line[0] === first || line[0] === last)) line.reverse();
      const tail = line[line.length - 1]!;
      if (tail === first) {
        for (let index = 1; index < way.length; index++) line.push(way[index]!);
        waysInLine++;
        continue;
      }
      if (tail === last) {
        for (let index = way.length - 2; index >= 0; index--) line.push(way[index]!);
        waysInLine++;
        continue;
      }
    }
    line = [...way];
    waysInLine = 1;
    lines.push(line);
  }
  return joinMeetingLines(lines);
}

/** Joins lines end to end where an end of one is an end of another, keeping the earlier line's direction. */
function joinMeetingLines(lines: number[][]): number[][] {
  for (let a = 0; a < lines.length; a++) {
    for (let b = a + 1; b < lines.length; b++) {
      const line = lines[a]!;
      const other = lines[b]!;
      const head = line[0]!;
      const tail = line[line.length - 1]!;
      const otherHead = other[0]!;
      const otherTail = other[other.length - 1]!;
      let joined: number[] | undefined;
      if (tail === otherHead) joined = line.concat(other.slice(1));
      else if (tail === otherTail) joined = line.concat(other.slice(0, -1).reverse());
      else if (head === otherTail) joined = other.concat(line.slice(1));
      else if (head === otherHead) joined = other.slice().reverse().concat(line.slice(1));
      if (!joined) continue;
      lines[a] = joined;
      lines.splice(b, 1);
      b = a; // the longer line may now meet an earlier-rejected one
    }
  }
  return lines;
}

/** What the route relations add to the pack besides their features. */
export interface TransitRouteSections {
  stopStart: Uint32Array;
  stopCount: Uint32Array;
  stopOsmId: Float64Array;
  stopRole: Uint8Array;
  stopLat: Int32Array;
  stopLon: Int32Array;
}

export interface TransitRouteInputs {
  routes: readonly KeptTransitRoute[];
  memberWayRefs: ReadonlyMap<number, Float64Array>;
  /** [lon, lat] of a node member of a kept relation, when the file holds it. */
  memberNodes: ReadonlyMap<number, readonly [number, number]>;
  /** [lon, lat] of a way node (coordinate slot lookup). */
  nodePosition(id: number): readonly [number, number] | undefined;
}

/**
 * Stages one `transit_route` feature per route with anything in the file (and, with a bbox, anything inside
 * it): a line of the chained ways, or, for a route whose ways are all outside the file, a point at its first
 * stop (no geometry is invented between stops). Returns the stop sections, in the layer's feature order.
 */
export function stageTransitRoutes(inputs: TransitRouteInputs, stage: FeatureStage, bbox?: readonly [number, number, number, number]): TransitRouteSections {
  const layer = FEATURE_LAYERS.indexOf('transit_route');
  const stopStart = new GrowableArray(Uint32Array, 64);
  const stopCount = new GrowableArray(Uint32Array, 64);
  const stopOsmId = new GrowableArray(Float64Array, 256);
  const stopRole = new GrowableArray(Uint8Array, 256);
  const stopLat = new GrowableArray(Int32Array, 256);
  const stopLon = new GrowableArray(Int32Array, 256);
  const inside = (lon: number, lat: number) => !bbox || (lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3]);

  for (const route of inputs.routes) {
    stage.clearGeometry();
    const members = route.ways.flatMap((id) => {
      const refs = inputs.memberWayRefs.get(id);
      return refs ? [Array.from(refs)] : [];
    });
    let touches = false;
    for (const line of chainWays(members)) {
      // a node missing from the file splits the line rather than joining its neighbours straight
      let points = 0;
      const closePart = () => {
        if (points >= 2) stage.endPart(false);
        else stage.lon.length = stage.lat.length = stage.lon.length - points;
        points = 0;
      };
      for (const id of line) {
        const position = inputs.nodePosition(id);
        if (!position) {
          closePart();
          continue;
        }
        stage.lon.push(position[0]);
        stage.lat.push(position[1]);
        touches ||= inside(position[0], position[1]);
        points++;
      }
      closePart();
    }
    const stops = route.stops.flatMap(({ ref, role }) => {
      const position = inputs.memberNodes.get(ref);
      return position ? [{ ref, role, position }] : [];
    });
    for (const stop of stops) touches ||= inside(stop.position[0], stop.position[1]);
    if (!touches || (stage.partCount === 0 && stops.length === 0)) continue;

    const tags = stage.stageKeptTags(route.tags, 'type');
    if (stage.partCount > 0) stage.addShape(layer, GeometryKind.line, SourceKind.relation, route.id, tags);
    else stage.addPoint(layer, SourceKind.relation, route.id, stops[0]!.position[0], stops[0]!.position[1], tags);
    stopStart.push(stopOsmId.length);
    stopCount.push(stops.length);
    for (const stop of stops) {
      stopOsmId.push(stop.ref);
      stopRole.push(stop.role);
      stopLon.push(Math.round(stop.position[0] * COORDINATE_SCALE));
      stopLat.push(Math.round(stop.position[1] * COORDINATE_SCALE));
    }
  }
  return {
    stopStart: stopStart.toArray(),
    stopCount: stopCount.toArray(),
    stopOsmId: stopOsmId.toArray(),
    stopRole: stopRole.toArray(),
    stopLat: stopLat.toArray(),
    stopLon: stopLon.toArray(),
  };
}
