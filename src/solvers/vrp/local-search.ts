import { placeOf, type MoveContext, type Operator } from './operators/operator.js';
import { crossExchange } from './operators/cross-exchange.js';
import { orOpt } from './operators/or-opt.js';
import { relocate } from './operators/relocate.js';
import { swap } from './operators/swap.js';
import { twoOpt } from './operators/two-opt.js';
import { twoOptStar } from './operators/two-opt-star.js';
import type { Instance } from './structures/instance.js';
import type { RouteChecker } from './structures/route-check.js';
import type { Solution } from './structures/solution.js';

export const OPERATORS: readonly Operator[] = [relocate, swap, twoOpt, twoOptStar, orOpt, crossExchange];

const BREADTH = 12;
const MAX_ROUNDS = 50;

/** First-improvement descent over all operators around every served job, to a local optimum (or MAX_ROUNDS rounds). */
export class LocalSearch {
  constructor(
    private readonly inst: Instance,
    private readonly checker: RouteChecker,
    private readonly operators: readonly Operator[] = OPERATORS,
  ) {}

  /** `deadline`: a performance.now() time after which the descent stops where it is (the plan stays valid). */
  improve(solution: Solution, deadline = Infinity): boolean {
    const context: MoveContext = { inst: this.inst, checker: this.checker, solution, breadth: BREADTH };
    let improvedAny = false;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let improved = false;
      for (let u = 0; u < this.inst.jobCount; u++) {
        if ((u & 15) === 0 && performance.now() > deadline) return improvedAny || improved;
        for (const operator of this.operators) {
          for (let place = placeOf(context, u); place && operator.improveAround(context, u, place); place = placeOf(context, u)) improved = true;
        }
      }
      if (!improved) break;
      improvedAny = true;
    }
    return improvedAny;
  }
}
