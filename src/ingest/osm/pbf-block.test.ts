import fc from 'fast-check';
import { PbfWriter } from 'pbf';
import { describe, expect, it } from 'vitest';
import { encodeBlock } from '../../../test/support/osm-pbf-writer.js';
import { BlockDecoder, KIND_NODES, KIND_RELATIONS, KIND_WAYS } from './pbf-block.js';

/**
 * Blocks are encoded with test/support's PBF encoder (the `pbf` package's
 * writer, field by field as the format describes them) and decoded by our
 * BlockDecoder: what it visits must be what was encoded. This decodes with the
 * ingest's chunk of dense nodes, or a tiny one so that blocks span many chunks.
 */
function decodeBlock(data: Uint8Array, denseChunkNodes?: number) {
  const visited: { nodes: unknown[]; ways: unknown[]; relations: unknown[] } = { nodes: [], ways: [], relations: [] };
  const decoder = new BlockDecoder(
    {
      node: (id, lat, lon, tags) => visited.nodes.push({ id, lat, lon, tags: tags && { ...tags } }),
      way: (id, refs, tags) => visited.ways.push({ id, refs: Array.from(refs), tags: { ...tags } }),
      relation: (id, members, tags) => visited.relations.push({ id, members: members.map((member) => ({ ...member })), tags: { ...tags } }),
    },
    { nodes: true, ways: true, relations: true },
    denseChunkNodes,
  );
  return { kinds: decoder.decode(data), entities: decoder.entities, visited };
}

/** Ids and coordinates up to 2^50 in magnitude: far beyond OSM's, exact as JS numbers, deltas included. */
const bigInteger = fc.maxSafeInteger().map((value) => value % 2 ** 50);
const word = fc.constantFrom('highway', 'name', 'name:ar', 'شارع الطيران', 'residential', '', 'yes', 'x'.repeat(300), 'building', 'outer', 'inner', 'via');
// (a key is never string 0, the empty string: dense nodes use index 0 to end a node's tags)
const tags = fc.dictionary(word.filter((key) => key !== ''), word, { maxKeys: 4 });
const blocks = fc.record({
  granularity: fc.integer({ min: 1, max: 1000 }),
  latOffset: fc.integer({ min: -1e9, max: 1e9 }),
  lonOffset: fc.integer({ min: -1e9, max: 1e9 }),
  nodes: fc.array(fc.record({ id: bigInteger, lat: fc.integer({ min: -9e8, max: 9e8 }), lon: fc.integer({ min: -1.8e9, max: 1.8e9 }), tags }), { maxLength: 1500 }),
  ways: fc.array(fc.record({ id: bigInteger, refs: fc.array(bigInteger, { maxLength: 700 }), tags }), { maxLength: 6 }),
  relations: fc.array(
    fc.record({ id: bigInteger, members: fc.array(fc.record({ type: fc.integer({ min: 0, max: 2 }), ref: bigInteger, role: word }), { maxLength: 100 }), tags }),
    { maxLength: 4 },
  ),
});

describe('BlockDecoder', () => {
  it('visits exactly the dense nodes, ways and relations encoded in a block (ids, coordinates, references, members, tags)', () => {
    fc.assert(
      fc.property(blocks, fc.constantFrom(undefined, 1, 7), (block, denseChunkNodes) => {
        const { kinds, entities, visited } = decodeBlock(encodeBlock(block), denseChunkNodes);
        const coordinate = (offset: number, value: number) => (offset + block.granularity * value) / 1e9;
        expect(visited.nodes).toEqual(
          block.nodes.map((node) => ({
            id: node.id,
            lat: coordinate(block.latOffset, node.lat),
            lon: coordinate(block.lonOffset, node.lon),
            tags: Object.keys(node.tags).length ? node.tags : null,
          })),
        );
        expect(visited.ways).toEqual(block.ways);
        expect(visited.relations).toEqual(block.relations);
        expect(entities).toBe(block.nodes.length + block.ways.length + block.relations.length);
        expect(kinds).toBe((block.nodes.length ? KIND_NODES : 0) | (block.ways.length ? KIND_WAYS : 0) | (block.relations.length ? KIND_RELATIONS : 0));
      }),
      { numRuns: 60 },
    );
  });

  it('reads the negative ids some editors write (int64 as a 10-byte varint)', () => {
    const { visited } = decodeBlock(encodeBlock({ granularity: 100, latOffset: 0, lonOffset: 0, nodes: [], ways: [{ id: -42, refs: [-1, -2], tags: {} }], relations: [] }));
    expect(visited.ways).toEqual([{ id: -42, refs: [-1, -2], tags: {} }]);
  });

  it('refuses a dense node block whose lat column is shorter than its ids, in any chunk', () => {
    const dense = new PbfWriter();
    dense.writePackedSVarint(1, [1, 1, 1, 1, 1]);
    dense.writePackedSVarint(8, [1, 1, 1, 1]);
    dense.writePackedSVarint(9, [1, 1, 1, 1, 1]);
    const group = new PbfWriter();
    group.writeBytesField(2, dense.finish());
    const block = new PbfWriter();
    block.writeBytesField(2, group.finish());
    const data = block.finish();
    for (const chunk of [undefined, 2, 4]) expect(() => decodeBlock(data, chunk)).toThrow(/coordinates do not match its ids/);
  });

  it('refuses a block whose string index is out of range', () => {
    const data = encodeBlock({ granularity: 100, latOffset: 0, lonOffset: 0, nodes: [], ways: [{ id: 1, refs: [1, 2], tags: { highway: 'residential' } }], relations: [] }, 2);
    expect(() => decodeBlock(data)).toThrow(/string table index 2 out of range/);
  });
});
