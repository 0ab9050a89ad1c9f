/**
 * One ingest measurement in a fresh process (so peak RSS is this ingest's own):
 * a cold run as a user's first `npm run ingest`, then warm runs for the
 * steady-state rate, then pack load times. Prints one JSON line.
 */
import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MapPack } from '../src/datapack/map-pack.js';
import { ingestToFile } from '../src/ingest/ingest.js';

const input = process.argv[2]!;
const output = join(tmpdir(), `bench-${process.pid}.svcpack`);
const baselineRssMiB = process.memoryUsage().rss / 1048576;

async function once(): Promise<{ seconds: number; entities: number }> {
  const started = performance.now();
  const result = await ingestToFile({ input }, output);
  return { seconds: (performance.now() - started) / 1000, entities: result.entities };
}

const cold = await once();
const peakRssMiB = process.resourceUsage().maxRSS / 1024;
const warm = [];
for (let run = 0; run < 3; run++) warm.push(await once());
const best = warm.reduce((a, b) => (a.seconds < b.seconds ? a : b));
const loads = [];
for (let run = 0; run < 5; run++) {
  const started = performance.now();
  MapPack.load(output);
  loads.push(performance.now() - started);
}
loads.sort((a, b) => a - b);
const packBytes = statSync(output).size;
rmSync(output, { force: true });
console.log(
  JSON.stringify({
    inputBytes: statSync(input).size,
    entities: cold.entities,
    coldSeconds: cold.seconds,
    warmSeconds: best.seconds,
    peakRssMiB,
    baselineRssMiB,
    packBytes,
    loadMs: loads[2],
  }),
);
