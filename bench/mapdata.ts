/**
 * Map data benchmark (`npm run bench -- mapdata`), issue #29: GET /map/poi for city viewports, one
 * request at a time (p50/p99, server CPU per request), on a catalogue grown to 10 000 places inside
 * Nasr City on Postgres: the 201 real places copied to random points of the district — GENERATED
 * rows, labelled so — so a zoom-14 viewport holds thousands of candidates.
 * Target (issue #29): `/map/poi` p99 ≤ 10 ms. Then the logistics_zones overlay as vector tiles (MVT, encoded in
 * the solver pool) over 200 GENERATED zones scattered over the district: target p50 ≤ 5 ms. Then static
 * maps (`GET /static/map`, 600 × 400, drawn in the solver pool): every request a view never drawn before
 * (the image cache would answer a repeat), target p50 ≤ 100 ms.
 */
import { Agent, get as httpGet } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { sequentialLatency } from './geocode.js';
import { grow } from './places.js';
import { conditions, freePort, pinLoadGenerator, processCpuMs, round, sharedDeploymentEnv, startProcess } from './support.js';

const productMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const TARGET_P99_MS = 10;
const OVERLAY_TARGET_P50_MS = 5;
const GENERATED_ZONES = 200;
const GROWN_TO = 10_000;
const SEQUENTIAL_WITH_WARMUP = 2_300;
/** Requests before the timed /map/poi row (steady state, as in the calendars bench); the cold row keeps the first 2 000 after 300. */
const STEADY_STATE_WARMUP = Number(process.env.BENCH_MAPDATA_WARMUP ?? 4_000);
const NASR = { west: 31.28, south: 30.03, east: 31.4, north: 30.11 };
const STATIC_MAP_TARGET_P50_MS = 100;
const STATIC_MAP_WARMUP = 20;
const STATIC_MAP_REQUESTS = 200;

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

/** 64 zoom-14 tiles over the district: the overlay tiles a city map fetches. */
function overlayTiles(): string[] {
  const z = 14;
  const n = 2 ** z;
  const column = (lng: number) => Math.floor(((lng + 180) / 360) * n);
  const row = (lat: number) => Math.floor(((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
  const paths: string[] = [];
  for (let x = column(NASR.west); x <= column(NASR.east); x++) for (let y = row(NASR.north); y <= row(NASR.south); y++) paths.push(`/api/v1/map/overlays/logistics_zones/vector/${z}/${x}/${y}`);
  return paths.slice(0, 64);
}

/**
 * Distinct 600 × 400 static maps over the OSM data of the pack (31.30–31.38 E, 30.04–30.09 N): zooms 14–16,
 * standard style, Arabic or English labels, one marker and a three-point path each.
 */
function staticMapPaths(count: number): string[] {
  const paths: string[] = [];
  for (let index = 0; index < count; index++) {
    const lat = 30.045 + ((index * 0.618034) % 1) * 0.04;
    const lng = 31.305 + ((index * 0.414214) % 1) * 0.07;
    const zoom = 14 + (index % 3);
    const marker = `markers=color:red|${(lat + 0.001).toFixed(5)},${(lng - 0.001).toFixed(5)}`;
    const path = `path=color:0x1a73e8|weight:5|${(lat - 0.002).toFixed(5)},${(lng - 0.003).toFixed(5)}|${lat.toFixed(5)},${lng.toFixed(5)}|${(lat + 0.002).toFixed(5)},${(lng + 0.003).toFixed(5)}`;
    paths.push(`/api/v1/static/map?center=${lat.toFixed(5)},${lng.toFixed(5)}&zoom=${zoom}&size=600x400&locale=${index % 2 ? 'ar' : 'en'}&${marker}&${path}`);
  }
  return paths;
}

/** Each path once, one at a time: latency after the warm-up ones, and the server's CPU over the measured ones. */
async function distinctLatency(base: string, paths: string[], warmup: number, serverPid: number): Promise<{ p50Ms: number; p99Ms: number; cpuMsPerRequest: number | undefined; bytes: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let bytes = 0;
  const once = (path: string, index: number) =>
    new Promise<number>((resolve, reject) => {
      const startedAt = process.hrtime.bigint();
      httpGet(`${base}${path}`, { agent, headers: { 'x-forwarded-for': `10.202.${(index >> 8) & 255}.${index & 255}` } }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${path}: ${response.statusCode}`));
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve(Number(process.hrtime.bigint() - startedAt) / 1e6));
      }).on('error', reject);
    });
  for (let index = 0; index < warmup; index++) await once(paths[index]!, index);
  bytes = 0;
  const cpuBefore = processCpuMs(serverPid);
  const samples: number[] = [];
  for (let index = warmup; index < paths.length; index++) samples.push(await once(paths[index]!, index));
  const cpuAfter = processCpuMs(serverPid);
  agent.destroy();
  samples.sort((a, b) => a - b);
  return {
    p50Ms: samples[Math.floor(samples.length * 0.5)]!,
    p99Ms: samples[Math.floor(samples.length * 0.99)]!,
    cpuMsPerRequest: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / samples.length,
    bytes: bytes / samples.length,
  };
}

/** GENERATED zones (squares of 200–800 m, random policy) written straight to the table migration 025 made. */
async function generateZones(databaseUrl: string, schema: string): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {}, connection: { search_path: schema } });
  try {
    for (let index = 0; index < GENERATED_ZONES; index++) {
      const size = 0.002 + Math.random() * 0.006;
      const west = NASR.west + Math.random() * (NASR.east - NASR.west - size);
      const south = NASR.south + Math.random() * (NASR.north - NASR.south - size);
      const ring = [[west, south], [west + size, south], [west + size, south + size], [west, south + size], [west, south]];
      await sql`insert into logistics_zones (id, name, zone_type, risk_score, cost_multiplier, routing_policy, geometry, min_lng, min_lat, max_lng, max_lat)
        values (gen_random_uuid(), ${`GENERATED zone ${index}`}, 'congestion', ${Math.random()}, ${1 + Math.random()}, ${['avoid', 'penalize', 'allow'][index % 3]!},
                ${sql.json({ type: 'Polygon', coordinates: ring })}, ${west}, ${south}, ${west + size}, ${south + size})`;
    }
  } finally {
    await sql.end();
  }
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
    const cold = await sequentialLatency(base, paths);
    await sequentialLatency(base, paths, 1, STEADY_STATE_WARMUP);
    const cpuBefore = processCpuMs(server.child.pid!);
    const latency = await sequentialLatency(base, paths);
    const cpuAfter = processCpuMs(server.child.pid!);
    const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / SEQUENTIAL_WITH_WARMUP;
    console.log(
      conditions({
        benchmark: 'map data HTTP, sequential',
        pinning: pinned,
        requests: `2 000 after 300 warm-up, one connection, one at a time, after ${STEADY_STATE_WARMUP} requests (steady state; the cold row is a fresh server's first 2 000 after 300)`+'; 64 viewports of 1440 × 900 at zooms 13–16 over Nasr City, en and ar',
        catalogue: `GENERATED: the 201 real places copied to random points of ${JSON.stringify(NASR)} up to ${grown.places} places (Postgres)`,
        example: `first viewport: ${sample.qualified} qualified, budget ${sample.budget}, ${sample.items?.length} drawn, ${sample.clusters?.length} clusters`,
      }),
    );
    console.log(`# load average at the end: ${loadavg().map((value) => value.toFixed(2)).join(' ')} (other processes share both CPUs: p99 then measures them too)`);
    console.log('endpoint,p50_ms,p99_ms,server_cpu_ms_per_request,target_p99_ms,verdict');
    console.log(['map_poi', round(latency.p50Ms, 3), round(latency.p99Ms, 3), cpu === undefined ? '' : round(cpu, 3), TARGET_P99_MS, latency.p99Ms <= TARGET_P99_MS ? 'met' : 'missed'].join(','));
    console.log(['map_poi_cold', round(cold.p50Ms, 3), round(cold.p99Ms, 3), '', '', ''].join(','));
    await generateZones(deployment.DATABASE_URL!, deployment.DATABASE_SCHEMA!);
    const tiles = overlayTiles();
    const overlayLatency = await sequentialLatency(base, tiles);
    console.log(`# overlay: logistics_zones MVT, ${tiles.length} zoom-14 tiles over Nasr City, ${GENERATED_ZONES} GENERATED zones; target is p50`);
    console.log(['map_overlay_mvt', round(overlayLatency.p50Ms, 3), round(overlayLatency.p99Ms, 3), '', OVERLAY_TARGET_P50_MS, overlayLatency.p50Ms <= OVERLAY_TARGET_P50_MS ? 'met' : 'missed'].join(','));
    const staticMaps = await distinctLatency(base, staticMapPaths(STATIC_MAP_WARMUP + STATIC_MAP_REQUESTS), STATIC_MAP_WARMUP, server.child.pid!);
    console.log(
      `# static map: ${STATIC_MAP_REQUESTS} distinct 600 × 400 PNGs (zooms 14–16, standard, a marker and a path, no key so the watermark too) after ${STATIC_MAP_WARMUP} warm-up ones; ` +
        `mean ${Math.round(staticMaps.bytes / 1024)} KiB; target is p50; load average now ${loadavg().map((value) => value.toFixed(2)).join(' ')}`,
    );
    console.log(['static_map_600x400', round(staticMaps.p50Ms, 3), round(staticMaps.p99Ms, 3), staticMaps.cpuMsPerRequest === undefined ? '' : round(staticMaps.cpuMsPerRequest, 3), STATIC_MAP_TARGET_P50_MS, staticMaps.p50Ms <= STATIC_MAP_TARGET_P50_MS ? 'met' : 'missed'].join(','));
  } finally {
    await server.stop();
    const sql = postgres(deployment.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop schema if exists "${deployment.DATABASE_SCHEMA}" cascade`).catch(() => undefined);
    await sql.end();
  }
}
