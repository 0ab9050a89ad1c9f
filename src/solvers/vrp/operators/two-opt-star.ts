import { arc, commitIfBetter, EPSILON, nodeAt, servedNeighbours, type MoveContext, type Operator, type Place } from './operator.js';

/** 2-opt*: exchange the tails of two routes so that u is followed by a nearby job v of the other route. */
export const twoOptStar: Operator = {
  name: '2-opt*',
  improveAround(context: MoveContext, u: number, { r: ru, route: a, i }: Place): boolean {
    const { inst, solution } = context;
    for (const { v, rv, j } of servedNeighbours(context, u)) {
      if (rv === ru) continue;
      const b = solution.routes[rv]!;
      // a[0..i] + b[j..] and b[0..j-1] + a[i+1..]; route ends stay with their vehicles.
      const delta =
        arc(inst, inst.location[u]!, inst.location[v]!) +
        arc(inst, nodeAt(inst, b, j - 1), nodeAt(inst, a, i + 1)) -
        arc(inst, inst.location[u]!, nodeAt(inst, a, i + 1)) -
        arc(inst, nodeAt(inst, b, j - 1), inst.location[v]!) +
        endChange(context, a.vehicle, b.vehicle, a.jobs[a.length - 1]!, b.jobs[b.length - 1]!);
      if (delta >= -EPSILON) continue;
      const first = [...a.jobs.slice(0, i + 1), ...b.jobs.slice(j)];
      const second = [...b.jobs.slice(0, j), ...a.jobs.slice(i + 1)];
      if (commitIfBetter(context, [[ru, first], [rv, second]])) return true;
    }
    return false;
  },
};

/** Cost change of the arcs into the route ends when the tails (ending with lastA, lastB) trade vehicles. */
function endChange(context: MoveContext, va: number, vb: number, lastA: number, lastB: number): number {
  const { inst } = context;
  const endA = inst.vehicleEnd[va]!;
  const endB = inst.vehicleEnd[vb]!;
  if (endA === endB) return 0;
  const la = inst.location[lastA]!;
  const lb = inst.location[lastB]!;
  return inst.cost(lb, endA) + inst.cost(la, endB) - inst.cost(la, endA) - inst.cost(lb, endB);
}
