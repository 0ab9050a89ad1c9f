/**
 * Server CPU per request on the common request path, and latency at a fixed offered rate (`npm run bench -- edge-cpu`).
 *
 * The machine is shared, so the measure is the server's CPU per request (all its threads, and the main thread alone,
 * from /proc), not its throughput. Rows:
 *  - `health_closed`: `GET /health` through the full chain, closed loop at 100 connections (saturation);
 *  - `autocomplete_moving_bias_closed`: the eval-set queries, a new bias point every request (every one a search);
 *  - `autocomplete_open_5000`: cached autocomplete (the eval-set queries in turn) offered at 5 000 req/s on 100
 *    connections, open loop (latency from the scheduled send time; target p99 ≤ 5 ms);
 *  - `autocomplete_moving_bias_open_5000`: the same schedule with a moving bias point;
 *  - `tile_cached_closed`: a cached vector tile (the default city's densest z14 tile, Brotli), closed loop (issue #25:
 *    its CPU per request against `health_closed`'s).
 *
 * A/B: `BENCH_REFERENCE_SCRIPT` names another build's `main.js`; both servers run (pinned to the same CPU) and each
 * row is measured in the order A B B A for `BENCH_ROUNDS` rounds (default 1), medians printed per server.
 * The load generator's own CPU is printed apart (`gen_cpu_us_per_req`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ingestToFile } from '../src/ingest/ingest.js';
import { DEFAULT_DATASET, movingBiasPaths, type EvalQuery } from './geocode.js';
import { encodeGet, openLoop, type OpenLoopResult } from './open-loop.js';
import { clientAddress, conditions, freePort, pinLoadGenerator, processCpuMs, round, startProcess, type StartedProcess } from './support.js';

const CONNECTIONS = 100;
const CLIENTS = 2_000;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const OFFERED_PER_SECOND = 5_000;
const productMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const evalSetPath = fileURLToPath(new URL('../../bench/geocode/eval-set.json', import.meta.url));
/** Only these rows (comma separated names), e.g. BENCH_ROWS=health_closed. */
const ONLY = process.env.BENCH_ROWS?.split(',').filter(Boolean);

interface Row {
  name: string;
  paths: readonly string[];
  rate: number | 'closed';
  targetP99Ms?: number;
  /** Request headers besides the client address. */
  headers?: Record<string, string>;
}

interface Measured {
  server: string;
  result: OpenLoopResult;
  cpuUsPerRequest: number;
  mainCpuUsPerRequest: number;
  generatorUsPerRequest: number;
}

function requestsFor(port: number, paths: readonly string[], headers: Record<string, string> = {}): Buffer[] {
  // every path once per client address would be many; one address per request number, as wrk.ts does
  const count = Math.max(paths.length, CLIENTS);
  return Array.from({ length: count }, (_, index) => encodeGet(`127.0.0.1:${port}`, paths[index % paths.length]!, { ...headers, 'x-forwarded-for': clientAddress(index % CLIENTS) }));
}

async function measureRow(row: Row, server: StartedProcess, label: string): Promise<Measured> {
  const pid = server.child.pid!;
  let cpuBefore = 0;
  let mainBefore = 0;
  let cpuAfter = 0;
  let mainAfter = 0;
  const result = await openLoop({
    host: '127.0.0.1',
    port: server.port,
    requests: requestsFor(server.port, row.paths, row.headers),
    connections: CONNECTIONS,
    rate: row.rate,
    durationSeconds: DURATION_SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    beforeMeasuring: () => {
      cpuBefore = processCpuMs(pid) ?? NaN;
      mainBefore = processCpuMs(pid, pid) ?? NaN;
    },
    afterMeasuring: () => {
      cpuAfter = processCpuMs(pid) ?? NaN;
      mainAfter = processCpuMs(pid, pid) ?? NaN;
    },
  });
  const perRequest = (ms: number) => (ms * 1000) / result.completed;
  return {
    server: label,
    result,
    cpuUsPerRequest: perRequest(cpuAfter - cpuBefore),
    mainCpuUsPerRequest: perRequest(mainAfter - mainBefore),
    generatorUsPerRequest: perRequest(result.generatorCpuMs),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export async function runEdgeCpuBenchmark(): Promise<void> {
  const pinned = pinLoadGenerator();
  const workDir = mkdtempSync(join(tmpdir(), 'bench-edge-cpu-'));
  const servers: Array<{ label: string; server: StartedProcess }> = [];
  try {
    const packPath = join(workDir, 'default.svcpack');
    await ingestToFile({ input: DEFAULT_DATASET.osm, admin: DEFAULT_DATASET.admin }, packPath);
    const scripts: Array<[string, string]> = [['B', process.env.BENCH_SERVER_SCRIPT ?? productMain]];
    if (process.env.BENCH_REFERENCE_SCRIPT) scripts.unshift(['A', process.env.BENCH_REFERENCE_SCRIPT]);
    for (const [label, script] of scripts) {
      const port = await freePort();
      const server = await startProcess(script, [], port, {
        PORT: String(port),
        METRICS_PORT: String(await freePort()),
        HOST: '127.0.0.1',
        DATA_DIR: 'memory://',
        DATA_PACK: packPath,
        LOG_LEVEL: 'info',
        TRUSTED_PROXIES: '127.0.0.1',
        DATABASE_URL: '',
        REDIS_URL: '',
        NATS_URL: '',
      });
      servers.push({ label, server });
    }
    const { queries } = JSON.parse(readFileSync(evalSetPath, 'utf8')) as { queries: EvalQuery[] };
    const texts = queries.filter((query) => !query.pack).map((query) => query.query);
    const typed = texts.map((text) => `/api/v1/geocode/autocomplete?q=${encodeURIComponent(text)}`);
    const moving = movingBiasPaths(texts, 20_000);
    const all: Row[] = [
      { name: 'health_closed', paths: ['/health'], rate: 'closed' },
      { name: 'autocomplete_moving_bias_closed', paths: moving, rate: 'closed' },
      { name: 'autocomplete_open_5000', paths: typed, rate: OFFERED_PER_SECOND, targetP99Ms: 5 },
      { name: 'autocomplete_moving_bias_open_5000', paths: moving, rate: OFFERED_PER_SECOND, targetP99Ms: 5 },
      // the densest z14 tile of the default city (33 KB Brotli), cached after the warm-up's first request
      { name: 'tile_cached_closed', paths: ['/api/v1/tiles/vector/svc/planet/14/9617/6756.pbf'], rate: 'closed', headers: { 'accept-encoding': 'br' } },
    ];
    const rows = all.filter((row) => !ONLY || ONLY.includes(row.name));

    console.log(
      conditions({
        benchmark: 'edge-cpu',
        load: `bench/open-loop.ts, ${CONNECTIONS} connections, ${DURATION_SECONDS} s after ${WARMUP_SECONDS} s warm-up, ${CLIENTS} client addresses (X-Forwarded-For, trusted proxy); open rows offer ${OFFERED_PER_SECOND} req/s, latency from the scheduled send time`,
        servers: servers.map(({ label }) => `${label}=${label === 'A' ? process.env.BENCH_REFERENCE_SCRIPT : (process.env.BENCH_SERVER_SCRIPT ?? productMain)}`).join(' '),
        order: servers.length > 1 ? `A B B A × ${ROUNDS} per row` : `${ROUNDS} run(s) per row`,
        cpus: pinned,
        loadAverage: readFileSync('/proc/loadavg', 'utf8').trim(),
      }),
    );
    console.log('row,server,mode,req_per_s,completed,late,p50_ms,p99_ms,p999_ms,max_ms,non_2xx,errors,server_cpu_us_per_req,main_cpu_us_per_req,gen_cpu_us_per_req');
    const summary: string[] = [];
    for (const row of rows) {
      const order = servers.length > 1 ? [servers[0]!, servers[1]!, servers[1]!, servers[0]!] : [servers[0]!];
      const measured: Measured[] = [];
      for (let round_ = 0; round_ < ROUNDS; round_++) {
        for (const { label, server } of order) {
          const one = await measureRow(row, server, label);
          measured.push(one);
          const r = one.result;
          console.log(
            [row.name, label, r.mode, Math.round(r.requestsPerSecond), r.completed, r.late, round(r.p50Ms), round(r.p99Ms), round(r.p999Ms), round(r.maxMs), r.non2xx, r.errors, round(one.cpuUsPerRequest, 1), round(one.mainCpuUsPerRequest, 1), round(one.generatorUsPerRequest, 1)].join(','),
          );
        }
      }
      for (const { label } of servers) {
        const mine = measured.filter((one) => one.server === label);
        const p99 = median(mine.map((one) => one.result.p99Ms));
        const verdict = row.targetP99Ms === undefined ? '' : `,target p99 <= ${row.targetP99Ms} ms ${p99 <= row.targetP99Ms ? 'met' : 'missed'}`;
        summary.push(
          `median,${row.name},${label},cpu_us_per_req ${round(median(mine.map((one) => one.cpuUsPerRequest)), 1)},main ${round(median(mine.map((one) => one.mainCpuUsPerRequest)), 1)},p99_ms ${round(p99)},req_per_s ${Math.round(median(mine.map((one) => one.result.requestsPerSecond)))}${verdict}`,
        );
      }
    }
    for (const line of summary) console.log(line);
  } finally {
    await Promise.all(servers.map(({ server }) => server.stop()));
    rmSync(workDir, { recursive: true, force: true });
  }
}
