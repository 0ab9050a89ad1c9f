/**
 * `npm run ingest -- <file.osm.pbf|file.osm|file.osm.gz> [--bbox w,s,e,n] [--out DIR] [--admin FILE.geojson[@LEVEL]]...`
 * builds a map data pack; `npm run ingest -- --stats <pack|directory> [--json]` describes one
 * (a directory: the one pack in it).
 * Exit codes: 0 done, 1 the input or pack is unusable (message on stderr), 2 usage error.
 */
import { parseArgs } from 'node:util';
import { basename, join, resolve } from 'node:path';
import { MapPack } from '../datapack/map-pack.js';
import { parseAdminArgument } from '../ingest/admin-areas.js';
import { ingestToFile } from '../ingest/ingest.js';
import { IngestError } from '../ingest/ingest-error.js';
import { PackError } from '../datapack/pack-error.js';
import type { Bbox } from '../ingest/osm-collector.js';
import { lineProgress, silentProgress, terminalProgress } from '../ingest/progress.js';
import { describePack } from '../datapack/pack-stats.js';
import { gtfsFeedName, importGtfs } from './gtfs-import.js';
import { importEv } from './ev-import.js';
import { PACK_FILE_EXTENSION, readPackHeader, resolvePackPath } from '../datapack/pack-file.js';

const USAGE = `usage:
  npm run ingest -- <file.osm.pbf|file.osm|file.osm.gz> [--bbox west,south,east,north] [--out DIR] [--admin FILE.geojson[@LEVEL]]... [--quiet]
  npm run ingest -- --stats <pack|directory with one pack> [--json]
  npm run ingest -- --gtfs <feed.zip|feed folder> [--feed-name NAME] [--quiet]   (into DATABASE_URL, else the embedded database under DATA_DIR)
  npm run ingest -- --ev <Open Charge Map export .json|folder of them>   (replaces the OCM stations; same database)`;

export function packFileName(input: string): string {
  return `${basename(input).replace(/\.(osm\.pbf|pbf|osm\.xml\.gz|osm\.gz|osm\.xml|osm|xml\.gz|xml)$/i, '')}${PACK_FILE_EXTENSION}`;
}

function parseBbox(value: string): Bbox {
  const parts = value.split(',').map((part) => Number(part.trim()));
  if (parts.length !== 4 || parts.some((part) => !Number.isFinite(part))) {
    throw new IngestError('invalid_argument', `--bbox must be four numbers west,south,east,north; got "${value}"`);
  }
  return parts as Bbox;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        bbox: { type: 'string' },
        out: { type: 'string' },
        admin: { type: 'string', multiple: true },
        stats: { type: 'string' },
        gtfs: { type: 'string' },
        ev: { type: 'string' },
        'feed-name': { type: 'string' },
        json: { type: 'boolean' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    console.error(`ingest: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.stats) {
    const path = resolvePackPath(values.stats);
    const pack = MapPack.load(path);
    const description = describePack(pack.header, path);
    console.log(values.json ? JSON.stringify(description, null, 2) : description.text);
    return 0;
  }
  if (values.gtfs) {
    const progress = values.quiet ? silentProgress : lineProgress((line) => console.error(line.replaceAll('entities', 'rows')));
    console.log(await importGtfs(values.gtfs, values['feed-name'] ?? gtfsFeedName(values.gtfs), progress));
    return 0;
  }
  if (values.ev) {
    console.log(await importEv(values.ev));
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(`ingest: give exactly one OSM file\n${USAGE}`);
    return 2;
  }
  const input = positionals[0]!;
  const output = join(resolve(values.out ?? 'data/packs'), packFileName(input));
  const progress = values.quiet ? silentProgress : process.stderr.isTTY ? terminalProgress() : lineProgress((line) => console.error(line));
  const started = performance.now();
  const result = await ingestToFile(
    {
      input,
      ...(values.bbox ? { bbox: parseBbox(values.bbox) } : {}),
      admin: (values.admin ?? []).map(parseAdminArgument),
      progress,
    },
    output,
  );
  const seconds = (performance.now() - started) / 1000;
  const peakRssMiB = process.resourceUsage().maxRSS / 1024;
  // the header is the whole description: loading the pack beside the ingest's garbage would raise the process's peak RSS
  console.log(describePack(readPackHeader(output), output).text);
  console.log(
    `\nwrote ${output} (${(result.bytes / 1048576).toFixed(2)} MiB) in ${seconds.toFixed(2)} s: ${result.entities} entities, ${Math.round(result.entities / seconds)} entities/s, peak RSS ${peakRssMiB.toFixed(0)} MiB`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof IngestError || error instanceof PackError) {
      console.error(`ingest: ${error.message}`);
      process.exit(1);
    }
    console.error(error);
    process.exit(1);
  },
);
