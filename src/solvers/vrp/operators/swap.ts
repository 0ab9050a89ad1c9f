import { arc, commitIfBetter, EPSILON, nodeAt, servedNeighbours, type MoveContext, type Operator, type Place } from './operator.js';

/** Swap: exchange job u with the job just after or before a nearby job v, so u lands next to v. */
export const swap: Operator = {
  name: 'swap',
  improveAround(context: MoveContext, u: number, { r: ru, route: a, i }: Place): boolean {
    const { inst, solution } = context;
    for (const { rv, j } of servedNeighbours(context, u)) {
      const b = solution.routes[rv]!;
      for (const k of [j + 1, j - 1]) {
        if (k < 0 || k >= b.length) continue;
        const w = b.jobs[k]!;
        if (w === u || (rv === ru && Math.abs(k - i) < 2)) continue;
        const uAt = inst.location[u]!;
        const wAt = inst.location[w]!;
        const delta =
          arc(inst, nodeAt(inst, a, i - 1), wAt) + arc(inst, wAt, nodeAt(inst, a, i + 1)) - arc(inst, nodeAt(inst, a, i - 1), uAt) - arc(inst, uAt, nodeAt(inst, a, i + 1)) +
          arc(inst, nodeAt(inst, b, k - 1), uAt) + arc(inst, uAt, nodeAt(inst, b, k + 1)) - arc(inst, nodeAt(inst, b, k - 1), wAt) - arc(inst, wAt, nodeAt(inst, b, k + 1));
        if (delta >= -EPSILON) continue;
        if (rv === ru) {
          const jobs = a.jobs.slice();
          jobs[i] = w;
          jobs[k] = u;
          if (commitIfBetter(context, [[ru, jobs]])) return true;
        } else {
          const first = a.jobs.slice();
          first[i] = w;
          const second = b.jobs.slice();
          second[k] = u;
          if (commitIfBetter(context, [[ru, first], [rv, second]])) return true;
        }
      }
    }
    return false;
  },
};
