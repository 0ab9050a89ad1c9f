import { arc, commitIfBetter, EPSILON, nodeAt, servedNeighbours, type MoveContext, type Operator, type Place } from './operator.js';

/** Or-opt: move a run of 2 or 3 jobs starting at u, kept or reversed, to just after a nearby job v. */
export const orOpt: Operator = {
  name: 'or-opt',
  improveAround(context: MoveContext, u: number, { r: ru, route: from, i }: Place): boolean {
    const { inst, solution } = context;
    for (let length = 2; length <= 3; length++) {
      if (i + length > from.length) break;
      const run = from.jobs.slice(i, i + length);
      const head = inst.location[run[0]!]!;
      const tail = inst.location[run[length - 1]!]!;
      const before = nodeAt(inst, from, i - 1);
      const after = nodeAt(inst, from, i + length);
      const gain = arc(inst, before, head) + arc(inst, tail, after) - arc(inst, before, after);
      for (const { v, rv, j } of servedNeighbours(context, u)) {
        if (rv === ru && j >= i - 1 && j < i + length) continue;
        const to = solution.routes[rv]!;
        const left = inst.location[v]!;
        const right = nodeAt(inst, to, j + 1);
        // Reversed, the run ends at u, which then sits next to v's successor; kept, it starts at u right after v.
        for (const reversed of [false, true]) {
          const first = reversed ? tail : head;
          const last = reversed ? head : tail;
          const added = arc(inst, left, first) + arc(inst, last, right) - arc(inst, left, right);
          if (added - gain >= -EPSILON) continue;
          const moved = reversed ? run.slice().reverse() : run;
          if (rv === ru) {
            const rest = from.jobs.filter((_, k) => k < i || k >= i + length);
            const at = rest.indexOf(v) + 1;
            if (commitIfBetter(context, [[ru, [...rest.slice(0, at), ...moved, ...rest.slice(at)]]])) return true;
          } else {
            const source = [...from.jobs.slice(0, i), ...from.jobs.slice(i + length)];
            const target = [...to.jobs.slice(0, j + 1), ...moved, ...to.jobs.slice(j + 1)];
            if (commitIfBetter(context, [[ru, source], [rv, target]])) return true;
          }
        }
      }
    }
    return false;
  },
};
