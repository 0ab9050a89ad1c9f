/**
 * Exact bin packing on Falkenauer's u120 set (20 instances, 120 items, capacity
 * 150): bins used vs best known, lower bound, proof, search nodes and time.
 * Target: optimal on 20/20, each under 1 s. Then generated u250/u500 instances
 * (issue 34), in process and through POST /optimize/binpack (set
 * BENCH_BINPACK_API=0 to skip the server run).
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { solveBinPack } from '../src/solvers/binpack/solve.js';
import { readOrLibraryBinPacking } from './falkenauer.js';
import { generatedUniform, independentL2, verifyPacking as checkPacking } from '../test/support/binpack-instances.js';
import { clientAddress, conditions, freePort, pinLoadGenerator, processCpuMs, round, startProcess } from './support.js';

const productMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const FILE = fileURLToPath(new URL('../../../shared/data/benchmarks/binpacking-falkenauer/binpack1_u120.txt', import.meta.url));

export async function runBinPackBenchmark(): Promise<void> {
  const instances = readOrLibraryBinPacking(FILE);
  console.log(
    conditions({
      benchmark: 'binpack (Falkenauer u120, OR-Library binpack1; solver in the bench process, one thread)',
      note: 'machine shared with other engineers while measured; times may be pessimistic',
      'load average at start (1/5/15 min)': loadavg().map((value) => value.toFixed(1)).join(' / '),
    }),
  );
  console.log('instance,items,capacity,bins_used,best_known,lower_bound,proven_optimal,nodes,time_ms');
  let proven = 0;
  let atBestKnown = 0;
  let belowBestKnown = 0;
  let slowest = 0;
  for (const instance of instances) {
    const began = performance.now();
    const result = solveBinPack({ itemWeights: instance.weights, binCapacities: instance.weights.map(() => instance.capacity) });
    const ms = performance.now() - began;
    slowest = Math.max(slowest, ms);
    verifyPacking(instance.weights, instance.capacity, result.assignment, result.binsUsed, instance.name);
    if (result.optimal) proven++;
    if (result.binsUsed === instance.bestKnown) atBestKnown++;
    if (result.binsUsed < instance.bestKnown) belowBestKnown++;
    console.log([instance.name, instance.weights.length, instance.capacity, result.binsUsed, instance.bestKnown, result.lowerBound, result.optimal, result.nodes, round(ms)].join(','));
  }
  console.log(`# proven optimal (lower bound met): ${proven}/${instances.length}; equal to the file's best known: ${atBestKnown}, fewer bins than it: ${belowBestKnown} (packings verified); slowest ${round(slowest)} ms`);
  runGeneratedUniform();
  if (process.env.BENCH_BINPACK_API !== '0') await runGeneratedThroughApi();
}

/** Generated (seeded, not OR-Library) uniform instances, 250 and 500 items, seeds 1–100: bins vs an independent L2. */
function runGeneratedUniform(): void {
  console.log('instance,items,bins_used,l2,lower_bound,proven_optimal,exact_nodes,pool_work,lp_work,time_ms');
  for (const items of [250, 500]) {
    let atBound = 0;
    let proven = 0;
    let slowest = 0;
    let total = 0;
    let mostWork = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const instance = generatedUniform(items, seed);
      const began = performance.now();
      const result = solveBinPack({ itemWeights: instance.weights, binCapacities: instance.weights.map(() => instance.capacity) });
      const ms = performance.now() - began;
      checkPacking(instance.weights, instance.capacity, result.assignment, result.binsUsed, instance.name);
      const bound = independentL2(instance.weights, instance.capacity);
      if (result.binsUsed === bound) atBound++;
      if (result.optimal) proven++;
      slowest = Math.max(slowest, ms);
      mostWork = Math.max(mostWork, result.lpWork);
      total += ms;
      console.log([instance.name, items, result.binsUsed, bound, result.lowerBound, result.optimal, result.nodes, result.work, result.lpWork, round(ms)].join(','));
    }
    console.log(`# generated u${items}: proven optimal ${proven}/100, bins = L2 on ${atBound}/100; mean ${round(total / 100)} ms, slowest ${round(slowest)} ms; most LP work ${mostWork}`);
  }
}

/**
 * The same generated instances through the API: POST /optimize/binpack on a server (one worker thread, embedded
 * store), one request at a time; wall time per request at the client and the server process's CPU per request.
 */
async function runGeneratedThroughApi(): Promise<void> {
  const pinned = pinLoadGenerator();
  const port = await freePort();
  const server = await startProcess(productMain, [], port, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: 'memory://', LOG_LEVEL: 'info', TRUSTED_PROXIES: '127.0.0.1', WORKER_THREADS: '1' });
  const base = `http://127.0.0.1:${port}/api/v1`;
  let counter = 0;
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': clientAddress(++counter), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  try {
    const registered = await post('/auth/register', { email: `bench.binpack.${process.pid}@example.jo`, password: 'benchmark-password' });
    const token = registered.body.accessToken as string;
    // Warm-up: the worker's first solve compiles the solver.
    for (let seed = 101; seed <= 103; seed++) {
      const warm = generatedUniform(250, seed);
      await post('/optimize/binpack', { itemWeights: warm.weights, binCapacities: warm.weights.map(() => warm.capacity) }, token);
    }
    console.log(
      conditions({
        benchmark: 'binpack through the API (POST /optimize/binpack), generated u250/u500 seeds 1-100',
        pinning: pinned,
        server: 'one process, one solver worker thread, embedded store; requests one at a time after 3 warm-up solves (seeds 101-103)',
        'load average at start (1/5/15 min)': loadavg().map((value) => value.toFixed(1)).join(' / '),
      }),
    );
    console.log('instance,status,bins_used,lower_bound,optimal,wall_ms,server_cpu_ms');
    for (const items of [250, 500]) {
      const walls: number[] = [];
      const cpus: number[] = [];
      let proven = 0;
      for (let seed = 1; seed <= 100; seed++) {
        const instance = generatedUniform(items, seed);
        const cpuBefore = processCpuMs(server.child.pid!) ?? NaN;
        const began = performance.now();
        const response = await post('/optimize/binpack', { itemWeights: instance.weights, binCapacities: instance.weights.map(() => instance.capacity) }, token);
        const wall = performance.now() - began;
        const cpu = (processCpuMs(server.child.pid!) ?? NaN) - cpuBefore;
        const body = response.body as { binsUsed: number; lowerBound: number; optimal: boolean; assignment: number[] };
        if (response.status !== 201) throw new Error(`${instance.name}: ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
        checkPacking(instance.weights, instance.capacity, body.assignment, body.binsUsed, instance.name);
        if (body.optimal && body.binsUsed === body.lowerBound) proven++;
        walls.push(wall);
        cpus.push(cpu);
        console.log([instance.name, response.status, body.binsUsed, body.lowerBound, body.optimal, round(wall), round(cpu, 0)].join(','));
      }
      const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
      console.log(
        `# API u${items}: proven optimal ${proven}/100; wall mean ${round(mean(walls))} ms, max ${round(Math.max(...walls))} ms, over 1 s: ${walls.filter((ms) => ms > 1000).length}; server CPU mean ${round(mean(cpus))} ms, max ${round(Math.max(...cpus))} ms`,
      );
    }
  } finally {
    await server.stop();
  }
}

/** Every item in one bin, no bin over capacity, the reported count right: checked apart from the solver. */
function verifyPacking(weights: readonly number[], capacity: number, assignment: readonly number[], binsUsed: number, name: string): void {
  const loads = new Map<number, number>();
  weights.forEach((weight, item) => {
    const bin = assignment[item]!;
    if (!(bin >= 0)) throw new Error(`${name}: item ${item} not packed`);
    loads.set(bin, (loads.get(bin) ?? 0) + weight);
  });
  if (loads.size !== binsUsed) throw new Error(`${name}: ${loads.size} bins hold items, ${binsUsed} reported`);
  for (const [bin, load] of loads) if (load > capacity) throw new Error(`${name}: bin ${bin} holds ${load} > ${capacity}`);
}
