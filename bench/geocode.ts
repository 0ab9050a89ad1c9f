/**
 * Geocoding benchmark (`npm run bench -- geocode`):
 *  1. index build time and memory for the default pack (Nasr City + Jordan admin areas) and An-Nabk;
 *  2. recall@1 and recall@5 per category of bench/geocode/eval-set.json (targets: @5 ≥ 95 %, @1 ≥ 85 %);
 *  3. autocomplete and reverse over HTTP at 100 connections: p50/p99 and req/s (target p99 ≤ 5 ms).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MapPack } from '../src/datapack/map-pack.js';
import { NO_INDEX } from '../src/datapack/pack-layout.js';
import { ingestToFile } from '../src/ingest/ingest.js';
import { Geocoder } from '../src/services/geocoding/geocoder.js';
import { GeoIndex } from '../src/services/geocoding/geo-index.js';
import { searchIndex } from '../src/services/geocoding/search.js';
import { Random } from '../src/solvers/random.js';
import { conditions, freePort, pinLoadGenerator, round, SERVER_PROCESSES, sharedDeploymentEnv, startProcessGroup } from './support.js';
import { encodeGet } from './open-loop.js';
import { sequentialRequests } from './sequential.js';
import { httpLoad, WARMUP_SECONDS, type HttpLoadResult } from './wrk.js';

const CONNECTIONS = 100;
const CLIENTS = 2_000;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const TARGET_P99_MS = 5;
const TARGET_BUILD_MS = 2000;
const productMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const evalSetPath = fileURLToPath(new URL('../../bench/geocode/eval-set.json', import.meta.url));
const anNabkOsm = fileURLToPath(new URL('../../../shared/data/osm/syria_an-nabk.osm', import.meta.url));
// the server's embedded default: Nasr City with Jordan's governorates, districts and sub-districts
const repoData = fileURLToPath(new URL('../../data/', import.meta.url));
export const DEFAULT_DATASET = {
  osm: join(repoData, 'osm/egypt_cairo_nasr-city.osm.pbf'),
  admin: ['gov', 'dis', 'subdis'].map((name) => ({ path: join(repoData, `boundaries/jordan-admin/${name}.geojson`), level: undefined })),
};

export interface EvalQuery {
  category: string;
  query: string;
  /** `way/123`, `node/45`, `external/7` */
  expect: string;
  pack?: string;
}

/** Whether a result is the expected object: the same element, or a street one of whose ways it is. */
function isExpected(index: GeoIndex, entryId: number, expected: string): boolean {
  const entry = index.entries[entryId]!;
  const [type, id] = expected.split('/');
  if (entry.osmType !== type) return false;
  return entry.osmId === Number(id) || (entry.wayIds?.includes(Number(id)) ?? false);
}

export function evaluate(indexes: Record<string, GeoIndex>, queries: EvalQuery[]) {
  const byCategory = new Map<string, { total: number; at1: number; at5: number; misses: string[] }>();
  for (const query of queries) {
    const index = indexes[query.pack ?? 'default']!;
    const results = searchIndex(index, query.query, { limit: 5, open: true });
    const rank = results.findIndex((result) => isExpected(index, result.entry.id, query.expect));
    const row = byCategory.get(query.category) ?? { total: 0, at1: 0, at5: 0, misses: [] };
    row.total++;
    if (rank === 0) row.at1++;
    if (rank >= 0) row.at5++;
    else row.misses.push(query.query);
    byCategory.set(query.category, row);
  }
  return byCategory;
}

function buildIndex(pack: MapPack): { index: GeoIndex; heapMiB: number } {
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  const index = new GeoIndex(pack);
  global.gc?.();
  return { index, heapMiB: (process.memoryUsage().heapUsed - before) / 2 ** 20 };
}

/** Points on named streets of the pack (the middle of segments), for reverse-geocoding load. */
function streetPoints(pack: MapPack, count: number): { lat: number; lon: number }[] {
  const s = pack.sections;
  const points: { lat: number; lon: number }[] = [];
  const step = Math.max(1, Math.floor(s['graph.edgeTarget'].length / count));
  for (let edge = 0; edge < s['graph.edgeTarget'].length && points.length < count; edge += step) {
    const way = s['graph.edgeWay'][edge]!;
    if (way === NO_INDEX || s['ways.name'][way] === 0) continue;
    const shape = pack.edgeShape(edge);
    const [a, b] = [shape[0]!, shape[1]!];
    points.push({ lon: (a[0] + b[0]) / 2, lat: (a[1] + b[1]) / 2 });
  }
  return points;
}

/** 100 connections from a pool of 2 000 client addresses behind the trusted proxy. */
function load(url: string, paths: string[]): Promise<HttpLoadResult> {
  return httpLoad({ url, paths, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS, clients: CLIENTS });
}

/** Typed queries with a bias point that moves every request (a phone on the move): no two alike, so no cached answers. */
export function movingBiasPaths(queries: string[], count: number): string[] {
  const random = new Random(42);
  return Array.from({ length: count }, (_, index) => {
    const lat = (30.04 + random.next() * 0.06).toFixed(6);
    const lon = (31.3 + random.next() * 0.08).toFixed(6);
    return `/api/v1/geocode/autocomplete?q=${encodeURIComponent(queries[index % queries.length]!)}&lat=${lat}&lon=${lon}`;
  });
}

const SEQUENTIAL_REQUESTS = 2_000;

function serviceTimes<T>(inputs: T[], call: (input: T) => unknown): { count: number; p50: number; p99: number; mean: number } {
  for (let pass = 0; pass < 3; pass++) for (const input of inputs) call(input);
  const samples: number[] = [];
  for (let pass = 0; pass < 5; pass++) {
    for (const input of inputs) {
      const started = performance.now();
      call(input);
      samples.push(performance.now() - started);
    }
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return { count: samples.length, p50: samples[Math.floor(samples.length / 2)]!, p99: samples[Math.floor(samples.length * 0.99)]!, mean };
}

/**
 * Service time without queueing: one connection, one request at a time, hrtime; the paths in turn.
 * (At 100 connections a single event loop queues 100 requests, so p99 there is ~100 × service time.)
 */
export async function sequentialLatency(base: string, paths: string[], requests = SEQUENTIAL_REQUESTS, warmup = 300): Promise<{ p50Ms: number; p99Ms: number }> {
  const { hostname, port } = new URL(base);
  const host = `${hostname}:${port}`;
  // a distinct client address per request (as the per-address throttle sees a crowd), encoded before the run
  const encoded: Buffer[] = [];
  for (let index = 0; index < warmup; index++) encoded.push(encodeGet(host, paths[index % paths.length]!, { 'x-forwarded-for': `10.201.${(index >> 8) & 255}.${index & 255}` }));
  for (let index = 0; index < requests; index++) encoded.push(encodeGet(host, paths[index % paths.length]!, { 'x-forwarded-for': `10.201.${(index >> 8) & 255}.${index & 255}` }));
  const result = await sequentialRequests({ host: hostname, port: Number(port), requests: encoded, warmup });
  return { p50Ms: result.p50Ms, p99Ms: result.p99Ms };
}

export async function runGeocodeBenchmark(): Promise<void> {
  const pinned = pinLoadGenerator();
  const workDir = mkdtempSync(join(tmpdir(), 'bench-geocode-'));
  try {
    const defaultPackPath = join(workDir, 'default.svcpack');
    await ingestToFile({ input: DEFAULT_DATASET.osm, admin: DEFAULT_DATASET.admin }, defaultPackPath);
    const anNabkPath = join(workDir, 'an-nabk.svcpack');
    await ingestToFile({ input: anNabkOsm, admin: [] }, anNabkPath);
    const defaultPack = MapPack.load(defaultPackPath);
    const anNabkPack = MapPack.load(anNabkPath);
    const built = { default: buildIndex(defaultPack), 'an-nabk': buildIndex(anNabkPack) };

    console.log(conditions({ benchmark: 'geocode index', data: 'default pack (Nasr City + Jordan admin areas), An-Nabk pack', gc: global.gc ? 'exposed' : 'not exposed (heap figures approximate)' }));
    console.log('pack,entries,vocabulary,build_ms,heap_mib,target_build_ms,verdict');
    for (const [name, { index, heapMiB }] of Object.entries(built)) {
      const ms = index.stats.buildMs;
      console.log([name, index.stats.entries, index.stats.vocabulary, round(ms, 1), round(heapMiB, 1), TARGET_BUILD_MS, ms <= TARGET_BUILD_MS ? 'met' : 'missed'].join(','));
    }

    const { queries } = JSON.parse(readFileSync(evalSetPath, 'utf8')) as { queries: EvalQuery[] };
    const indexes = { default: built.default.index, 'an-nabk': built['an-nabk'].index };
    const started = performance.now();
    const recall = evaluate(indexes, queries);
    const perQueryMs = (performance.now() - started) / queries.length;
    console.log(`# recall: ${queries.length} queries of bench/geocode/eval-set.json, top 5 of forward search (last word may be unfinished); ${round(perQueryMs, 3)} ms per query (first, cold pass)`);
    console.log('category,queries,recall_at_1,recall_at_5');
    let total = 0;
    let at1 = 0;
    let at5 = 0;
    for (const [category, row] of [...recall].sort()) {
      console.log([category, row.total, round((100 * row.at1) / row.total, 1), round((100 * row.at5) / row.total, 1)].join(','));
      total += row.total;
      at1 += row.at1;
      at5 += row.at5;
    }
    const all1 = (100 * at1) / total;
    const all5 = (100 * at5) / total;
    console.log(`all,${total},${round(all1, 1)},${round(all5, 1)}`);
    console.log(`target,recall_at_1 >= 85 (${all1 >= 85 ? 'met' : 'missed'}),recall_at_5 >= 95 (${all5 >= 95 ? 'met' : 'missed'})`);
    for (const [category, row] of recall) if (row.misses.length) console.log(`# misses ${category}: ${row.misses.join(' | ')}`);

    const geocoder = Geocoder.build(defaultPack);
    const typedQueries = queries.filter((query) => !query.pack).map((query) => query.query);
    const points = streetPoints(defaultPack, 500);
    // a bias point that never repeats, so every call searches (a repeated call is a cache hit: its own row)
    let bias = 0;
    const inProcess = {
      autocomplete_search: serviceTimes(typedQueries, (query) => geocoder.autocomplete(query, { locales: ['ar', 'en'], limit: 8, near: { lat: 30.06, lon: 31.33 + ++bias * 1e-9 } })),
      autocomplete_cached: serviceTimes(typedQueries, (query) => geocoder.autocomplete(query, { locales: ['ar', 'en'], limit: 8 })),
      reverse: serviceTimes(points, (point) => geocoder.reverse(point.lat, point.lon, ['ar', 'en'])),
    };
    console.log('# in process, warm (3 passes first), each call timed: the geocoder alone, without HTTP');
    console.log('call,calls,p50_ms,p99_ms,mean_ms');
    for (const [name, times] of Object.entries(inProcess)) console.log([name, times.count, round(times.p50, 3), round(times.p99, 3), round(times.mean, 3)].join(','));

    // HTTP: the server builds its own default pack and index
    const port = await freePort();
    // metrics (the server's memory) are served on a port of their own
    const metricsPort = await freePort();
    // BENCH_SERVER_PROCESSES=2: a deployment of two processes on one port (REUSE_PORT) over the real services
    const deployment = SERVER_PROCESSES > 1 ? { ...sharedDeploymentEnv('bench_geocode'), REUSE_PORT: 'true' } : {};
    // BENCH_SERVER_SCRIPT runs another build's server under the same load (A/B)
    const server = await startProcessGroup(SERVER_PROCESSES, process.env.BENCH_SERVER_SCRIPT ?? productMain, port, {
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      HOST: '127.0.0.1',
      DATA_DIR: 'memory://',
      DATA_PACK: defaultPackPath,
      // the production default: one JSON line per request (to /dev/null here, as a log shipper would take it)
      LOG_LEVEL: 'info',
      TRUSTED_PROXIES: '127.0.0.1',
      ...deployment,
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      const typed = queries.filter((query) => !query.pack).map((query) => `/api/v1/geocode/autocomplete?q=${encodeURIComponent(query.query)}`);
      const reverse = streetPoints(defaultPack, 500).map((point) => `/api/v1/geocode/reverse?lat=${point.lat.toFixed(6)}&lon=${point.lon.toFixed(6)}`);
      // baseline: a cheap route through the same edge and access gate, to tell the geocoder's cost from the platform's
      const baseline = ['/api/v1/geo/pluscode?lat=30.0626&lng=31.3219'];
      const queryTexts = queries.filter((query) => !query.pack).map((query) => query.query);
      const rows: [string, HttpLoadResult][] = [
        ['autocomplete', await load(base, typed)],
        ['autocomplete_moving_bias', await load(base, movingBiasPaths(queryTexts, 20_000))],
        ['reverse', await load(base, reverse)],
        ['baseline_pluscode', await load(base, baseline)],
      ];
      const sequential = {
        autocomplete: await sequentialLatency(base, typed),
        reverse: await sequentialLatency(base, reverse),
        baseline_pluscode: await sequentialLatency(base, baseline),
      };
      const memory = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((response) => response.text());
      const rss = /process_resident_memory_bytes (\d+)/.exec(memory)?.[1];
      console.log(
        conditions({
          benchmark: 'geocode HTTP',
          load: `${rows[0]![1].tool}, ${CONNECTIONS} connections, ${DURATION_SECONDS} s after ${WARMUP_SECONDS} s warm-up, ${CLIENTS} client addresses (X-Forwarded-For, trusted proxy)`,
          requests: `autocomplete: ${typed.length} eval-set queries in turn (answers cached after the first pass); autocomplete_moving_bias: the same queries with a new bias point each request (20 000 distinct, every one a search); reverse: ${reverse.length} points on named streets`,
          cpus: pinned,
          server: `${SERVER_PROCESSES > 1 ? `${SERVER_PROCESSES} processes on one port (REUSE_PORT) over Postgres, Redis and NATS` : '1 process, embedded stores'}; LOG_LEVEL=info (a log line per request), node args: ${process.env.BENCH_SERVER_NODE_ARGS || 'none'}`,
          serverRssMiB: rss ? round(Number(rss) / 2 ** 20, 1) : 'n/a',
        }),
      );
      console.log('route,req_per_s,p50_ms,p90_ms,p99_ms,non_2xx,errors,target_p99_ms,verdict');
      for (const [name, result] of rows) {
        console.log([name, Math.round(result.requestsPerSecond), round(result.p50Ms, 2), round(result.p90Ms, 2), round(result.p99Ms, 2), result.non2xx, result.errors, TARGET_P99_MS, result.p99Ms <= TARGET_P99_MS ? 'met' : 'missed'].join(','));
      }
      console.log(`# sequential: 1 connection, ${SEQUENTIAL_REQUESTS} requests after 300 warm-up, hrtime (service time without queueing)`);
      console.log('route,p50_ms,p99_ms,target_p99_ms,verdict');
      for (const [name, result] of Object.entries(sequential)) {
        console.log([name, round(result.p50Ms, 3), round(result.p99Ms, 3), TARGET_P99_MS, result.p99Ms <= TARGET_P99_MS ? 'met' : 'missed'].join(','));
      }
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
