/**
 * Where the server's map data comes from: the pack named by DATA_PACK, or the
 * embedded default (Nasr City, Cairo, with Jordan's admin areas) built on first
 * start and reused while its sources and the pack format are unchanged.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MapPack } from '../../datapack/map-pack.js';
import { readPackHeader } from '../../datapack/pack-file.js';
import { PACK_FORMAT_VERSION } from '../../datapack/pack-layout.js';
import { fileSha256, ingestToFile } from '../../ingest/ingest.js';
import { lineProgress } from '../../ingest/progress.js';
import type { Logger } from '../../shared/logger.js';

const dataRoot = fileURLToPath(new URL('../../../data/', import.meta.url));

/** The embedded default: the real Nasr City extract and Jordan's governorates, districts and sub-districts. */
export const DEFAULT_DATASET = {
  osm: join(dataRoot, 'osm/egypt_cairo_nasr-city.osm.pbf'),
  admin: ['gov', 'dis', 'subdis'].map((name) => ({ path: join(dataRoot, `boundaries/jordan-admin/${name}.geojson`), level: undefined })),
  packName: 'egypt_cairo_nasr-city.svcpack',
  /** What the extract covers, in words (offline regions name it so). */
  label: { en: 'Nasr City and Heliopolis, Cairo', ar: 'مدينة نصر ومصر الجديدة، القاهرة', countryCode: 'eg' },
};

export interface LoadedMapData {
  pack: MapPack;
  path: string;
  /** Whether this start built the pack (first start, or its sources or format changed). */
  built: boolean;
  loadMs: number;
}

/** Where the default pack is cached: DATA_DIR/packs, or the temp dir when the database is in memory. */
export function defaultPackPath(dataDir: string): string {
  const directory = dataDir.startsWith('memory://') ? join(tmpdir(), 'svc-location-platform', 'packs') : join(dataDir, 'packs');
  return join(directory, DEFAULT_DATASET.packName);
}

export async function loadMapData(options: { dataPack: string | undefined; dataDir: string; logger: Logger }): Promise<LoadedMapData> {
  const { logger } = options;
  let path = options.dataPack;
  let built = false;
  if (!path) {
    path = defaultPackPath(options.dataDir);
    const reason = await staleReason(path);
    if (reason) {
      logger.info({ pack: path, reason }, 'building the default map data pack');
      await ingestToFile(
        { input: DEFAULT_DATASET.osm, admin: DEFAULT_DATASET.admin, progress: lineProgress((line) => logger.info(line), 1000) },
        path,
      );
      built = true;
    }
  }
  const started = performance.now();
  const pack = MapPack.load(path);
  const loadMs = performance.now() - started;
  logger.info({ pack: path, source: pack.header.source.name, nodes: pack.nodeCount, edges: pack.edgeCount, features: pack.featureCount, loadMs: Math.round(loadMs) }, 'map data loaded');
  return { pack, path, built, loadMs };
}

/** Why the cached default pack must be rebuilt, or undefined when it is current. */
async function staleReason(path: string): Promise<string | undefined> {
  let header;
  try {
    header = readPackHeader(path);
  } catch {
    return 'no usable pack yet';
  }
  if (header.version !== PACK_FORMAT_VERSION) return `pack format ${header.version} → ${PACK_FORMAT_VERSION}`;
  if (header.source.sha256 !== (await fileSha256(DEFAULT_DATASET.osm))) return 'the OSM source changed';
  const adminHashes = await Promise.all(DEFAULT_DATASET.admin.map((input) => fileSha256(input.path)));
  if (adminHashes.join() !== header.adminSources.map((source) => source.sha256).join()) return 'the admin area sources changed';
  return undefined;
}
