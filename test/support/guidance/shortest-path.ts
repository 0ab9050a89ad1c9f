/**
 * Test support only: a plain edge-based Dijkstra over a map pack, so guidance
 * can be tested on real paths before the routing engine lands. It honours the
 * mode's access bit per direction and blocked nodes, avoids U-turns except at
 * dead ends, and ignores turn restrictions. Not for production use.
 */
import type { MapPack } from '../../../src/datapack/map-pack.js';
import { NO_INDEX, NodeFlag, TravelMode } from '../../../src/datapack/pack-layout.js';
import type { LegPath, SnappedLocation } from '../../../src/solvers/routing/leg-path.js';
import { distanceMeters, lineLength, pointAt, type LonLat } from '../../../src/solvers/routing/guidance/geometry.js';

const PEDESTRIAN_KMH = 5;
const SIGNAL_SECONDS = 10;
const UTURN_SECONDS = 30;

export function edgeSpeedKmh(pack: MapPack, edge: number, modeBit: number): number {
  return modeBit === TravelMode.car ? Math.max(5, pack.sections['graph.edgeSpeed'][edge]!) : PEDESTRIAN_KMH;
}

/** A location on `edge` at `fraction`, as if the input were `offsetMeters` to its right (negative: left). */
export function locationOnEdge(pack: MapPack, edge: number, fraction: number, offsetMeters = 0, name?: string): SnappedLocation {
  const shape = pack.edgeShape(edge);
  const length = lineLength(shape);
  const [lon, lat] = pointAt(shape, fraction * length);
  const ahead = pointAt(shape, Math.min(length, fraction * length + 1));
  const behind = pointAt(shape, Math.max(0, fraction * length - 1));
  // Unit vector to the right of travel, in metres per degree.
  const metersPerDegreeLat = 111_195;
  const metersPerDegreeLon = metersPerDegreeLat * Math.cos((lat * Math.PI) / 180);
  const dx = (ahead[0] - behind[0]) * metersPerDegreeLon;
  const dy = (ahead[1] - behind[1]) * metersPerDegreeLat;
  const norm = Math.hypot(dx, dy) || 1;
  const input: LonLat = [lon + ((dy / norm) * offsetMeters) / metersPerDegreeLon, lat - ((dx / norm) * offsetMeters) / metersPerDegreeLat];
  return {
    lat: input[1],
    lon: input[0],
    snappedLat: lat,
    snappedLon: lon,
    edge,
    fraction,
    snapDistanceMeters: distanceMeters(input, [lon, lat]),
    type: 'break',
    ...(name ? { name } : {}),
  };
}

class MinHeap {
  private readonly items: [number, number][] = [];
  get size(): number {
    return this.items.length;
  }
  push(cost: number, value: number): void {
    const items = this.items;
    items.push([cost, value]);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (items[parent]![0] <= items[index]![0]) break;
      [items[parent], items[index]] = [items[index]!, items[parent]!];
      index = parent;
    }
  }
  pop(): [number, number] {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      let index = 0;
      for (;;) {
        const left = index * 2 + 1;
        const right = left + 1;
        let smallest = index;
        if (left < items.length && items[left]![0] < items[smallest]![0]) smallest = left;
        if (right < items.length && items[right]![0] < items[smallest]![0]) smallest = right;
        if (smallest === index) break;
        [items[smallest], items[index]] = [items[index]!, items[smallest]!];
        index = smallest;
      }
    }
    return top;
  }
}

/** The fastest leg from `origin` to `destination` (each on a usable edge), or undefined when unreachable. */
export function shortestLeg(pack: MapPack, origin: SnappedLocation, destination: SnappedLocation, modeBit: number = TravelMode.car): LegPath | undefined {
  const s = pack.sections;
  const length = (edge: number): number => s['graph.edgeLength'][edge]!;
  const seconds = (edge: number, meters: number): number => meters / ((edgeSpeedKmh(pack, edge, modeBit) * 1000) / 3600);
  const turnSeconds = (from: number, to: number): number => {
    const node = s['graph.edgeTarget'][from]!;
    return (s['graph.nodeFlags'][node]! & NodeFlag.trafficSignals ? SIGNAL_SECONDS : 0) + (s['graph.edgeTwin'][from] === to ? UTURN_SECONDS : 0);
  };
  const build = (edges: number[]): LegPath => {
    const last = edges.length - 1;
    const edgeMeters = edges.map((edge, index) => {
      const from = index === 0 ? origin.fraction : 0;
      const to = index === last ? destination.fraction : 1;
      return Math.max(0, to - from) * length(edge);
    });
    return {
      edges,
      edgeMeters,
      edgeSeconds: edges.map((edge, index) => seconds(edge, edgeMeters[index]!)),
      turnSeconds: edges.map((edge, index) => (index === 0 ? 0 : turnSeconds(edges[index - 1]!, edge))),
      origin,
      destination,
    };
  };
  if (origin.edge === destination.edge && origin.fraction <= destination.fraction) return build([origin.edge]);

  const cost = new Map<number, number>();
  const previous = new Map<number, number>();
  const heap = new MinHeap();
  cost.set(origin.edge, seconds(origin.edge, (1 - origin.fraction) * length(origin.edge)));
  heap.push(cost.get(origin.edge)!, origin.edge);
  while (heap.size > 0) {
    const [reached, edge] = heap.pop();
    if (reached > cost.get(edge)!) continue;
    if (edge === destination.edge && previous.has(edge)) break;
    const node = s['graph.edgeTarget'][edge]!;
    if (s['graph.nodeBlockedModes'][node]! & modeBit) continue;
    const twin = s['graph.edgeTwin'][edge]!;
    const end = s['graph.firstEdge'][node + 1]!;
    const first = s['graph.firstEdge'][node]!;
    let exits = 0;
    for (let next = first; next < end; next++) if (next !== twin && s['graph.edgeAccess'][next]! & modeBit) exits++;
    for (let next = first; next < end; next++) {
      if (!(s['graph.edgeAccess'][next]! & modeBit)) continue;
      if (next === twin && twin !== NO_INDEX && exits > 0) continue;
      const travelled = next === destination.edge ? destination.fraction * length(next) : length(next);
      const total = reached + turnSeconds(edge, next) + seconds(next, travelled);
      const known = cost.get(next);
      // Origin and destination on one edge, destination behind: the edge is reached again around a loop.
      const comingBack = next === origin.edge && next === destination.edge && !previous.has(next);
      if (known === undefined || total < known || comingBack) {
        cost.set(next, total);
        previous.set(next, edge);
        heap.push(total, next);
      }
    }
  }
  if (!previous.has(destination.edge)) return undefined;
  const edges = [destination.edge];
  let at = destination.edge;
  const guard = new Set<number>([at]);
  while (at !== origin.edge || edges.length === 1) {
    const before = previous.get(at);
    if (before === undefined) return undefined;
    edges.push(before);
    at = before;
    if (at === origin.edge) break;
    if (guard.has(at)) return undefined;
    guard.add(at);
  }
  return build(edges.reverse());
}
