import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MapPack } from '../../src/datapack/map-pack.js';
import { ingestToFile } from '../../src/ingest/ingest.js';
import { OSM_FILES } from './osm-data.js';

const built = new Map<string, Promise<MapPack>>();
let directory: string | undefined;

/** This test process's pack directory, removed when the process exits (loaded packs live in memory). */
function packDirectory(): string {
  if (!directory) {
    const created = mkdtempSync(join(tmpdir(), 'routing-pack-'));
    process.once('exit', () => rmSync(created, { recursive: true, force: true }));
    directory = created;
  }
  return directory;
}

/** A map pack of a shipped extract, ingested once per test process. */
export function routingPack(name: keyof typeof OSM_FILES): Promise<MapPack> {
  let pack = built.get(name);
  if (!pack) {
    pack = (async () => {
      const path = join(packDirectory(), `${name}.svcpack`);
      await ingestToFile({ input: OSM_FILES[name] }, path);
      return MapPack.load(path);
    })();
    built.set(name, pack);
  }
  return pack;
}
