/**
 * Test support: map packs built from the shared real OSM extracts (../shared/data/osm),
 * once per test process, into a temporary directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MapPack } from '../../../../datapack/map-pack.js';
import { TravelMode } from '../../../../datapack/pack-layout.js';
import { ingestToFile } from '../../../../ingest/ingest.js';

// src/solvers/routing/guidance/test-support → the repository's parent holds shared/ (dist/ has the same depth).
const SHARED_OSM = fileURLToPath(new URL('../../../../../../shared/data/osm/', import.meta.url));

export const TEST_EXTRACTS = {
  nasrCity: `${SHARED_OSM}egypt_cairo_nasr-city.osm.pbf`,
  monaco: `${SHARED_OSM}osrm_monaco.osm.pbf`,
  andorra: `${SHARED_OSM}graphhopper_andorra.osm.pbf`,
} as const;

const loaded = new Map<string, Promise<MapPack>>();
let workDir: string | undefined;

export function testPack(name: keyof typeof TEST_EXTRACTS): Promise<MapPack> {
  let pack = loaded.get(name);
  if (!pack) {
    workDir ??= mkdtempSync(join(tmpdir(), 'guidance-packs-'));
    const file = join(workDir, `${name}.svcpack`);
    pack = ingestToFile({ input: TEST_EXTRACTS[name] }, file).then(() => MapPack.load(file));
    loaded.set(name, pack);
  }
  return pack;
}

export function removeTestPacks(): void {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
  loaded.clear();
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
