/**
 * Turns the kept road ways into the pack's routable graph: nodes at
 * intersections, way ends and flagged nodes (signals, barriers); one segment per
 * stretch between them with its shape; a directed edge per allowed direction;
 * edges ordered by source node (CSR); turn restrictions resolved to edge ids.
 */
import { COORDINATE_SCALE, EdgeFlag, NO_INDEX } from '../datapack/pack-layout.js';
import { haversineMeters } from '../solvers/graph/geodesy.js';
import { binarySearch } from './sorted-ids.js';
import type { CollectedOsm, KeptWay } from './osm-collector.js';
import { parseDurationSeconds } from './road-tags.js';
import type { StringTableBuilder } from './string-table-builder.js';

export interface BuiltGraph {
  nodeLat: Int32Array;
  nodeLon: Int32Array;
  nodeFlags: Uint8Array;
  nodeBlockedModes: Uint8Array;
  nodeOsmId: Float64Array;
  firstEdge: Uint32Array;
  edgeSource: Uint32Array;
  edgeTarget: Uint32Array;
  edgeTwin: Uint32Array;
  edgeWay: Uint32Array;
  edgeLength: Float32Array;
  edgeSpeed: Uint8Array;
  edgeAccess: Uint8Array;
  edgeFlags: Uint16Array;
  edgeShapeStart: Uint32Array;
  edgeShapeCount: Uint16Array;
  shapeLat: Int32Array;
  shapeLon: Int32Array;
  ways: WayTable;
  restrictions: RestrictionTable;
  /** Ways with a truck attribute (hgv access or a weight/height/width/length limit). */
  truckTaggedWays: number;
}

export interface WayTable {
  osmId: Float64Array;
  class: Uint8Array;
  name: Uint32Array;
  nameAr: Uint32Array;
  nameEn: Uint32Array;
  ref: Uint32Array;
  destination: Uint32Array;
  surface: Uint32Array;
  maxspeed: Uint8Array;
  lanesForward: Uint8Array;
  lanesBackward: Uint8Array;
  turnLanesForward: Uint32Array;
  turnLanesBackward: Uint32Array;
  maxWeight: Float32Array;
  maxHeight: Float32Array;
  maxWidth: Float32Array;
  maxLength: Float32Array;
}

export interface RestrictionTable {
  osmId: Float64Array;
  kind: Uint8Array;
  modes: Uint8Array;
  fromEdge: Uint32Array;
  toEdge: Uint32Array;
  viaNode: Uint32Array;
  viaStart: Uint32Array;
  viaCount: Uint32Array;
  viaEdges: Uint32Array;
  /** Restrictions whose ways or nodes are not in the graph (outside the extract, or not connected as tagged). */
  unresolved: number;
}

const fixed = (degrees: number) => Math.round(degrees * COORDINATE_SCALE);

export function buildGraph(collected: CollectedOsm, strings: StringTableBuilder): BuiltGraph {
  const { ways, wayRefIndex, nodeIds, nodeLat, nodeLon, nodeFlags, nodeBlocked } = collected;
  const roads = ways.filter((way) => way.road);
  const slots = nodeIds.length;

  // which coordinate slots become graph nodes
  const uses = new Uint8Array(slots);
  const isGraphNode = new Uint8Array(slots);
  for (const way of roads) {
    const end = way.refStart + way.refCount;
    for (let index = way.refStart; index < end; index++) {
      const slot = wayRefIndex[index]!;
      if (slot < 0) {
        // a node missing from the extract cuts the way: its neighbours become ends
        if (index > way.refStart && wayRefIndex[index - 1]! >= 0) isGraphNode[wayRefIndex[index - 1]!] = 1;
        if (index + 1 < end && wayRefIndex[index + 1]! >= 0) isGraphNode[wayRefIndex[index + 1]!] = 1;
        continue;
      }
      if (uses[slot]! < 255) uses[slot]!++;
      if (index === way.refStart || index === end - 1 || nodeFlags[slot] || nodeBlocked[slot]) isGraphNode[slot] = 1;
    }
  }
  for (let slot = 0; slot < slots; slot++) if (uses[slot]! > 1) isGraphNode[slot] = 1;

  const graphNodeOf = new Int32Array(slots).fill(-1);
  const nodeSlots: number[] = [];
  const graphNode = (slot: number): number => {
    let node = graphNodeOf[slot]!;
    if (node < 0) {
      node = nodeSlots.push(slot) - 1;
      graphNodeOf[slot] = node;
    }
    return node;
  };

  const source: number[] = [];
  const target: number[] = [];
  const twin: number[] = [];
  const edgeWay: number[] = [];
  const length: number[] = [];
  const speed: number[] = [];
  const access: number[] = [];
  const flags: number[] = [];
  const shapeStart: number[] = [];
  const shapeCount: number[] = [];
  const shapeLat: number[] = [];
  const shapeLon: number[] = [];
  const wayTable = createWayTable(roads.length);
  let truckTaggedWays = 0;

  roads.forEach((way, wayIndex) => {
    const road = way.road!;
    fillWayRow(wayTable, wayIndex, way, strings);
    if (road.truckTagged) truckTaggedWays++;
    const firstEdgeOfWay = source.length;
    let wayLength = 0;
    const end = way.refStart + way.refCount;
    let segmentStart = -1;
    let segmentLength = 0;
    for (let index = way.refStart; index < end; index++) {
      const slot = wayRefIndex[index]!;
      if (slot < 0) {
        segmentStart = -1;
        continue;
      }
      if (segmentStart < 0) {
        segmentStart = index;
        segmentLength = 0;
        continue;
      }
      const previous = wayRefIndex[index - 1]!;
      segmentLength += haversineMeters(nodeLat[previous]!, nodeLon[previous]!, nodeLat[slot]!, nodeLon[slot]!);
      if (!isGraphNode[slot]) continue;
      // a segment from segmentStart to index
      const fromSlot = wayRefIndex[segmentStart]!;
      if (!(fromSlot === slot && index - segmentStart === 1)) {
        const u = graphNode(fromSlot);
        const v = graphNode(slot);
        const start = shapeLat.length;
        for (let point = segmentStart; point <= index; point++) {
          const pointSlot = wayRefIndex[point]!;
          shapeLat.push(fixed(nodeLat[pointSlot]!));
          shapeLon.push(fixed(nodeLon[pointSlot]!));
        }
        const count = index - segmentStart + 1;
        const add = (from: number, to: number, modes: number, extraFlags: number) => {
          const edge = source.push(from) - 1;
          target.push(to);
          twin.push(NO_INDEX);
          edgeWay.push(wayIndex);
          length.push(segmentLength);
          speed.push(road.speed);
          access.push(modes);
          flags.push(road.flags | extraFlags);
          shapeStart.push(start);
          shapeCount.push(Math.min(count, 0xffff));
          return edge;
        };
        const forward = road.forward ? add(u, v, road.forward, 0) : -1;
        const backward = road.backward ? add(v, u, road.backward, EdgeFlag.reversed) : -1;
        if (forward >= 0 && backward >= 0) {
          twin[forward] = backward;
          twin[backward] = forward;
        }
        wayLength += segmentLength;
      }
      segmentStart = index;
      segmentLength = 0;
    }
    // a ferry's duration tag gives its real crossing speed
    const duration = road.class === 'ferry' ? parseDurationSeconds(way.tags.duration) : 0;
    if (duration > 0 && wayLength > 0) {
      const ferrySpeed = Math.max(1, Math.min(255, Math.round((wayLength / duration) * 3.6)));
      for (let edge = firstEdgeOfWay; edge < source.length; edge++) speed[edge] = ferrySpeed;
    }
  });

  // order edges by source node (counting sort) so each node's outgoing edges are contiguous
  const nodeCount = nodeSlots.length;
  const edgeCount = source.length;
  const firstEdge = new Uint32Array(nodeCount + 1);
  for (let edge = 0; edge < edgeCount; edge++) firstEdge[source[edge]! + 1]!++;
  for (let node = 0; node < nodeCount; node++) firstEdge[node + 1]! += firstEdge[node]!;
  const position = new Uint32Array(edgeCount);
  const fill = firstEdge.slice(0, nodeCount);
  for (let edge = 0; edge < edgeCount; edge++) position[edge] = fill[source[edge]!]!++;
  const permute = <T extends Uint32Array | Float32Array | Uint8Array | Uint16Array>(values: number[], Type: new (n: number) => T, map?: (value: number) => number): T => {
    const out = new Type(edgeCount);
    for (let edge = 0; edge < edgeCount; edge++) {
      const value = values[edge]!;
      out[position[edge]!] = map ? map(value) : value;
    }
    return out;
  };

  const graph: BuiltGraph = {
    nodeLat: new Int32Array(nodeCount),
    nodeLon: new Int32Array(nodeCount),
    nodeFlags: new Uint8Array(nodeCount),
    nodeBlockedModes: new Uint8Array(nodeCount),
    nodeOsmId: new Float64Array(nodeCount),
    firstEdge,
    edgeSource: permute(source, Uint32Array),
    edgeTarget: permute(target, Uint32Array),
    edgeTwin: permute(twin, Uint32Array, (value) => (value === NO_INDEX ? NO_INDEX : position[value]!)),
    edgeWay: permute(edgeWay, Uint32Array),
    edgeLength: permute(length, Float32Array),
    edgeSpeed: permute(speed, Uint8Array),
    edgeAccess: permute(access, Uint8Array),
    edgeFlags: permute(flags, Uint16Array),
    edgeShapeStart: permute(shapeStart, Uint32Array),
    edgeShapeCount: permute(shapeCount, Uint16Array),
    shapeLat: Int32Array.from(shapeLat),
    shapeLon: Int32Array.from(shapeLon),
    ways: wayTable,
    restrictions: emptyRestrictions(),
    truckTaggedWays,
  };
  for (let node = 0; node < nodeCount; node++) {
    const slot = nodeSlots[node]!;
    graph.nodeLat[node] = fixed(nodeLat[slot]!);
    graph.nodeLon[node] = fixed(nodeLon[slot]!);
    graph.nodeFlags[node] = nodeFlags[slot]!;
    graph.nodeBlockedModes[node] = nodeBlocked[slot]!;
    graph.nodeOsmId[node] = nodeIds[slot]!;
  }
  graph.restrictions = resolveRestrictions(collected, roads, graph, graphNodeOf);
  return graph;
}

function createWayTable(count: number): WayTable {
  return {
    osmId: new Float64Array(count),
    class: new Uint8Array(count),
    name: new Uint32Array(count),
    nameAr: new Uint32Array(count),
    nameEn: new Uint32Array(count),
    ref: new Uint32Array(count),
    destination: new Uint32Array(count),
    surface: new Uint32Array(count),
    maxspeed: new Uint8Array(count),
    lanesForward: new Uint8Array(count),
    lanesBackward: new Uint8Array(count),
    turnLanesForward: new Uint32Array(count),
    turnLanesBackward: new Uint32Array(count),
    maxWeight: new Float32Array(count),
    maxHeight: new Float32Array(count),
    maxWidth: new Float32Array(count),
    maxLength: new Float32Array(count),
  };
}

function fillWayRow(table: WayTable, row: number, way: KeptWay, strings: StringTableBuilder): void {
  const road = way.road!;
  const tags = way.tags;
  table.osmId[row] = way.id;
  table.class[row] = road.classIndex;
  table.name[row] = strings.id(tags.name);
  table.nameAr[row] = strings.id(tags['name:ar']);
  table.nameEn[row] = strings.id(tags['name:en']);
  table.ref[row] = strings.id(tags.ref);
  table.destination[row] = strings.id(tags.destination ?? tags['destination:ref']);
  table.surface[row] = strings.id(tags.surface);
  table.maxspeed[row] = road.maxspeed;
  table.lanesForward[row] = road.lanesForward;
  table.lanesBackward[row] = road.lanesBackward;
  table.turnLanesForward[row] = strings.id(road.turnLanesForward);
  table.turnLanesBackward[row] = strings.id(road.turnLanesBackward);
  table.maxWeight[row] = road.maxWeight;
  table.maxHeight[row] = road.maxHeight;
  table.maxWidth[row] = road.maxWidth;
  table.maxLength[row] = road.maxLength;
}

function emptyRestrictions(): RestrictionTable {
  return {
    osmId: new Float64Array(0),
    kind: new Uint8Array(0),
    modes: new Uint8Array(0),
    fromEdge: new Uint32Array(0),
    toEdge: new Uint32Array(0),
    viaNode: new Uint32Array(0),
    viaStart: new Uint32Array(0),
    viaCount: new Uint32Array(0),
    viaEdges: new Uint32Array(0),
    unresolved: 0,
  };
}

/**
 * Resolves each restriction to directed edges: the from-way edge arriving at
 * the via node and the to-way edge leaving it; for via ways, the chain of
 * via-way edges joining them (found by a short search along those ways only).
 */
function resolveRestrictions(collected: CollectedOsm, roads: KeptWay[], graph: BuiltGraph, graphNodeOf: Int32Array): RestrictionTable {
  if (!collected.restrictions.length) return emptyRestrictions();
  const wayIndexOf = new Map<number, number>();
  roads.forEach((way, index) => wayIndexOf.set(way.id, index));
  const wanted = new Set<number>();
  for (const restriction of collected.restrictions) {
    for (const id of [restriction.from, restriction.to, ...restriction.viaWays]) {
      const index = wayIndexOf.get(id);
      if (index !== undefined) wanted.add(index);
    }
  }
  const edgesOfWay = new Map<number, number[]>();
  for (let edge = 0; edge < graph.edgeWay.length; edge++) {
    const way = graph.edgeWay[edge]!;
    if (!wanted.has(way)) continue;
    let list = edgesOfWay.get(way);
    if (!list) edgesOfWay.set(way, (list = []));
    list.push(edge);
  }
  const edgesOf = (osmWay: number): number[] => {
    const index = wayIndexOf.get(osmWay);
    return index === undefined ? [] : (edgesOfWay.get(index) ?? []);
  };

  const osmId: number[] = [];
  const kind: number[] = [];
  const modes: number[] = [];
  const fromEdge: number[] = [];
  const toEdge: number[] = [];
  const viaNode: number[] = [];
  const viaStart: number[] = [];
  const viaCount: number[] = [];
  const viaEdges: number[] = [];
  let unresolved = 0;
  const add = (id: number, only: boolean, mask: number, from: number, to: number, node: number, via: number[]) => {
    osmId.push(id);
    kind.push(only ? 1 : 0);
    modes.push(mask);
    fromEdge.push(from);
    toEdge.push(to);
    viaNode.push(node);
    viaStart.push(viaEdges.length);
    viaCount.push(via.length);
    viaEdges.push(...via);
  };

  for (const restriction of collected.restrictions) {
    const fromEdges = edgesOf(restriction.from);
    const toEdges = edgesOf(restriction.to);
    let resolved = 0;
    if (restriction.viaNode !== undefined) {
      const slot = binarySearch(collected.nodeIds, restriction.viaNode);
      const node = slot >= 0 ? graphNodeOf[slot]! : -1;
      if (node >= 0) {
        for (const from of fromEdges) {
          if (graph.edgeTarget[from] !== node) continue;
          for (const to of toEdges) {
            if (graph.edgeSource[to] !== node || to === graph.edgeTwin[from]) continue;
            add(restriction.id, restriction.only, restriction.modes, from, to, node, []);
            resolved++;
          }
        }
      }
    } else {
      const viaSets = restriction.viaWays.map((id) => new Set(edgesOf(id)));
      for (const from of fromEdges) {
        const chain = findViaChain(graph, graph.edgeTarget[from]!, viaSets, new Set(toEdges));
        if (!chain) continue;
        add(restriction.id, restriction.only, restriction.modes, from, chain.to, NO_INDEX, chain.via);
        resolved++;
      }
    }
    if (!resolved) unresolved++;
  }
  return {
    osmId: Float64Array.from(osmId),
    kind: Uint8Array.from(kind),
    modes: Uint8Array.from(modes),
    fromEdge: Uint32Array.from(fromEdge),
    toEdge: Uint32Array.from(toEdge),
    viaNode: Uint32Array.from(viaNode),
    viaStart: Uint32Array.from(viaStart),
    viaCount: Uint32Array.from(viaCount),
    viaEdges: Uint32Array.from(viaEdges),
    unresolved,
  };
}

/** Depth-first walk along the via ways in order (at most 32 edges) until a to-way edge leaves the current node. */
function findViaChain(graph: BuiltGraph, start: number, viaSets: Set<number>[], toEdges: Set<number>): { via: number[]; to: number } | undefined {
  const path: number[] = [];
  const visit = (node: number, stage: number): number | undefined => {
    if (path.length > 32) return undefined;
    const first = graph.firstEdge[node]!;
    const last = graph.firstEdge[node + 1]!;
    if (stage === viaSets.length - 1 && path.length > 0) {
      for (let edge = first; edge < last; edge++) if (toEdges.has(edge)) return edge;
    }
    for (let edge = first; edge < last; edge++) {
      if (path.length && edge === graph.edgeTwin[path[path.length - 1]!]) continue;
      for (const nextStage of [stage, stage + 1]) {
        if (nextStage >= viaSets.length || !viaSets[nextStage]!.has(edge)) continue;
        path.push(edge);
        const found = visit(graph.edgeTarget[edge]!, nextStage);
        if (found !== undefined) return found;
        path.pop();
      }
    }
    return undefined;
  };
  const to = visit(start, -1);
  return to === undefined ? undefined : { via: [...path], to };
}
