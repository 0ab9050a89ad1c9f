/**
 * `npm run bench -- ingest`: time, entities/s and peak memory of the ingest for
 * every shipped extract, an extrapolation to a 31 MB country file, pack load
 * time, and server start-up time with an existing pack.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IngestProcessResult } from './ingest-run.js';
import { conditions, round } from './support.js';
import { writeTiledExtract } from './tiled-extract.js';

const SHARED = fileURLToPath(new URL('../../../shared/data/osm/', import.meta.url));
const EXTRACTS = ['egypt_cairo_nasr-city.osm.pbf', 'egypt_cairo_nasr-city.osm.xml.gz', 'syria_an-nabk.osm', 'graphhopper_andorra.osm.pbf', 'osrm_monaco.osm.pbf'];
const RUNNER = fileURLToPath(new URL('./ingest-run.js', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const COUNTRY_BYTES = 31 * 1024 * 1024;

/**
 * The V8 flags `npm run ingest` runs with (package.json): a young generation of
 * at most 2 MiB per semi-space (the ingest's garbage is short-lived: tag records,
 * inflated blocks; smaller semi-spaces collect it sooner, which lowers the peak
 * RSS of a Monaco ingest by about a quarter at no measurable cost in time), and
 * optimizing compilation on the main thread instead of a compiler thread (the
 * ingest is one thread of batch work: a background compiler only adds its own
 * memory and recompiles code the main thread has moved past; Monaco: about a
 * fifth less peak RSS and CPU time).
 */
const CLI_NODE_FLAGS = ['--max-semi-space-size=2', '--no-concurrent-recompilation'];
/**
 * The environment `npm run ingest` adds (package.json): glibc's malloc asks for transparent huge pages
 * (madvise) where the kernel offers them, so the hundreds of MiB a country file's columns fill are faulted in
 * 2 MiB at a time instead of 4 KiB: a 31 MB file's cold run took ~60 000 page faults (0.6–0.9 s of system
 * time on this VM) and takes 4 000–11 000 with it. A no-op where THP is off or glibc is older than 2.35.
 */
const CLI_ENV = { GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? 'glibc.malloc.hugetlb=1' };
const PROCESSES = Number(process.env.INGEST_BENCH_PROCESSES ?? 3);
/**
 * Warm runs per process. The first ~3 warm runs of Monaco still carry TurboFan's compilation (on the main
 * thread, with the CLI's flags: 0.2 s of a 0.4–0.5 s run), so their median straddled the warm-up; the last
 * STEADY_RUNS are the compiled steady state, reported on their own.
 */
const WARM_RUNS = 10;
const STEADY_RUNS = 5;
/** The country-size file's warm runs (each takes seconds; its JIT warm-up is a small part of a cold run). */
const COUNTRY_WARM_RUNS = 2;

const best = (values: number[]) => Math.min(...values);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
/** "best/median" of a list; `higherIsBetter` for rates. */
const bestMedian = (values: number[], digits: number, higherIsBetter = false) =>
  `${round(higherIsBetter ? Math.max(...values) : best(values), digits)}/${round(median(values), digits)}`;
const load = () => loadavg().map((value) => value.toFixed(1)).join(' ');

/** A start that has not reached "listening" by then (the first one builds the default pack) is killed and failed. */
const START_LIMIT_MS = 180_000;
/** A server that has not exited this long after SIGTERM is killed and the start failed. */
const STOP_LIMIT_MS = 30_000;

/** Starts the server and returns the milliseconds until its "listening" line, once it has stopped again (the next start may need its data directory). */
function timeToListening(env: Record<string, string>): Promise<{ ms: number; packLoadMs: number | undefined }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [MAIN], { env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let buffer = '';
    let packLoadMs: number | undefined;
    let listeningMs: number | undefined;
    let failure: string | undefined;
    const killAfter = (ms: number, why: string) =>
      setTimeout(() => {
        failure = why;
        child.kill('SIGKILL');
      }, ms);
    let limit = killAfter(START_LIMIT_MS, `not listening after ${START_LIMIT_MS / 1000} s`);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.includes('"msg":"map data loaded"')) {
          try {
            packLoadMs = (JSON.parse(line) as { loadMs: number }).loadMs;
          } catch {
            // a line cut by the pipe: the figure is optional
          }
        }
        if (line.includes('"msg":"listening"') && listeningMs === undefined) {
          listeningMs = performance.now() - started;
          clearTimeout(limit);
          limit = killAfter(STOP_LIMIT_MS, `still running ${STOP_LIMIT_MS / 1000} s after SIGTERM`);
          child.kill('SIGTERM');
        }
      }
    });
    child.once('error', (error) => {
      clearTimeout(limit);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(limit);
      if (failure) reject(new Error(failure));
      else if (listeningMs === undefined) reject(new Error(`server exited (${code ?? signal}) before listening`));
      else resolve({ ms: listeningMs, packLoadMs });
    });
  });
}

/** Ingests `path` in PROCESSES fresh processes and prints its CSV row. */
function measureExtract(name: string, path: string, warmRuns: number, steadyRuns: number): IngestProcessResult[] {
  const runs: IngestProcessResult[] = [];
  for (let run = 0; run < PROCESSES; run++) {
    const output = execFileSync(process.execPath, [...CLI_NODE_FLAGS, RUNNER, path, String(warmRuns)], { encoding: 'utf8', env: { ...process.env, ...CLI_ENV } });
    runs.push(JSON.parse(output.trim().split('\n').pop()!) as IngestProcessResult);
  }
  const first = runs[0]!;
  const packMiB = first.packBytes / 1048576;
  const warm = runs.flatMap((result) => result.warm);
  const steady = runs.flatMap((result) => result.warm.slice(-steadyRuns));
  const above = runs.map((result) => result.peakRssMiB - result.baselineRssMiB);
  console.log(
    [
      name,
      round(first.inputBytes / 1048576),
      first.entities,
      round(packMiB),
      bestMedian(runs.map((result) => result.cold.seconds), 3),
      bestMedian(runs.map((result) => result.cold.cpuSeconds), 3),
      bestMedian(warm.map((result) => result.seconds), 3),
      bestMedian(warm.map((result) => result.cpuSeconds), 3),
      bestMedian(warm.map((result) => result.entities / result.seconds), 0, true),
      bestMedian(warm.map((result) => result.entities / result.cpuSeconds), 0, true),
      Math.round(median(steady.map((result) => result.entities / result.cpuSeconds))),
      bestMedian(above, 1),
      bestMedian(above.map((value) => value / packMiB), 1),
      round(median(runs.map((result) => result.loadMs)), 2),
    ].join(','),
  );
  return runs;
}

export async function runIngestBenchmark(): Promise<void> {
  console.log(
    conditions({
      benchmark: `ingest (npm run ingest: GLIBC_TUNABLES=${CLI_ENV.GLIBC_TUNABLES} node ${CLI_NODE_FLAGS.join(' ')}) per shipped extract: ${PROCESSES} fresh processes, each one cold run then ${WARM_RUNS} warm runs; best/median over them; steady = the last ${STEADY_RUNS} warm runs of each process (JIT compilation done)`,
      data: '../shared/data/osm (ODbL, © OpenStreetMap contributors)',
      'load average at start (1/5/15 min)': load(),
      definitions:
        'entities = nodes + ways + relations of the input; s = wall-clock seconds; cpu_s = user + system CPU seconds of the process (JS thread, GC helper threads, zlib); ' +
        'entities/cpu_s is the rate per core-second, which sharing the machine distorts least; peak RSS above baseline = the process\'s peak RSS (cold run) minus its RSS just before the ingest (modules loaded)',
    }),
  );
  console.log(
    'extract,input_mib,entities,pack_mib,cold_s,cold_cpu_s,warm_s,warm_cpu_s,warm_entities_per_s,warm_entities_per_cpu_s,steady_entities_per_cpu_s_median,peak_rss_above_baseline_mib,peak_over_pack,pack_load_ms',
  );
  const results: Record<string, IngestProcessResult[]> = {};
  for (const extract of EXTRACTS) results[extract] = measureExtract(extract, join(SHARED, extract), WARM_RUNS, STEADY_RUNS);
  // the "31 MB country file", measured: Monaco tiled (see tiled-extract.ts), as many copies as make 31 MB
  const tiledDir = mkdtempSync(join(tmpdir(), 'ingest-bench-'));
  try {
    const monacoBytes = results['osrm_monaco.osm.pbf']![0]!.inputBytes;
    const copies = Math.round(COUNTRY_BYTES / monacoBytes);
    const tiled = join(tiledDir, `osrm_monaco-x${copies}.osm.pbf`);
    await writeTiledExtract(join(SHARED, 'osrm_monaco.osm.pbf'), copies, tiled);
    const runs = measureExtract(`osrm_monaco.osm.pbf tiled ${copies}× (country size)`, tiled, COUNTRY_WARM_RUNS, 1);
    const cold = runs.map((result) => result.cold);
    const packMiB = runs[0]!.packBytes / 1048576;
    console.log(
      `# measured country-size PBF (${copies} copies of Monaco side by side, ids renumbered, ${round(runs[0]!.inputBytes / 1e6, 1)} MB, ${(runs[0]!.entities / 1e6).toFixed(2)} M entities): ` +
        `one cold run, as a user's npm run ingest: ${bestMedian(cold.map((run) => run.entities / run.cpuSeconds), 0, true)} entities per CPU second, ` +
        `${bestMedian(cold.map((run) => run.entities / run.seconds), 0, true)} entities/s wall (best/median); ` +
        `peak RSS above baseline ${bestMedian(runs.map((result) => result.peakRssMiB - result.baselineRssMiB), 1)} MiB = ` +
        `${bestMedian(runs.map((result) => (result.peakRssMiB - result.baselineRssMiB) / packMiB), 2)}× the ${round(packMiB, 1)} MiB pack; targets ≥ 1,000,000 entities/s on one core, ≤ 3× the pack`,
    );
  } finally {
    rmSync(tiledDir, { recursive: true, force: true });
  }
  console.log(`# load average at end (1/5/15 min): ${load()}`);
  // Extrapolation to a 31 MB country file: Monaco's entities per byte; its CPU time = a fixed cost (what the cold
  // and warming runs took beyond the steady rate: mostly JIT compilation, which a large file pays once, so this
  // overstates it) + its entities at the steady rate.
  const monaco = results['osrm_monaco.osm.pbf']!;
  const perMiB = monaco[0]!.entities / (monaco[0]!.inputBytes / 1048576);
  const entities = (perMiB / 1048576) * COUNTRY_BYTES;
  // per CPU second (the target's "one core") and per wall-clock second (what a user waits)
  const extrapolate = (measure: 'cpuSeconds' | 'seconds') => {
    const steadyRate = median(monaco.flatMap((result) => result.warm.slice(-STEADY_RUNS)).map((result) => result.entities / result[measure]));
    const fixed = median(
      monaco.map((result) => {
        const early = [result.cold, ...result.warm.slice(0, -STEADY_RUNS)];
        return early.reduce((sum, run) => sum + run[measure] - run.entities / steadyRate, 0);
      }),
    );
    const total = fixed + entities / steadyRate;
    return { steadyRate, fixed, total, rate: entities / total };
  };
  const cpu = extrapolate('cpuSeconds');
  const wall = extrapolate('seconds');
  console.log(
    `# extrapolated from Monaco alone to a 31 MB country PBF (Monaco's ${Math.round(perMiB)} entities/MiB; it counts Monaco's warm-up in full, so the measured country-size row above is the better figure): ~${(entities / 1e6).toFixed(1)} M entities; ` +
      `per CPU second: steady ${Math.round(cpu.steadyRate)}, fixed cost (JIT warm-up, from Monaco's cold and warming runs) ${round(cpu.fixed, 2)} CPU s, ~${round(cpu.total, 1)} CPU s in all = ${Math.round(cpu.rate)} entities per CPU second; ` +
      `wall clock: steady ${Math.round(wall.steadyRate)}/s, fixed ${round(wall.fixed, 2)} s, ~${round(wall.total, 1)} s = ${Math.round(wall.rate)} entities/s; target ≥ 1,000,000 entities/s on one core`,
  );
  console.log('# warm best/median columns cover all warm runs (the first ones still compiling); the steady column only the last ' + STEADY_RUNS + ' of each process');

  const STARTS = 3;
  console.log(`\nstart,ms_to_listening_median,ms_each (${STARTS} starts),pack_load_ms`);
  const realServices = {
    DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  };
  const embedded = { DATABASE_URL: '', REDIS_URL: '', NATS_URL: '' };
  // a DATA_DIR of its own for the embedded default as a user's `npm start` leaves it: the pack and the database
  const dataDir = mkdtempSync(join(tmpdir(), 'start-bench-'));
  try {
    // the first starts build the default pack and create the database; the measured ones reuse them
    await timeToListening({ ...realServices, DATA_DIR: 'memory://' }).catch(() => undefined);
    await timeToListening({ ...embedded, DATA_DIR: dataDir }).catch(() => undefined);
    for (const [name, env] of [
      ['existing default pack, real Postgres/Redis/NATS', { ...realServices, DATA_DIR: 'memory://' }],
      ['existing default pack and database, embedded backends (npm start: PGlite in DATA_DIR)', { ...embedded, DATA_DIR: dataDir }],
      ['existing default pack, embedded backends, new in-memory database (DATA_DIR=memory://: created at each start)', { ...embedded, DATA_DIR: 'memory://' }],
    ] as const) {
      try {
        const timings = [];
        for (let start = 0; start < STARTS; start++) timings.push(await timeToListening(env));
        const ms = timings.map((timing) => Math.round(timing.ms));
        console.log(`${name},${median(ms)},${ms.join(' ')},${timings[0]!.packLoadMs ?? ''}`);
      } catch (error) {
        console.log(`${name},failed: ${(error as Error).message},,`);
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('# target: start-up with an existing pack ≤ 2000 ms');
}
