import type { Random } from '../../random.js';
import type { Instance } from '../structures/instance.js';
import type { Solution } from '../structures/solution.js';

/** SISR ruin parameters (Christiaens & Vanden Berghe 2020, Table 4). */
export interface RuinParameters {
  /** Average number of removed jobs (c̄). */
  averageRemoved: number;
  /** Longest string (L^max). */
  maxStringLength: number;
  /** Probability of the split-string variant. */
  splitRate: number;
  /** Probability to stop growing the kept part of a split string. */
  splitDepth: number;
}

export const DEFAULT_RUIN: RuinParameters = { averageRemoved: 10, maxStringLength: 10, splitRate: 0.5, splitDepth: 0.01 };

/**
 * Slack induction by string removals: around a random seed job, remove one
 * string (or a string with a kept middle part) from each of a few routes met in
 * order of nearness to the seed. Pairs leave together. Returns the removed jobs.
 */
export function removeStrings(inst: Instance, solution: Solution, random: Random, parameters: RuinParameters): number[] {
  const removed: number[] = [];
  let served = 0;
  let used = 0;
  for (const route of solution.routes) {
    if (route.length) {
      served += route.length;
      used++;
    }
  }
  if (served === 0) return removed;
  const averageLength = served / used;
  const stringCap = Math.min(parameters.maxStringLength, averageLength);
  const maxStrings = (4 * parameters.averageRemoved) / (1 + stringCap) - 1;
  const strings = Math.floor(random.next() * maxStrings) + 1;
  const seed = pickServedJob(inst, solution, random);
  const touched = new Set<number>();
  const marked = new Uint8Array(inst.jobCount);
  const mark = (job: number): void => {
    if (marked[job] || solution.jobRoute[job]! < 0) return;
    marked[job] = 1;
    removed.push(job);
  };
  const visit = (job: number): boolean => {
    const r = solution.jobRoute[job]!;
    if (r < 0 || touched.has(r)) return touched.size < strings;
    touched.add(r);
    const jobs = solution.routes[r]!.jobs;
    const length = Math.floor(random.next() * Math.min(jobs.length, stringCap)) + 1;
    const taken =
      length < jobs.length && random.next() < parameters.splitRate
        ? splitString(jobs, job, length, random, parameters.splitDepth)
        : string(jobs, job, length, random);
    for (const gone of taken) {
      mark(gone);
      const partner = inst.partner[gone]!;
      if (partner >= 0) mark(partner);
    }
    return touched.size < strings;
  };
  if (visit(seed)) {
    const base = seed * inst.neighbourCount;
    for (let k = 0; k < inst.neighbourCount; k++) if (!visit(inst.neighbours[base + k]!)) break;
  }
  const changed = new Set<number>();
  for (const job of removed) changed.add(solution.jobRoute[job]!);
  for (const job of removed) solution.jobRoute[job] = -1;
  for (const r of changed) solution.setJobs(inst, r, solution.routes[r]!.jobs.filter((job) => !marked[job]));
  return removed;
}

function pickServedJob(inst: Instance, solution: Solution, random: Random): number {
  for (let tries = 0; tries < 32; tries++) {
    const job = random.int(inst.jobCount);
    if (solution.jobRoute[job]! >= 0) return job;
  }
  for (let job = 0; job < inst.jobCount; job++) if (solution.jobRoute[job]! >= 0) return job;
  return 0;
}

/** A string of `length` consecutive jobs containing `job`. */
function string(jobs: readonly number[], job: number, length: number, random: Random): number[] {
  const at = jobs.indexOf(job);
  const first = Math.max(0, at - length + 1);
  const last = Math.min(at, jobs.length - length);
  const begin = first + random.int(last - first + 1);
  return jobs.slice(begin, begin + length);
}

/** A string of `length` + kept jobs containing `job`, removing all but a kept run in its middle. */
function splitString(jobs: readonly number[], job: number, length: number, random: Random, depth: number): number[] {
  let kept = 1;
  while (length + kept < jobs.length && random.next() > depth && random.next() < 0.5) kept++;
  const window = string(jobs, job, length + kept, random);
  const keepFrom = random.int(length + 1);
  return [...window.slice(0, keepFrom), ...window.slice(keepFrom + kept)];
}
