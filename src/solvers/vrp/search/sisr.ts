import { Random } from '../../random.js';
import type { Instance } from '../structures/instance.js';
import type { RouteChecker } from '../structures/route-check.js';
import type { Solution } from '../structures/solution.js';
import { recreate } from './recreate.js';
import { DEFAULT_RUIN, removeStrings, type RuinParameters } from './string-removal.js';

export interface AnnealingOptions {
  seed: number;
  timeLimitMs: number;
  maxIterations?: number;
  /** Stops after this many iterations without a new best (a small plan has nothing left to find long before its budget ends). */
  stagnationLimit?: number;
  /** Start and final temperature as fractions of the instance's typical arc cost. */
  startTemperature?: number;
  finalTemperature?: number;
  blinkRate?: number;
  ruin?: RuinParameters;
  /** Local search applied to every new best solution (returns true if it improved it). */
  improve?: (solution: Solution) => boolean;
  /** Monotonic clock in ms (the solver stays free of I/O; time is its only input from outside). */
  now?: () => number;
}

export interface AnnealingOutcome {
  best: Solution;
  iterations: number;
}

/**
 * Ruin (string removals) and recreate (greedy with blinks) under simulated
 * annealing acceptance, the temperature falling geometrically with the share of
 * the budget used (time, or iterations when a cap is set).
 */
export function annealStrings(inst: Instance, checker: RouteChecker, initial: Solution, options: AnnealingOptions): AnnealingOutcome {
  const random = new Random(options.seed);
  const now = options.now ?? (() => performance.now());
  const began = now();
  const t0 = (options.startTemperature ?? 0.1) * inst.costScale;
  const tf = (options.finalTemperature ?? 0.001) * inst.costScale;
  const blink = options.blinkRate ?? 0.01;
  const ruin = options.ruin ?? DEFAULT_RUIN;
  const maxIterations = options.maxIterations ?? Infinity;
  const stagnationLimit = options.stagnationLimit ?? Infinity;
  let current = initial;
  let currentCost = current.cost(inst);
  let best = current.copy();
  let bestCost = currentCost;
  let iterations = 0;
  let progress = 0;
  let lastImproved = -Infinity;
  let lastBest = 0;
  const improveEvery = Math.max(1, Math.floor(inst.jobCount / 100));
  while (iterations < maxIterations && iterations - lastBest < stagnationLimit && inst.jobCount > 0) {
    if ((iterations & 15) === 0) {
      const elapsed = now() - began;
      if (elapsed >= options.timeLimitMs) break;
      // With an iteration cap the schedule follows iterations only, so a seed reproduces the run exactly.
      progress = Number.isFinite(maxIterations) ? iterations / maxIterations : elapsed / options.timeLimitMs;
    }
    iterations++;
    const temperature = t0 * Math.pow(tf / t0, progress);
    const candidate = current.copy();
    const removed = removeStrings(inst, candidate, random, ruin);
    recreate(inst, checker, candidate, [...removed, ...candidate.unassigned], random, blink);
    const cost = candidate.cost(inst);
    if (cost < currentCost - temperature * Math.log(random.next())) {
      current = candidate;
      currentCost = cost;
      if (cost < bestCost - 1e-9) {
        // Local search on new bests, on large plans at most every few iterations: early on nearly every iteration
        // is a new best, and a full descent on a 500-stop plan costs far more than a ruin-and-recreate step.
        if (iterations - lastImproved >= improveEvery) {
          lastImproved = iterations;
          if (options.improve?.(current)) currentCost = current.cost(inst);
        }
        best = current.copy();
        bestCost = currentCost;
        lastBest = iterations;
      }
    }
  }
  if (lastImproved < iterations && options.improve?.(best)) bestCost = best.cost(inst);
  return { best, iterations };
}
