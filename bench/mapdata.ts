/**
 * Map data benchmark (`npm run bench -- mapdata`), issue #29: GET /map/poi for city viewports, one
 * request at a time (p50/p99, server CPU per request), on a catalogue grown to 10 000 places inside
 * Nasr City on Postgres: the 201 real places copied to random points of the district — GENERATED
 * rows, labelled so — so a zoom-14 viewport holds thousands of candidates.
 * Target (issue #29): `/map/poi` p99 ≤ 10 ms.
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { sequentialLatency } from './geocode.js';
import { grow } from './places.js';
import { conditions, freePort, pinLoadGenerator, processCpuMs, round, sharedDeploymentEnv, startProcess } from './support.js';

const productMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const TARGET_P99_MS = 10;
const GROWN_TO = 10_000;
const SEQUENTIAL_WITH_WARMUP = 2_300;
const NASR = { west: 31.28, south: 30.03, east: 31.4, north: 30.11 };

/** 64 viewports (1440 × 900 at zooms 13–16) centred on a grid over the district: a fixed set, so runs compare. */
function viewports(): string[] {
  const paths: string[] = [];
  for (let row = 0; row < 8; row++) {
    for (let column = 0; column < 8; column++) {
      const zoom = 13 + ((row + column) % 4);
      const lat = NASR.south + ((row + 0.5) / 8) * (NASR.north - NASR.south);
      const lng = NASR.west + ((column + 0.5) / 8) * (NASR.east - NASR.west);
      const halfLng = (1440 / 2 / (512 * 2 ** zoom)) * 360;
      const halfLat = halfLng * (900 / 1440) * Math.cos((lat * Math.PI) / 180);
      const bbox = [lng - halfLng, lat - halfLat, lng + halfLng, lat + halfLat].map((value) => value.toFixed(5)).join(',');
      paths.push(`/api/v1/map/poi?bbox=${bbox}&zoom=${zoom}&vw=1440&vh=900&locale=${column % 2 ? 'ar' : 'en'}`);
    }
  }
  return paths;
}

export async function runMapDataBenchmark(): Promise<void> {
  const pinned = pinLoadGenerator();
  const deployment = sharedDeploymentEnv('mapdata_bench');
  const port = await freePort();
  const server = await startProcess(productMain, [], port, { HOST: '127.0.0.1', LOG_LEVEL: 'warn', TRUSTED_PROXIES: '127.0.0.1', WORKER_THREADS: '1', ...deployment, PORT: String(port) });
  try {
    // grown before the first /map/poi, which loads the markers
    const grown = await grow(deployment.DATABASE_URL!, deployment.DATABASE_SCHEMA!, GROWN_TO, NASR);
    const base = `http://127.0.0.1:${port}`;
    const paths = viewports();
    const sample = (await (await fetch(`${base}${paths[0]}`)).json()) as { qualified: number; budget: number; items?: unknown[]; clusters?: unknown[] };
    const cpuBefore = processCpuMs(server.child.pid!);
    const latency = await sequentialLatency(base, paths);
    const cpuAfter = processCpuMs(server.child.pid!);
    const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / SEQUENTIAL_WITH_WARMUP;
    console.log(
      conditions({
        benchmark: 'map data HTTP, sequential',
        pinning: pinned,
        requests: '2 000 after 300 warm-up, one connection, one at a time; 64 viewports of 1440 × 900 at zooms 13–16 over Nasr City, en and ar',
        catalogue: `GENERATED: the 201 real places copied to random points of ${JSON.stringify(NASR)} up to ${grown.places} places (Postgres)`,
        example: `first viewport: ${sample.qualified} qualified, budget ${sample.budget}, ${sample.items?.length} drawn, ${sample.clusters?.length} clusters`,
      }),
    );
    console.log(`# load average at the end: ${loadavg().map((value) => value.toFixed(2)).join(' ')} (other processes share both CPUs: p99 then measures them too)`);
    console.log('endpoint,p50_ms,p99_ms,server_cpu_ms_per_request,target_p99_ms,verdict');
    console.log(['map_poi', round(latency.p50Ms, 3), round(latency.p99Ms, 3), cpu === undefined ? '' : round(cpu, 3), TARGET_P99_MS, latency.p99Ms <= TARGET_P99_MS ? 'met' : 'missed'].join(','));
  } finally {
    await server.stop();
    const sql = postgres(deployment.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop schema if exists "${deployment.DATABASE_SCHEMA}" cascade`).catch(() => undefined);
    await sql.end();
  }
}
