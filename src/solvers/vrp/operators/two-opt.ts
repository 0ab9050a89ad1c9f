import { arc, commitIfBetter, EPSILON, nodeAt, servedNeighbours, type MoveContext, type Operator, type Place } from './operator.js';

/** 2-opt: within one route, reverse the part between u and a nearby job v so that they become adjacent. */
export const twoOpt: Operator = {
  name: '2-opt',
  improveAround(context: MoveContext, u: number, { r: r, route: route, i }: Place): boolean {
    const { inst } = context;
    for (const { rv, j } of servedNeighbours(context, u)) {
      if (rv !== r || Math.abs(i - j) < 2) continue;
      // Reverse positions first+1 .. last: arcs (first, last) and (first+1, last+1) replace (first, first+1) and (last, last+1).
      const first = Math.min(i, j);
      const last = Math.max(i, j);
      const delta =
        arc(inst, nodeAt(inst, route, first), nodeAt(inst, route, last)) +
        arc(inst, nodeAt(inst, route, first + 1), nodeAt(inst, route, last + 1)) -
        arc(inst, nodeAt(inst, route, first), nodeAt(inst, route, first + 1)) -
        arc(inst, nodeAt(inst, route, last), nodeAt(inst, route, last + 1));
      if (delta >= -EPSILON) continue;
      const jobs = [...route.jobs.slice(0, first + 1), ...route.jobs.slice(first + 1, last + 1).reverse(), ...route.jobs.slice(last + 1)];
      if (commitIfBetter(context, [[r, jobs]])) return true;
    }
    return false;
  },
};
