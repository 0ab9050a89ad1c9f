/**
 * One ingest measurement in a fresh process (so peak RSS is this ingest's own):
 * a cold run as a user's first `npm run ingest`, then warm runs for the
 * steady-state rate, then pack load times. Prints one JSON line.
 *
 * Times are wall-clock seconds and CPU seconds (user + system of the whole
 * process: the JS thread plus V8's GC helper threads and zlib). On a shared
 * machine the wall time includes waiting for a core; CPU seconds do not, so
 * entities per CPU second is the "on one core" rate that sharing distorts least.
 */
import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MapPack } from '../src/datapack/map-pack.js';
import { ingestToFile } from '../src/ingest/ingest.js';

const input = process.argv[2]!;
const warmRuns = Number(process.argv[3] ?? 5);
const output = join(tmpdir(), `bench-${process.pid}.svcpack`);
// modules are loaded; nothing of the ingest has run yet
const baselineRssMiB = process.memoryUsage().rss / 1048576;

export interface IngestRun {
  seconds: number;
  cpuSeconds: number;
  entities: number;
}

async function once(): Promise<IngestRun> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await ingestToFile({ input }, output);
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, entities: result.entities };
}

/** What the runner prints (bench/ingest.ts reads it). */
export interface IngestProcessResult {
  inputBytes: number;
  entities: number;
  cold: IngestRun;
  warm: IngestRun[];
  peakRssMiB: number;
  baselineRssMiB: number;
  packBytes: number;
  loadMs: number;
}

const cold = await once();
const peakRssMiB = process.resourceUsage().maxRSS / 1024;
const warm: IngestRun[] = [];
for (let run = 0; run < warmRuns; run++) warm.push(await once());
const loads = [];
for (let run = 0; run < 5; run++) {
  const started = performance.now();
  MapPack.load(output);
  loads.push(performance.now() - started);
}
loads.sort((a, b) => a - b);
const packBytes = statSync(output).size;
rmSync(output, { force: true });
const result: IngestProcessResult = {
  inputBytes: statSync(input).size,
  entities: cold.entities,
  cold,
  warm,
  peakRssMiB,
  baselineRssMiB,
  packBytes,
  loadMs: loads[2]!,
};
console.log(JSON.stringify(result));
