/**
 * Vector tiles benchmark (`npm run bench -- tiles`), issue #25:
 *  1. uncached tile encode in a solver worker (target z14 p50 ≤ 5 ms): every tile of the default pack's
 *     box at z12–14, 20 rounds (the pool has no cache: every run encodes), time measured inside the worker;
 *  2. bytes per tile by zoom (raw MVT, Brotli, gzip) over the box's tiles;
 *  3. time to pre-render the box's tiles z0–14 on one and on two workers;
 *  4. a cached tile over HTTP at 32 connections against GET /health in the same run (target ≥ 50 %).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MapPack } from '../src/datapack/map-pack.js';
import { ingestToFile } from '../src/ingest/ingest.js';
import { DEFAULT_DATASET, defaultPackPath } from '../src/services/map-data/map-data-source.js';
import { zoomRanges } from '../src/services/tiles/offline-regions.js';
import { SolverPool } from '../src/solvers/solver-pool.js';
import { httpLoad } from './wrk.js';
import { conditions, freePort, pinLoadGenerator, processCpuMs, round, startProcess } from './support.js';

const productMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const workerFile = fileURLToPath(new URL('../../dist/solvers/worker.js', import.meta.url));
const TARGET_Z14_P50_MS = 5;
const TARGET_CACHED_SHARE = 0.5;
const ROUNDS = 20;
const CONNECTIONS = 32;
const DURATION_SECONDS = 10;
const ADDRESSES = 4096;

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;

export async function runTilesBenchmark(): Promise<void> {
  const pinned = pinLoadGenerator();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-tiles-'));
  try {
    // the server's embedded default, built where a server on this DATA_DIR finds it (compiled to dist-bench/, this
    // module cannot reach data/ through DEFAULT_DATASET's own paths)
    const repoData = fileURLToPath(new URL('../../data/', import.meta.url));
    const packPath = defaultPackPath(dataDir);
    await ingestToFile(
      { input: join(repoData, 'osm', DEFAULT_DATASET.osm.split('/').pop()!), admin: DEFAULT_DATASET.admin.map((input) => ({ ...input, path: join(repoData, 'boundaries/jordan-admin', input.path.split('/').pop()!) })) },
      packPath,
    );
    const pack = MapPack.load(packPath);
    const bbox = pack.header.bbox!;
    const ranges = zoomRanges(bbox, 0, 14);
    const tilesOf = (z: number) => {
      const range = ranges[z]!;
      const tiles: [number, number, number][] = [];
      for (let x = range.minX; x <= range.maxX; x++) for (let y = range.minY; y <= range.maxY; y++) tiles.push([z, x, y]);
      return tiles;
    };

    // 1 and 2: encode in one worker
    const pool = new SolverPool({ threads: 1, workerFile, shared: { mapPack: pack.buffer as SharedArrayBuffer } });
    const built = performance.now();
    await pool.run('tileCoverage', undefined);
    const sourceMs = performance.now() - built;
    const encodeRows: string[] = [];
    const sizeRows: string[] = [];
    for (const z of [0, 6, 8, 10, 11, 12, 13, 14]) {
      const tiles = tilesOf(z);
      const encodeMs: number[] = [];
      const roundTripMs: number[] = [];
      const sizes = { raw: 0, brotli: 0, gzip: 0, max: 0 };
      for (let round_ = 0; round_ < (z >= 12 ? ROUNDS : 3); round_++) {
        for (const [tz, x, y] of tiles) {
          const started = performance.now();
          const result = await pool.run('vectorTile', { z: tz, x, y, watermark: false });
          roundTripMs.push(performance.now() - started);
          if (!result.ok) throw new Error(result.code);
          encodeMs.push(result.value.encodeMs);
          if (round_ === 0) {
            sizes.raw += result.value.raw.byteLength;
            sizes.brotli += result.value.brotli.byteLength;
            sizes.gzip += result.value.gzip.byteLength;
            sizes.max = Math.max(sizes.max, result.value.raw.byteLength);
          }
        }
      }
      // the first round warms the worker's JIT: percentiles over the rest
      const warm = (values: number[]) => (values.length > tiles.length ? values.slice(tiles.length) : values).sort((a, b) => a - b);
      const encode = warm(encodeMs);
      const trip = warm(roundTripMs);
      const verdict = z === 14 ? (percentile(encode, 0.5) <= TARGET_Z14_P50_MS ? 'met' : 'missed') : '';
      encodeRows.push([z, tiles.length, round(percentile(encode, 0.5), 2), round(percentile(encode, 0.99), 2), round(percentile(trip, 0.5), 2), round(percentile(trip, 0.99), 2), z === 14 ? TARGET_Z14_P50_MS : '', verdict].join(','));
      sizeRows.push([z, tiles.length, round(sizes.raw / tiles.length, 0), round(sizes.brotli / tiles.length, 0), round(sizes.gzip / tiles.length, 0), sizes.max].join(','));
    }
    await pool.close();

    // 3: pre-render everything of the box, z0–14, once per pool size (fresh pools: nothing warm)
    const allTiles = ranges.flatMap((range) => tilesOf(range.z));
    const prerender: string[] = [];
    for (const threads of [1, 2]) {
      const fresh = new SolverPool({ threads, minThreads: threads, workerFile, shared: { mapPack: pack.buffer as SharedArrayBuffer } });
      const started = performance.now();
      await Promise.all(allTiles.map(([z, x, y]) => fresh.run('vectorTile', { z, x, y, watermark: false })));
      prerender.push(`${threads},${allTiles.length},${round(performance.now() - started, 0)}`);
      await fresh.close();
    }

    console.log(
      conditions({
        benchmark: 'tiles encode in a solver worker',
        pack: `${pack.header.source.name}: ${pack.featureCount} features, ${pack.edgeCount} edges; box ${bbox.join(',')}`,
        timing: `encode_ms inside the worker (cut, clip, simplify, MVT; not compression); round_trip_ms includes Brotli q5 + gzip 6 and the pool hop; z12–14 ${ROUNDS} rounds over every tile of the box, first round left out (JIT warm-up)`,
        tile_source_build_ms: round(sourceMs, 0),
      }),
    );
    console.log('z,tiles,encode_p50_ms,encode_p99_ms,round_trip_p50_ms,round_trip_p99_ms,target_p50_ms,verdict');
    for (const row of encodeRows) console.log(row);
    console.log('# bytes per tile over the box: z,tiles,raw_mean,brotli_mean,gzip_mean,raw_max');
    for (const row of sizeRows) console.log(`# ${row}`);
    console.log('# pre-render of the box z0–14 (fresh workers, JIT cold): threads,tiles,wall_ms');
    for (const row of prerender) console.log(`# ${row}`);

    // 4: a cached tile over HTTP against /health, same server, same run
    const port = await freePort();
    const server = await startProcess(productMain, [], port, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', TRUSTED_PROXIES: '127.0.0.1', DATABASE_URL: '', REDIS_URL: '', NATS_URL: '' });
    try {
      const z14Paths = tilesOf(14).map(([z, x, y]) => `/api/v1/tiles/vector/svc/planet/${z}/${x}/${y}.pbf`);
      // the box's middle z14 tile is its densest (worst case); the whole z14 view is what a map in the browser asks for
      const tilePath = z14Paths[Math.floor(z14Paths.length / 2)]!;
      // the bytes on the wire (fetch hands back the decoded body)
      const wireBytes = async (path: string) => {
        const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'accept-encoding': 'br' } });
        await response.arrayBuffer();
        return Number(response.headers.get('content-length') ?? 0);
      };
      let viewBytes = 0;
      for (const path of z14Paths) viewBytes += await wireBytes(path);
      const tileBytes = await wireBytes(tilePath);
      // wrk when installed (C; autocannon saturates its own core long before the server on a 33 KB body), each
      // request from one of ADDRESSES client addresses behind the trusted proxy, as production would see them
      const load = async (paths: string[]) => {
        let cpuBefore: number | undefined;
        const result = await httpLoad({
          url: `http://127.0.0.1:${port}`,
          paths,
          headers: { 'accept-encoding': 'br' },
          connections: CONNECTIONS,
          durationSeconds: DURATION_SECONDS,
          warmupSeconds: 2,
          clients: ADDRESSES,
          beforeMeasuring: () => {
            cpuBefore = processCpuMs(server.child.pid!);
          },
        });
        const cpuAfter = processCpuMs(server.child.pid!);
        const cpuPerRequest = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / Math.max(1, result.requests);
        return { tool: result.tool, rps: result.requestsPerSecond, p50: result.p50Ms, p99: result.p99Ms, non2xx: result.non2xx + result.errors, cpuPerRequest };
      };
      const health = await load(['/health']);
      const tile = await load([tilePath]);
      const view = await load(z14Paths);
      console.log(
        conditions({
          benchmark: 'cached vector tile over HTTP',
          load: `${tile.tool}, ${CONNECTIONS} connections, ${DURATION_SECONDS} s after 2 s warm-up, Accept-Encoding: br, ${ADDRESSES} client addresses (X-Forwarded-For)`,
          tile: `${tilePath} (no key: the watermarked tile, ${tileBytes} B br), already cached`,
          view: `the box's ${z14Paths.length} z14 tiles in turn (mean ${round(viewBytes / z14Paths.length, 0)} B br), already cached`,
          cpus: pinned,
        }),
      );
      console.log(`# load average at the end: ${loadavg().map((value) => value.toFixed(2)).join(' ')} (other processes share both CPUs)`);
      console.log('route,req_per_s,p50_ms,p99_ms,non_2xx,server_cpu_ms_per_request');
      console.log(['health', round(health.rps, 0), health.p50, health.p99, health.non2xx, health.cpuPerRequest === undefined ? '' : round(health.cpuPerRequest, 4)].join(','));
      console.log(['tile_cached_densest', round(tile.rps, 0), tile.p50, tile.p99, tile.non2xx, tile.cpuPerRequest === undefined ? '' : round(tile.cpuPerRequest, 4)].join(','));
      console.log(['tile_cached_z14_view', round(view.rps, 0), view.p50, view.p99, view.non2xx, view.cpuPerRequest === undefined ? '' : round(view.cpuPerRequest, 4)].join(','));
      for (const [name, row] of [['densest_tile', tile], ['z14_view', view]] as const) {
        const share = row.rps / health.rps;
        console.log(`ratio,${name}_over_health,${round(share)},target >= ${TARGET_CACHED_SHARE},${share >= TARGET_CACHED_SHARE ? 'met' : 'missed'}`);
      }
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
