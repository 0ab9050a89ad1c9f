import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MapPack } from '../../src/datapack/map-pack.js';
import { TravelMode } from '../../src/datapack/pack-layout.js';
import { ingestToFile } from '../../src/ingest/ingest.js';
import { OSM_FILES } from './osm-data.js';

const built = new Map<string, Promise<MapPack>>();

/**
 * A map pack of a shipped extract, ingested once per test process. Loading reads the whole file into
 * memory, so the temporary file is removed as soon as it is loaded.
 */
export function routingPack(name: keyof typeof OSM_FILES): Promise<MapPack> {
  let pack = built.get(name);
  if (!pack) {
    pack = (async () => {
      const directory = mkdtempSync(join(tmpdir(), 'routing-pack-'));
      try {
        const path = join(directory, `${name}.svcpack`);
        await ingestToFile({ input: OSM_FILES[name] }, path);
        return MapPack.load(path);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    })();
    built.set(name, pack);
  }
  return pack;
}

/** Row of an OSM way in the pack's road table. */
export function wayRow(pack: MapPack, osmWayId: number): number {
  const row = pack.sections['ways.osmId'].indexOf(osmWayId);
  if (row < 0) throw new Error(`way ${osmWayId} is not in the pack`);
  return row;
}

/** The directed edges of an OSM way the mode may travel, in pack order. */
export function wayEdges(pack: MapPack, osmWayId: number, modeBit: number = TravelMode.car): number[] {
  const s = pack.sections;
  const row = wayRow(pack, osmWayId);
  const edges: number[] = [];
  for (let edge = 0; edge < pack.edgeCount; edge++) if (s['graph.edgeWay'][edge] === row && s['graph.edgeAccess'][edge]! & modeBit) edges.push(edge);
  return edges;
}
