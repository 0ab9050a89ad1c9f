import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { PbfReader } from './pbf-reader.js';

/** The shared OSM extracts (../shared/data/osm). */
const OSM = fileURLToPath(new URL('../../../../shared/data/osm/', import.meta.url));

/** The ids each single-kind pass visits, in order. */
async function idsByPass(reader: PbfReader): Promise<{ nodes: number[]; ways: number[]; relations: number[] }> {
  const nodes: number[] = [];
  const ways: number[] = [];
  const relations: number[] = [];
  await reader.scan({ relation: (id) => relations.push(id) }, { nodes: false, ways: false, relations: true });
  await reader.scan({ way: (id) => ways.push(id) }, { nodes: false, ways: true, relations: false });
  await reader.scan({ node: (id) => nodes.push(id) }, { nodes: true, ways: false, relations: false });
  return { nodes, ways, relations };
}

describe('PbfReader', () => {
  it.each([
    ['Monaco (header: Sort.Type_then_ID, blocks classified by binary search)', `${OSM}osrm_monaco.osm.pbf`, true],
    ['Andorra (no sort flag: the first pass decodes every block)', `${OSM}graphhopper_andorra.osm.pbf`, false],
  ])('has each single-kind pass of %s visit exactly what decoding every block finds', async (_name, path, sorted) => {
    const reference = { nodes: [] as number[], ways: [] as number[], relations: [] as number[] };
    const everything = new PbfReader(path);
    await everything.scan(
      { node: (id) => reference.nodes.push(id), way: (id) => reference.ways.push(id), relation: (id) => reference.relations.push(id) },
      { nodes: true, ways: true, relations: true },
    );
    everything.close();
    const reader = new PbfReader(path);
    expect(reader.header.optionalFeatures.includes('Sort.Type_then_ID')).toBe(sorted);
    expect(await idsByPass(reader)).toEqual(reference);
    reader.close();
    expect(reference.relations.length).toBeGreaterThan(0);
  });
});
