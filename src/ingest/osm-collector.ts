/**
 * The three passes over the OSM file, keeping only what the pack needs:
 *
 * 1. relations: turn restrictions, area relations (multipolygons, boundaries) and
 *    public transport routes, noting the ways and nodes they reference;
 * 2. ways: routable roads, layer features and relation members, noting their nodes;
 * 3. nodes: coordinates of the noted nodes (a sorted id list and a merge cursor,
 *    no hash map), plus the tagged nodes that are features themselves.
 *
 * With a bbox, an extra first node pass records the node ids inside it, ways are
 * kept when they touch it (and keep their nodes outside it: complete ways) and
 * point features must lie inside it. Memory grows with what is kept, never with
 * the size of the file.
 */
import { binarySearch, indexIds, sortUnique } from './sorted-ids.js';
import { areaOrLineLayers, isAreaRelation, nodeLayers } from './feature-tags.js';
import { TagList, type FeatureStage } from './feature-stage.js';
import { GrowableArray } from './growable-array.js';
import { FeatureWays, KeptRoads } from './kept-ways.js';
import { NodeCoordinates } from './node-coordinates.js';
import { MemberType, newTags, type OsmMember, type OsmTags } from './osm/osm-visitor.js';
import type { OsmSource } from './osm/osm-source.js';
import type { IngestProgress } from './progress.js';
import { nodeBlockedModes, roadAttributes } from './road-tags.js';
import type { StringTableBuilder } from './string-table-builder.js';
import { isTransitRoute, parseTransitRoute, type KeptTransitRoute } from './transit-routes.js';
import { isCameraNode, parseEnforcement, type KeptEnforcement } from './enforcement-cameras.js';
import { FEATURE_LAYERS, NodeFlag, SourceKind, TravelMode, MOTOR_MODES } from '../datapack/pack-layout.js';

export type Bbox = [west: number, south: number, east: number, north: number];

export interface KeptAreaRelation {
  id: number;
  tags: OsmTags;
  outer: number[];
  inner: number[];
}

export interface KeptRestriction {
  id: number;
  only: boolean;
  modes: number;
  from: number;
  to: number;
  viaNode: number | undefined;
  viaWays: number[];
}

export interface CollectedOsm {
  /** Routable roads, in file order (each becomes a `ways.*` row). */
  roads: KeptRoads;
  /** Ways that feed feature layers, with their tags in `wayTags`. */
  featureWays: FeatureWays;
  wayTags: TagList;
  /** The node ids of each relation member way (ring assembly matches ways by their end node ids). */
  memberWayRefs: Map<number, Float64Array>;
  /** For the nodes of every kept way, in order: their coordinate slot (-1 = not in the file). */
  wayRefIndex: Int32Array;
  /** Sorted ids of the nodes whose coordinates were kept, with their coordinates and routing flags. */
  nodeIds: Float64Array;
  coordinates: NodeCoordinates;
  nodeFlags: Uint8Array;
  nodeBlocked: Uint8Array;
  /** The coordinate slot of a node id, or -1 (not kept, or not in the file). */
  slotOfId(id: number): number;
  relations: KeptAreaRelation[];
  /** Public transport route relations (transit-routes.ts). */
  transitRoutes: KeptTransitRoute[];
  /** Enforcement relations (enforcement-cameras.ts). */
  enforcements: KeptEnforcement[];
  /** [lon, lat] of the node members of kept relations (route stops, camera devices) that the file holds. */
  memberNodes: Map<number, readonly [number, number]>;
  restrictions: KeptRestriction[];
  entities: { nodes: number; ways: number; relations: number };
  skippedRestrictions: number;
}

export interface CollectOptions {
  bbox?: Bbox;
  progress: IngestProgress;
  /** The pack's string table: road names get their ids in road order. */
  strings: StringTableBuilder;
  /** Point features are staged here during the node pass. */
  features: FeatureStage;
}

const RESTRICTION_MODES: Record<string, number> = {
  restriction: MOTOR_MODES | TravelMode.bicycle,
  'restriction:motorcar': TravelMode.car | TravelMode.taxi,
  'restriction:hgv': TravelMode.truck,
  'restriction:bus': TravelMode.bus,
  'restriction:psv': TravelMode.bus | TravelMode.taxi,
  'restriction:bicycle': TravelMode.bicycle,
  'restriction:motorcycle': TravelMode.motorScooter,
};
const EXCEPT_MODES: Record<string, number> = {
  psv: TravelMode.bus | TravelMode.taxi,
  bus: TravelMode.bus,
  taxi: TravelMode.taxi,
  bicycle: TravelMode.bicycle,
  hgv: TravelMode.truck,
  motorcar: TravelMode.car,
  moped: TravelMode.motorScooter,
  motorcycle: TravelMode.motorScooter,
};

export async function collectOsm(source: OsmSource, options: CollectOptions): Promise<CollectedOsm> {
  const { bbox, progress, features } = options;
  const restrictions: KeptRestriction[] = [];
  const relations: KeptAreaRelation[] = [];
  const transitRoutes: KeptTransitRoute[] = [];
  // route stop nodes: their positions are kept, and each becomes a transit_stop feature even when its own tags
  // would not make it one (an unnamed stop position, an untagged PTv1 stop)
  const routeStopNodes = new Set<number>();
  const enforcements: KeptEnforcement[] = [];
  // the device (or from) nodes of enforcement relations: positioned from their node, described by the relation
  const deviceNodes = new Set<number>();
  const memberNodes = new Map<number, readonly [number, number]>();
  const entities = { nodes: 0, ways: 0, relations: 0 };
  let skippedRestrictions = 0;
  const memberWays: number[] = [];

  // pass 1: relations
  progress.phase('relations', source.size);
  await source.scan(
    {
      relation(id, members, tags) {
        entities.relations++;
        if (tags.type === 'restriction') {
          const restriction = parseRestriction(id, members, tags);
          if (restriction) {
            restrictions.push(restriction);
            memberWays.push(restriction.from);
            memberWays.push(restriction.to);
            restriction.viaWays.forEach((way) => memberWays.push(way));
          } else skippedRestrictions++;
        } else if (isAreaRelation(tags)) {
          const outer: number[] = [];
          const inner: number[] = [];
          for (const member of members) {
            if (member.type !== MemberType.Way) continue;
            (member.role === 'inner' ? inner : outer).push(member.ref);
            memberWays.push(member.ref);
          }
          if (outer.length) relations.push({ id, tags, outer, inner });
        } else if (isTransitRoute(tags)) {
          const route = parseTransitRoute(id, members, tags);
          if (!route) return;
          transitRoutes.push(route);
          for (const way of route.ways) memberWays.push(way);
          for (const stop of route.stops) routeStopNodes.add(stop.ref);
        } else if (tags.type === 'enforcement') {
          const enforcement = parseEnforcement(id, members, tags);
          if (!enforcement) return;
          enforcements.push(enforcement);
          for (const node of enforcement.positionNodes) deviceNodes.add(node);
        }
      },
    },
    { nodes: false, ways: false, relations: true },
    (bytes, _total, count) => progress.update(bytes, count),
  );
  const relationWays = sortUnique(Float64Array.from(memberWays));

  // optional pass: node ids inside the bbox
  let insideIds: Float64Array | undefined;
  if (bbox) {
    const inside: number[] = [];
    const [west, south, east, north] = bbox;
    progress.phase('bbox', source.size);
    await source.scan(
      {
        node(id, lat, lon) {
          if (lat >= south && lat <= north && lon >= west && lon <= east) inside.push(id);
        },
      },
      { nodes: true, ways: false, relations: false },
      (bytes, _total, count) => progress.update(bytes, count),
    );
    insideIds = sortUnique(Float64Array.from(inside));
  }

  // pass 2: ways
  const roads = new KeptRoads(options.strings);
  const featureWays = new FeatureWays(new TagList(), features.strings);
  const memberWayRefs = new Map<number, Float64Array>();
  // closures of this function share one context, which would keep the list alive to the end: cleared below
  let refs = new GrowableArray(Float64Array, 1 << 16);
  progress.phase('ways', source.size);
  await source.scan(
    {
      way(id, wayRefs, tags) {
        entities.ways++;
        const count = wayRefs.length;
        if (count < 2) return;
        const road = roadAttributes(tags);
        const closed = count >= 4 && wayRefs[0] === wayRefs[count - 1];
        const layers = areaOrLineLayers(tags, closed);
        const member = binarySearch(relationWays, id) >= 0;
        if (!road && !layers.length && !member) return;
        const touches = !insideIds || wayRefs.some((ref) => binarySearch(insideIds, ref) >= 0);
        if (!touches && !member) return;
        const refStart = refs.length;
        const array = refs.reserve(count);
        array.set(wayRefs, refStart);
        refs.length += count;
        // outside the bbox a relation member is kept only to close its relation's rings
        if (member) memberWayRefs.set(id, refs.array.slice(refStart, refStart + count));
        if (!touches) return;
        if (road) roads.add(id, refStart, count, tags, road);
        if (layers.length) featureWays.add(id, refStart, count, layers, tags);
      },
    },
    { nodes: false, ways: true, relations: false },
    (bytes, _total, count) => progress.update(bytes, count),
  );
  // the node ids of the kept ways are needed only to find their coordinate slots (the sort uses the list as scratch)
  const { ids: nodeIds, slotOf: wayRefIndex } = indexIds(refs.array.subarray(0, refs.length));
  refs = new GrowableArray(Float64Array, 0);

  // pass 3: nodes
  const coordinates = new NodeCoordinates(nodeIds.length);
  const nodeFlags = new Uint8Array(nodeIds.length);
  const nodeBlocked = new Uint8Array(nodeIds.length);
  let cursor = 0;
  let previousId = -Infinity;
  const slotOf = (id: number): number => {
    // PBF and most XML files list nodes by ascending id: a merge cursor is O(1) per node
    if (id >= previousId) {
      previousId = id;
      while (cursor < nodeIds.length && nodeIds[cursor]! < id) cursor++;
      return cursor < nodeIds.length && nodeIds[cursor] === id ? cursor : -1;
    }
    return binarySearch(nodeIds, id);
  };
  progress.phase('nodes', source.size);
  await source.scan(
    {
      node(id, lat, lon, tags) {
        entities.nodes++;
        const slot = slotOf(id);
        if (slot >= 0) {
          coordinates.set(slot, lat, lon);
          if (tags) {
            nodeFlags[slot] = nodeFlagsOf(tags);
            nodeBlocked[slot] = nodeBlockedModes(tags);
          }
        }
        const routeStop = routeStopNodes.size > 0 && routeStopNodes.has(id);
        const device = deviceNodes.size > 0 && deviceNodes.has(id);
        if (routeStop || device) memberNodes.set(id, [lon, lat]);
        if (!tags && !routeStop) return;
        if (bbox && !(lat >= bbox[1] && lat <= bbox[3] && lon >= bbox[0] && lon <= bbox[2])) return;
        const layers = tags ? nodeLayers(tags) : [];
        if (routeStop && !layers.includes('transit_stop')) layers.push('transit_stop');
        if (tags && !device && isCameraNode(tags)) layers.push('traffic_camera');
        if (!layers.length) return;
        const staged = features.stageKeptTags(tags ?? newTags());
        for (const layer of layers) features.addPoint(FEATURE_LAYERS.indexOf(layer), SourceKind.node, id, lon, lat, staged);
      },
    },
    { nodes: true, ways: false, relations: false },
    (bytes, _total, count) => progress.update(bytes, count),
  );
  progress.done();

  for (let index = 0; index < wayRefIndex.length; index++) {
    if (!coordinates.has(wayRefIndex[index]!)) wayRefIndex[index] = -1;
  }
  const slotOfId = (id: number): number => {
    const slot = binarySearch(nodeIds, id);
    return slot >= 0 && coordinates.has(slot) ? slot : -1;
  };

  return {
    roads,
    featureWays,
    wayTags: featureWays.tags,
    memberWayRefs,
    wayRefIndex,
    nodeIds,
    coordinates,
    nodeFlags,
    nodeBlocked,
    slotOfId,
    relations,
    transitRoutes,
    enforcements,
    memberNodes,
    restrictions,
    entities,
    skippedRestrictions,
  };
}

function nodeFlagsOf(tags: OsmTags): number {
  let flags = 0;
  if (tags.highway === 'traffic_signals' || tags.crossing === 'traffic_signals') flags |= NodeFlag.trafficSignals;
  if (tags.highway === 'stop') flags |= NodeFlag.stop;
  if (tags.highway === 'give_way') flags |= NodeFlag.giveWay;
  if (tags.highway === 'crossing' || (tags.crossing !== undefined && tags.crossing !== 'no')) flags |= NodeFlag.crossing;
  if (tags.barrier && tags.barrier !== 'no') flags |= NodeFlag.barrier;
  if (tags.highway === 'speed_camera') flags |= NodeFlag.speedCamera;
  return flags;
}

/** A restriction with one from way, one to way and a via node or via ways; others are skipped (counted). */
function parseRestriction(id: number, members: readonly OsmMember[], tags: OsmTags): KeptRestriction | undefined {
  let value: string | undefined;
  let modes = 0;
  for (const [key, keyModes] of Object.entries(RESTRICTION_MODES)) {
    if (tags[key]) {
      value = tags[key];
      modes = keyModes;
      break;
    }
  }
  if (!value || !/^(no|only)_/.test(value)) return undefined;
  for (const exempt of (tags.except ?? '').split(';')) modes &= ~(EXCEPT_MODES[exempt.trim()] ?? 0);
  if (!modes) return undefined;
  const from = members.filter((member) => member.role === 'from' && member.type === MemberType.Way);
  const to = members.filter((member) => member.role === 'to' && member.type === MemberType.Way);
  const via = members.filter((member) => member.role === 'via');
  if (from.length !== 1 || to.length !== 1 || via.length === 0) return undefined;
  const viaNodes = via.filter((member) => member.type === MemberType.Node);
  const viaWays = via.filter((member) => member.type === MemberType.Way);
  if (viaNodes.length + viaWays.length !== via.length) return undefined;
  if (viaNodes.length > 1 || (viaNodes.length === 1 && viaWays.length > 0)) return undefined;
  return {
    id,
    only: value.startsWith('only_'),
    modes,
    from: from[0]!.ref,
    to: to[0]!.ref,
    viaNode: viaNodes[0]?.ref,
    viaWays: viaWays.map((member) => member.ref),
  };
}
