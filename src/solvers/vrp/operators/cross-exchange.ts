import { arc, commitIfBetter, EPSILON, nodeAt, servedNeighbours, type MoveContext, type Operator, type Place } from './operator.js';

const MAX_SEGMENT = 3;

/**
 * Cross-exchange: swap a run of 1–3 jobs starting at u with a run of 1–3 jobs
 * just after a nearby job v in another route, so that u follows v.
 */
export const crossExchange: Operator = {
  name: 'cross-exchange',
  improveAround(context: MoveContext, u: number, { r: ru, route: a, i }: Place): boolean {
    const { inst, solution } = context;
    for (const { v, rv, j } of servedNeighbours(context, u)) {
      if (rv === ru) continue;
      const b = solution.routes[rv]!;
      for (let lengthA = 1; lengthA <= MAX_SEGMENT && i + lengthA <= a.length; lengthA++) {
        for (let lengthB = 1; lengthB <= MAX_SEGMENT && j + 1 + lengthB <= b.length; lengthB++) {
          if (lengthA === 1 && lengthB === 1) continue; // a swap
          const aBefore = nodeAt(inst, a, i - 1);
          const aHead = inst.location[u]!;
          const aTail = nodeAt(inst, a, i + lengthA - 1);
          const aAfter = nodeAt(inst, a, i + lengthA);
          const bBefore = inst.location[v]!;
          const bHead = nodeAt(inst, b, j + 1);
          const bTail = nodeAt(inst, b, j + lengthB);
          const bAfter = nodeAt(inst, b, j + lengthB + 1);
          const delta =
            arc(inst, aBefore, bHead) + arc(inst, bTail, aAfter) + arc(inst, bBefore, aHead) + arc(inst, aTail, bAfter) -
            arc(inst, aBefore, aHead) - arc(inst, aTail, aAfter) - arc(inst, bBefore, bHead) - arc(inst, bTail, bAfter);
          if (delta >= -EPSILON) continue;
          const runA = a.jobs.slice(i, i + lengthA);
          const runB = b.jobs.slice(j + 1, j + 1 + lengthB);
          const first = [...a.jobs.slice(0, i), ...runB, ...a.jobs.slice(i + lengthA)];
          const second = [...b.jobs.slice(0, j + 1), ...runA, ...b.jobs.slice(j + 1 + lengthB)];
          if (commitIfBetter(context, [[ru, first], [rv, second]])) return true;
        }
      }
    }
    return false;
  },
};
