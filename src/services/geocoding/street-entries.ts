/**
 * Street entries: the routable ways of the road graph that carry a name, joined into one
 * entry per street (see readStreets).
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { COORDINATE_SCALE, NO_INDEX, ROAD_CLASSES } from '../../datapack/pack-layout.js';
import { namesOf } from './entry-names.js';
import type { PushEntry } from './geo-entries.js';

/** Same-named ways less than this apart (bounding boxes, degrees, ~300 m) are one street even where they do not touch. */
const STREET_JOIN_GAP = 0.003;

/**
 * A street is often mapped in pieces that do not share a node (dual carriageways, a gap at a
 * square, an unnamed stretch); pieces with the same names whose bounding boxes come within
 * STREET_JOIN_GAP of each other are joined (single linkage over the pieces of each name).
 */
function joinNearbySameNamed(
  pack: MapPack,
  named: (way: number) => boolean,
  nameKey: (way: number) => string,
  find: (way: number) => number,
  parent: Int32Array,
): void {
  const s = pack.sections;
  const boxes = new Map<number, [number, number, number, number]>();
  for (let edge = 0; edge < s['graph.edgeTarget'].length; edge++) {
    const way = s['graph.edgeWay'][edge]!;
    if (way === NO_INDEX || !named(way)) continue;
    let box = boxes.get(way);
    if (!box) boxes.set(way, (box = [Infinity, Infinity, -Infinity, -Infinity]));
    for (const node of [s['graph.edgeSource'][edge]!, s['graph.edgeTarget'][edge]!]) {
      const [lon, lat] = pack.nodePosition(node);
      box[0] = Math.min(box[0], lon);
      box[1] = Math.min(box[1], lat);
      box[2] = Math.max(box[2], lon);
      box[3] = Math.max(box[3], lat);
    }
  }
  const byName = new Map<string, number[]>();
  for (const way of boxes.keys()) {
    const list = byName.get(nameKey(way));
    if (list) list.push(way);
    else byName.set(nameKey(way), [way]);
  }
  for (const ways of byName.values()) {
    if (ways.length < 2 || ways.length > 2000) continue;
    for (let i = 0; i < ways.length; i++) {
      const a = boxes.get(ways[i]!)!;
      for (let j = i + 1; j < ways.length; j++) {
        const b = boxes.get(ways[j]!)!;
        const gapLon = Math.max(0, a[0] - b[2], b[0] - a[2]);
        const gapLat = Math.max(0, a[1] - b[3], b[1] - a[3]);
        if (gapLon <= STREET_JOIN_GAP && gapLat <= STREET_JOIN_GAP) parent[find(ways[i]!)] = find(ways[j]!);
      }
    }
  }
}

/**
 * Streets: routable ways with a name, grouped by their (name, name:ar, name:en) and joined
 * where they share a graph node, so a long street split into many OSM ways is one result.
 */
export function readStreets(pack: MapPack, push: PushEntry): Int32Array {
  const s = pack.sections;
  const wayCount = s['ways.osmId'].length;
  const keys = Array.from({ length: wayCount }, (_, way) => `${s['ways.name'][way]}|${s['ways.nameAr'][way]}|${s['ways.nameEn'][way]}|${s['ways.ref'][way]}`);
  const nameKey = (way: number) => keys[way]!;
  const named = (way: number) => s['ways.name'][way] !== 0 || s['ways.nameAr'][way] !== 0 || s['ways.nameEn'][way] !== 0 || s['ways.ref'][way] !== 0;
  const streetOfWay = new Int32Array(wayCount).fill(-1);
  const parent = Int32Array.from({ length: wayCount }, (_, index) => index);
  const find = (way: number): number => {
    while (parent[way] !== way) {
      parent[way] = parent[parent[way]!]!;
      way = parent[way]!;
    }
    return way;
  };
  // ways meeting at a node: union those with the same names
  const waysAtNode = new Map<number, number[]>();
  const edgeCount = s['graph.edgeTarget'].length;
  for (let edge = 0; edge < edgeCount; edge++) {
    const way = s['graph.edgeWay'][edge]!;
    if (way === NO_INDEX || !named(way)) continue;
    for (const node of [s['graph.edgeSource'][edge]!, s['graph.edgeTarget'][edge]!]) {
      const list = waysAtNode.get(node);
      if (!list) waysAtNode.set(node, [way]);
      else if (!list.includes(way)) {
        for (const other of list) if (nameKey(other) === nameKey(way)) parent[find(other)] = find(way);
        list.push(way);
      }
    }
  }
  joinNearbySameNamed(pack, named, nameKey, find, parent);
  const groups = new Map<number, { ways: number[]; lengths: number[]; bbox: [number, number, number, number]; bestEdge: number; bestLength: number }>();
  for (let edge = 0; edge < edgeCount; edge++) {
    const way = s['graph.edgeWay'][edge]!;
    if (way === NO_INDEX || !named(way)) continue;
    const root = find(way);
    let group = groups.get(root);
    if (!group) {
      group = { ways: [], lengths: [], bbox: [Infinity, Infinity, -Infinity, -Infinity], bestEdge: edge, bestLength: -1 };
      groups.set(root, group);
    }
    if (!group.ways.includes(way)) group.ways.push(way);
    const length = s['graph.edgeLength'][edge]!;
    if (length > group.bestLength) {
      group.bestLength = length;
      group.bestEdge = edge;
    }
    const shapeStart = s['graph.edgeShapeStart'][edge]!;
    for (let index = shapeStart; index < shapeStart + s['graph.edgeShapeCount'][edge]!; index++) {
      const lon = s['graph.shapeLon'][index]! / COORDINATE_SCALE;
      const lat = s['graph.shapeLat'][index]! / COORDINATE_SCALE;
      group.bbox[0] = Math.min(group.bbox[0], lon);
      group.bbox[1] = Math.min(group.bbox[1], lat);
      group.bbox[2] = Math.max(group.bbox[2], lon);
      group.bbox[3] = Math.max(group.bbox[3], lat);
    }
  }
  for (const group of groups.values()) {
    const way = s['graph.edgeWay'][group.bestEdge]!;
    // the middle of the longest segment: inside the street, never at an intersection
    const shape = pack.edgeShape(group.bestEdge);
    const middle = Math.max(0, Math.floor((shape.length - 1) / 2));
    const [ax, ay] = shape[middle]!;
    const [bx, by] = shape[Math.min(middle + 1, shape.length - 1)]!;
    const lon = (ax + bx) / 2;
    const lat = (ay + by) / 2;
    const tags: Record<string, string> = {};
    const put = (key: string, id: number) => {
      if (id !== 0) tags[key] = pack.strings.get(id);
    };
    put('name', s['ways.name'][way]!);
    put('name:ar', s['ways.nameAr'][way]!);
    put('name:en', s['ways.nameEn'][way]!);
    put('ref', s['ways.ref'][way]!);
    // the street's other names, from every way of it (a rename is often tagged on some segments only)
    const alternatives = new Set<number>();
    for (const member of group.ways) if (s['ways.altNames'][member] !== 0) alternatives.add(s['ways.altNames'][member]!);
    if (alternatives.size) tags.alt_name = [...alternatives].map((id) => pack.strings.get(id)).join(';');
    const names = namesOf(tags);
    if (tags.ref && !names.all.includes(tags.ref)) names.all.push(tags.ref);
    if (!names.name && tags.ref) names.name = tags.ref;
    let roadClass: number = ROAD_CLASSES.length;
    for (const member of group.ways) roadClass = Math.min(roadClass, s['ways.class'][member]!);
    const className: string = (ROAD_CLASSES as readonly string[])[roadClass] ?? 'road';
    const id = push({
      osmType: 'way',
      osmId: s['ways.osmId'][way]!,
      lon,
      lat,
      bbox: group.bbox,
      kind: 'street',
      category: 'highway',
      type: className,
      names,
      importance: 0.45 - Math.min(roadClass, 10) * 0.02,
      wayIds: group.ways.map((member) => s['ways.osmId'][member]!),
      tags,
    });
    for (const member of group.ways) streetOfWay[member] = id;
  }
  return streetOfWay;
}
