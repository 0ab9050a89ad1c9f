/**
 * Turns the kept road ways into the pack's routable graph: nodes at
 * intersections, way ends and flagged nodes (signals, barriers); one segment per
 * stretch between them with its shape; a directed edge per allowed direction;
 * edges ordered by source node (CSR); turn restrictions resolved to edge ids.
 */
import { EdgeFlag, NO_INDEX } from '../datapack/pack-layout.js';
import { haversineMeters } from '../solvers/graph/geodesy.js';
import { GrowableArray } from './growable-array.js';
import type { WayTable } from './kept-ways.js';
import type { CollectedOsm } from './osm-collector.js';
import { binarySearch } from './sorted-ids.js';

export type { WayTable };

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

export function buildGraph(collected: CollectedOsm): BuiltGraph {
  const { roads, wayRefIndex, nodeIds, coordinates, nodeFlags, nodeBlocked } = collected;
  const slots = nodeIds.length;
  const roadCount = roads.count;
  const refStarts = roads.refStart.array;
  const refCounts = roads.refCount.array;

  // which coordinate slots become graph nodes
  const uses = new Uint8Array(slots);
  const isGraphNode = new Uint8Array(slots);
  for (let road = 0; road < roadCount; road++) {
    const start = refStarts[road]!;
    const end = start + refCounts[road]!;
    for (let index = start; index < end; index++) {
      const slot = wayRefIndex[index]!;
      if (slot < 0) {
        // a node missing from the extract cuts the way: its neighbours become ends
        if (index > start && wayRefIndex[index - 1]! >= 0) isGraphNode[wayRefIndex[index - 1]!] = 1;
        if (index + 1 < end && wayRefIndex[index + 1]! >= 0) isGraphNode[wayRefIndex[index + 1]!] = 1;
        continue;
      }
      if (uses[slot]! < 255) uses[slot]!++;
      if (index === start || index === end - 1 || nodeFlags[slot] || nodeBlocked[slot]) isGraphNode[slot] = 1;
    }
  }
  for (let slot = 0; slot < slots; slot++) if (uses[slot]! > 1) isGraphNode[slot] = 1;

  const graphNodeOf = new Int32Array(slots).fill(-1);
  const nodeSlots = new GrowableArray(Uint32Array, 1024);
  const graphNode = (slot: number): number => {
    let node = graphNodeOf[slot]!;
    if (node < 0) {
      node = nodeSlots.push(slot);
      graphNodeOf[slot] = node;
    }
    return node;
  };

  const edges = new EdgeList();
  const shapeLat = new GrowableArray(Int32Array, 4096);
  const shapeLon = new GrowableArray(Int32Array, 4096);

  for (let wayIndex = 0; wayIndex < roadCount; wayIndex++) {
    const forwardModes = roads.forward.array[wayIndex]!;
    const backwardModes = roads.backward.array[wayIndex]!;
    const speed = roads.speed.array[wayIndex]!;
    const flags = roads.flags.array[wayIndex]!;
    const firstEdgeOfWay = edges.count;
    let wayLength = 0;
    const end = refStarts[wayIndex]! + refCounts[wayIndex]!;
    let segmentStart = -1;
    let segmentLength = 0;
    for (let index = refStarts[wayIndex]!; index < end; index++) {
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
      segmentLength += haversineMeters(coordinates.lat(previous), coordinates.lon(previous), coordinates.lat(slot), coordinates.lon(slot));
      if (!isGraphNode[slot]) continue;
      // a segment from segmentStart to index
      const fromSlot = wayRefIndex[segmentStart]!;
      if (!(fromSlot === slot && index - segmentStart === 1)) {
        const u = graphNode(fromSlot);
        const v = graphNode(slot);
        const start = shapeLat.length;
        const count = index - segmentStart + 1;
        const lat = shapeLat.reserve(count);
        const lon = shapeLon.reserve(count);
        for (let point = segmentStart, at = start; point <= index; point++, at++) {
          const pointSlot = wayRefIndex[point]!;
          lat[at] = coordinates.fixedLat(pointSlot);
          lon[at] = coordinates.fixedLon(pointSlot);
        }
        shapeLat.length = shapeLon.length = start + count;
        const shapeCount = Math.min(count, 0xffff);
        const forward = forwardModes ? edges.add(u, v, wayIndex, segmentLength, speed, forwardModes, flags, start, shapeCount) : -1;
        const backward = backwardModes ? edges.add(v, u, wayIndex, segmentLength, speed, backwardModes, flags | EdgeFlag.reversed, start, shapeCount) : -1;
        if (forward >= 0 && backward >= 0) {
          edges.twin.array[forward] = backward;
          edges.twin.array[backward] = forward;
        }
        wayLength += segmentLength;
      }
      segmentStart = index;
      segmentLength = 0;
    }
    // a ferry's duration tag gives its real crossing speed
    const duration = roads.ferrySeconds.array[wayIndex]!;
    if (duration > 0 && wayLength > 0) {
      const ferrySpeed = Math.max(1, Math.min(255, Math.round((wayLength / duration) * 3.6)));
      edges.speed.array.fill(ferrySpeed, firstEdgeOfWay, edges.count);
    }
  }

  // order edges by source node (counting sort) so each node's outgoing edges are contiguous
  const nodeCount = nodeSlots.length;
  const edgeCount = edges.count;
  const source = edges.source.array;
  const firstEdge = new Uint32Array(nodeCount + 1);
  for (let edge = 0; edge < edgeCount; edge++) firstEdge[source[edge]! + 1]!++;
  for (let node = 0; node < nodeCount; node++) firstEdge[node + 1]! += firstEdge[node]!;
  const position = new Uint32Array(edgeCount);
  const fill = firstEdge.slice(0, nodeCount);
  for (let edge = 0; edge < edgeCount; edge++) position[edge] = fill[source[edge]!]!++;
  const permute = <T extends Uint32Array | Float32Array | Uint8Array | Uint16Array>(values: GrowableArray<Uint32Array | Float64Array | Uint8Array>, Type: new (n: number) => T): T => {
    const out = new Type(edgeCount);
    const array = values.array;
    for (let edge = 0; edge < edgeCount; edge++) out[position[edge]!] = array[edge]!;
    return out;
  };
  const twin = edges.twin.array;
  for (let edge = 0; edge < edgeCount; edge++) if (twin[edge] !== NO_INDEX) twin[edge] = position[twin[edge]!]!;

  const graph: BuiltGraph = {
    nodeLat: new Int32Array(nodeCount),
    nodeLon: new Int32Array(nodeCount),
    nodeFlags: new Uint8Array(nodeCount),
    nodeBlockedModes: new Uint8Array(nodeCount),
    nodeOsmId: new Float64Array(nodeCount),
    firstEdge,
    edgeSource: permute(edges.source, Uint32Array),
    edgeTarget: permute(edges.target, Uint32Array),
    edgeTwin: permute(edges.twin, Uint32Array),
    edgeWay: permute(edges.way, Uint32Array),
    edgeLength: permute(edges.length, Float32Array),
    edgeSpeed: permute(edges.speed, Uint8Array),
    edgeAccess: permute(edges.access, Uint8Array),
    edgeFlags: permute(edges.flags, Uint16Array),
    edgeShapeStart: permute(edges.shapeStart, Uint32Array),
    edgeShapeCount: permute(edges.shapeCount, Uint16Array),
    shapeLat: shapeLat.toArray(),
    shapeLon: shapeLon.toArray(),
    ways: roads.table(),
    restrictions: emptyRestrictions(),
    truckTaggedWays: roads.truckTagged,
  };
  for (let node = 0; node < nodeCount; node++) {
    const slot = nodeSlots.array[node]!;
    graph.nodeLat[node] = coordinates.fixedLat(slot);
    graph.nodeLon[node] = coordinates.fixedLon(slot);
    graph.nodeFlags[node] = nodeFlags[slot]!;
    graph.nodeBlockedModes[node] = nodeBlocked[slot]!;
    graph.nodeOsmId[node] = nodeIds[slot]!;
  }
  graph.restrictions = resolveRestrictions(collected, graph, graphNodeOf);
  return graph;
}

/** Directed edges in creation order (before the CSR ordering). */
class EdgeList {
  readonly source = new GrowableArray(Uint32Array, 1024);
  readonly target = new GrowableArray(Uint32Array, 1024);
  readonly twin = new GrowableArray(Uint32Array, 1024);
  readonly way = new GrowableArray(Uint32Array, 1024);
  readonly length = new GrowableArray(Float64Array, 1024);
  readonly speed = new GrowableArray(Uint8Array, 1024);
  readonly access = new GrowableArray(Uint8Array, 1024);
  readonly flags = new GrowableArray(Uint32Array, 1024);
  readonly shapeStart = new GrowableArray(Uint32Array, 1024);
  readonly shapeCount = new GrowableArray(Uint32Array, 1024);

  get count(): number {
    return this.source.length;
  }

  add(from: number, to: number, way: number, length: number, speed: number, access: number, flags: number, shapeStart: number, shapeCount: number): number {
    const edge = this.source.push(from);
    this.target.push(to);
    this.twin.push(NO_INDEX);
    this.way.push(way);
    this.length.push(length);
    this.speed.push(speed);
    this.access.push(access);
    this.flags.push(flags);
    this.shapeStart.push(shapeStart);
    this.shapeCount.push(shapeCount);
    return edge;
  }
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
function resolveRestrictions(collected: CollectedOsm, graph: BuiltGraph, graphNodeOf: Int32Array): RestrictionTable {
  if (!collected.restrictions.length) return emptyRestrictions();
  const wayIndexOf = new Map<number, number>();
  const roadIds = collected.roads.osmId;
  for (let index = 0; index < roadIds.length; index++) wayIndexOf.set(roadIds.array[index]!, index);
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
