/**
 * Exact bin packing on Falkenauer's u120 set (20 instances, 120 items, capacity
 * 150): bins used vs best known, lower bound, proof, search nodes and time.
 * Target: optimal on 20/20, each under 1 s.
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { solveBinPack } from '../src/solvers/binpack/solve.js';
import { readOrLibraryBinPacking } from './falkenauer.js';
import { generatedUniform, independentL2, verifyPacking as checkPacking } from '../test/support/binpack-instances.js';
import { conditions, round } from './support.js';

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
}

/** Generated (seeded, not OR-Library) uniform instances, 250 and 500 items, seeds 1–100: bins vs an independent L2. */
function runGeneratedUniform(): void {
  console.log('instance,items,bins_used,l2,proven_optimal,exact_nodes,pool_work,time_ms');
  for (const items of [250, 500]) {
    let atBound = 0;
    let slowest = 0;
    let total = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const instance = generatedUniform(items, seed);
      const began = performance.now();
      const result = solveBinPack({ itemWeights: instance.weights, binCapacities: instance.weights.map(() => instance.capacity) });
      const ms = performance.now() - began;
      checkPacking(instance.weights, instance.capacity, result.assignment, result.binsUsed, instance.name);
      const bound = independentL2(instance.weights, instance.capacity);
      if (result.binsUsed === bound) atBound++;
      slowest = Math.max(slowest, ms);
      total += ms;
      console.log([instance.name, items, result.binsUsed, bound, result.optimal, result.nodes, result.work, round(ms)].join(','));
    }
    console.log(`# generated u${items}: bins = L2 on ${atBound}/100; mean ${round(total / 100)} ms, slowest ${round(slowest)} ms`);
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
