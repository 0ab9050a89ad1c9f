/**
 * `npm run bench -- ingest`: time, entities/s and peak memory of the ingest for
 * every shipped extract, an extrapolation to a 31 MB country file, pack load
 * time, and server start-up time with an existing pack.
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { conditions, round } from './support.js';

const SHARED = fileURLToPath(new URL('../../../shared/data/osm/', import.meta.url));
const EXTRACTS = ['egypt_cairo_nasr-city.osm.pbf', 'egypt_cairo_nasr-city.osm.xml.gz', 'syria_an-nabk.osm', 'graphhopper_andorra.osm.pbf', 'osrm_monaco.osm.pbf'];
const RUNNER = fileURLToPath(new URL('./ingest-run.js', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const COUNTRY_BYTES = 31 * 1024 * 1024;

interface RunResult {
  inputBytes: number;
  entities: number;
  coldSeconds: number;
  warmSeconds: number;
  peakRssMiB: number;
  baselineRssMiB: number;
  packBytes: number;
  loadMs: number;
}

/** Starts the server and returns the milliseconds until its "listening" line. */
function timeToListening(env: Record<string, string>): Promise<{ ms: number; packLoadMs: number | undefined }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [MAIN], { env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let buffer = '';
    let packLoadMs: number | undefined;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.includes('"msg":"map data loaded"')) packLoadMs = (JSON.parse(line) as { loadMs: number }).loadMs;
        if (line.includes('"msg":"listening"')) {
          const ms = performance.now() - started;
          child.kill('SIGTERM');
          resolve({ ms, packLoadMs });
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
}

export async function runIngestBenchmark(): Promise<void> {
  console.log(conditions({ benchmark: 'ingest (npm run ingest) per shipped extract, cold process, then the best of 3 warm runs', data: '../shared/data/osm (ODbL, © OpenStreetMap contributors)' }));
  console.log('extract,input_mib,entities,cold_s,cold_entities_per_s,warm_s,warm_entities_per_s,peak_rss_mib,rss_above_baseline_mib,pack_mib,peak_rss_over_pack,pack_load_ms');
  const results: Record<string, RunResult> = {};
  for (const extract of EXTRACTS) {
    const output = execFileSync(process.execPath, [RUNNER, join(SHARED, extract)], { encoding: 'utf8' });
    const result = JSON.parse(output.trim().split('\n').pop()!) as RunResult;
    results[extract] = result;
    const packMiB = result.packBytes / 1048576;
    console.log(
      [
        extract,
        round(result.inputBytes / 1048576),
        result.entities,
        round(result.coldSeconds, 3),
        Math.round(result.entities / result.coldSeconds),
        round(result.warmSeconds, 3),
        Math.round(result.entities / result.warmSeconds),
        round(result.peakRssMiB, 0),
        round(result.peakRssMiB - result.baselineRssMiB, 0),
        round(packMiB),
        round((result.peakRssMiB - result.baselineRssMiB) / packMiB, 1),
        round(result.loadMs, 2),
      ].join(','),
    );
  }
  // Extrapolation: the largest PBF's entities per byte and warm entities/s, scaled to a 31 MB country file.
  const monaco = results['osrm_monaco.osm.pbf']!;
  const entities = (monaco.entities / monaco.inputBytes) * COUNTRY_BYTES;
  const rate = monaco.entities / monaco.warmSeconds;
  console.log(
    `# extrapolated 31 MB country PBF (Monaco's ${Math.round(monaco.entities / (monaco.inputBytes / 1048576))} entities/MiB): ~${(entities / 1e6).toFixed(1)} M entities, ~${round(entities / rate, 1)} s at the warm rate of ${Math.round(rate)} entities/s; target ≥ 1,000,000 entities/s`,
  );

  console.log('\nstart,ms_to_listening,pack_load_ms');
  const realServices = {
    DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  };
  // the first start may build the default pack; the measured ones reuse it
  await timeToListening({ ...realServices, DATA_DIR: 'memory://' }).catch(() => undefined);
  for (const [name, env] of [
    ['existing default pack, real Postgres/Redis/NATS', { ...realServices, DATA_DIR: 'memory://' }],
    ['existing default pack, embedded backends (PGlite in memory)', { DATA_DIR: 'memory://', DATABASE_URL: '', REDIS_URL: '', NATS_URL: '' }],
  ] as const) {
    try {
      const timing = await timeToListening(env);
      console.log(`${name},${Math.round(timing.ms)},${timing.packLoadMs ?? ''}`);
    } catch (error) {
      console.log(`${name},failed: ${(error as Error).message},`);
    }
  }
  console.log('# target: start-up with an existing pack ≤ 2000 ms');
}
