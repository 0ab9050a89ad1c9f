/**
 * A country-sized PBF made of real data: `copies` copies of one shipped extract
 * side by side. Copy k has every node, way and relation id moved up by k times
 * (the span of its type's ids and references + 1), so ids stay unique and sorted per type as
 * in a planet-derived file (and still span beyond 2^32), and its longitudes
 * moved east by k × `LONGITUDE_STEP` degrees, so copies do not overlap. Every
 * tag, reference and member is the original's. What it cannot copy is a
 * country's variety: names and tag values repeat from copy to copy, so the
 * string tables stay the extract's (a real country's grow with it).
 *
 * It lets the ingest bench measure a file of the "31 MB country" size
 * instead of only extrapolating one (no country extract is in ../shared/data).
 */
import { closeSync, openSync } from 'node:fs';
import { openOsmSource } from '../src/ingest/osm/osm-source.js';
import { MemberType } from '../src/ingest/osm/osm-visitor.js';
import { PbfFileWriter, type PbfNode, type PbfRelation, type PbfWay } from '../test/support/osm-pbf-writer.js';

/** Wider than any shipped extract (Monaco spans 0.04° of longitude). */
const LONGITUDE_STEP = 0.25;
/** Entities per data block, as osmium writes them. */
const BLOCK_ENTITIES = 8000;
/** Degrees × 1e7: the encoder's unit at granularity 100 and no offsets. */
const UNITS = 1e7;

interface Original {
  nodes: PbfNode[];
  ways: PbfWay[];
  relations: PbfRelation[];
}

async function readOriginal(input: string): Promise<Original> {
  const original: Original = { nodes: [], ways: [], relations: [] };
  const source = openOsmSource(input);
  try {
    await source.scan(
      {
        node: (id, lat, lon, tags) => original.nodes.push({ id, lat: Math.round(lat * UNITS), lon: Math.round(lon * UNITS), tags: { ...tags } }),
        way: (id, refs, tags) => original.ways.push({ id, refs: Array.from(refs), tags: { ...tags } }),
        relation: (id, members, tags) => original.relations.push({ id, members: members.map((member) => ({ ...member })), tags: { ...tags } }),
      },
      { nodes: true, ways: true, relations: true },
    );
  } finally {
    source.close();
  }
  return original;
}

/** Writes the tiled file; returns its entity count. */
export async function writeTiledExtract(input: string, copies: number, output: string): Promise<number> {
  const original = await readOriginal(input);
  // per type, the span of its ids and of every reference to that type (a reference may point outside the file):
  // moving copy k by k × (span + 1) keeps each copy's ids and references clear of every other copy's
  const ranges = [MemberType.Node, MemberType.Way, MemberType.Relation].map(() => ({ min: Infinity, max: -Infinity }));
  const note = (type: MemberType, id: number) => {
    ranges[type]!.min = Math.min(ranges[type]!.min, id);
    ranges[type]!.max = Math.max(ranges[type]!.max, id);
  };
  for (const node of original.nodes) note(MemberType.Node, node.id);
  for (const way of original.ways) {
    note(MemberType.Way, way.id);
    for (const ref of way.refs) note(MemberType.Node, ref);
  }
  for (const relation of original.relations) {
    note(MemberType.Relation, relation.id);
    for (const member of relation.members) note(member.type, member.ref);
  }
  const strides = ranges.map((range) => (range.max >= range.min ? range.max - range.min + 1 : 0));
  const fd = openSync(output, 'w');
  try {
    const file = new PbfFileWriter(fd, { sorted: true });
    const empty = { granularity: 100, latOffset: 0, lonOffset: 0, nodes: [], ways: [], relations: [] };
    const writeAll = <T>(elements: T[], copy: (element: T, k: number) => T, into: 'nodes' | 'ways' | 'relations') => {
      for (let k = 0; k < copies; k++) {
        for (let start = 0; start < elements.length; start += BLOCK_ENTITIES) {
          const block = elements.slice(start, start + BLOCK_ENTITIES).map((element) => copy(element, k));
          file.writeBlock({ ...empty, [into]: block });
        }
      }
    };
    const wrap = (lon: number) => (lon > 180 * UNITS ? lon - 360 * UNITS : lon);
    writeAll(original.nodes, (node, k) => ({ ...node, id: node.id + k * strides[MemberType.Node]!, lon: wrap(node.lon + Math.round(k * LONGITUDE_STEP * UNITS)) }), 'nodes');
    writeAll(original.ways, (way, k) => ({ ...way, id: way.id + k * strides[MemberType.Way]!, refs: way.refs.map((ref) => ref + k * strides[MemberType.Node]!) }), 'ways');
    writeAll(
      original.relations,
      (relation, k) => ({
        ...relation,
        id: relation.id + k * strides[MemberType.Relation]!,
        members: relation.members.map((member) => ({ ...member, ref: member.ref + k * strides[member.type]! })),
      }),
      'relations',
    );
  } finally {
    closeSync(fd);
  }
  return copies * (original.nodes.length + original.ways.length + original.relations.length);
}
