import { arc, commitIfBetter, EPSILON, nodeAt, servedNeighbours, type MoveContext, type Operator, type Place } from './operator.js';

/** Relocate: move job u next to (after or before) a nearby job v, in its route or another. */
export const relocate: Operator = {
  name: 'relocate',
  improveAround(context: MoveContext, u: number, { r: ru, route: from, i }: Place): boolean {
    const { inst, solution } = context;
    const here = inst.location[u]!;
    const before = nodeAt(inst, from, i - 1);
    const after = nodeAt(inst, from, i + 1);
    const gain = arc(inst, before, here) + arc(inst, here, after) - arc(inst, before, after);
    for (const { rv, j } of servedNeighbours(context, u)) {
      const to = solution.routes[rv]!;
      for (const at of [j + 1, j]) {
        // Insert between positions at−1 and at of the target route.
        if (rv === ru && (at === i || at === i + 1)) continue;
        const left = nodeAt(inst, to, at - 1);
        const right = nodeAt(inst, to, at);
        const added = arc(inst, left, here) + arc(inst, here, right) - arc(inst, left, right);
        if (added - gain >= -EPSILON) continue;
        if (rv === ru) {
          const jobs = from.jobs.slice();
          jobs.splice(i, 1);
          jobs.splice(at > i ? at - 1 : at, 0, u);
          if (commitIfBetter(context, [[ru, jobs]])) return true;
        } else {
          const source = from.jobs.filter((job) => job !== u);
          const target = [...to.jobs.slice(0, at), u, ...to.jobs.slice(at)];
          if (commitIfBetter(context, [[ru, source], [rv, target]])) return true;
        }
      }
    }
    return false;
  },
};
