import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MapPack } from '../../src/datapack/map-pack.js';
import { ingestToFile } from '../../src/ingest/ingest.js';
import { OSM_FILES } from './osm-data.js';
/** Builds packs of the shipped extracts into a temporary directory for one test file. */
export async function buildTestPacks(names) {
    const directory = mkdtempSync(join(tmpdir(), 'routing-test-'));
    const packs = {};
    const paths = {};
    for (const name of names) {
        paths[name] = join(directory, `${name}.svcpack`);
        await ingestToFile({ input: OSM_FILES[name] }, paths[name]);
        packs[name] = MapPack.load(paths[name]);
    }
    return { packs, paths, cleanup: () => rmSync(directory, { recursive: true, force: true }) };
}
//# sourceMappingURL=packs.js.map