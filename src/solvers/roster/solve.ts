import { FlowNetwork } from './max-flow.js';
import type { RosterProblem, RosterResult, RosterShift, RosterUnmet } from './model.js';

/**
 * Rostering as maximum flow: source → driver (capacity: the load cap) →
 * driver-day (capacity 1: one shift a day) → day-shift → sink (capacity: the
 * demand). Every demand can be met under a load cap P exactly when the maximum
 * flow equals the total demand (flows are integral), so the least feasible P,
 * found by bisection between the counting bound ⌈demand / drivers⌉ and the
 * drivers' hard cap, is the optimal peak load. When even the hard cap leaves
 * demand uncovered, that maximum flow is the proof of infeasibility and names
 * the shifts left short.
 */
export function solveRoster(problem: RosterProblem): RosterResult {
  const { numDrivers, numDays, shiftsPerDay } = problem;
  const totalDemand = problem.demand.reduce((sum, day) => sum + day.reduce((a, b) => a + b, 0), 0);
  const hardCap = Math.max(0, Math.min(problem.maxShiftsPerDriver ?? numDays, numDays - (problem.minRestDays ?? 0)));
  if ((problem.minRestDays ?? 0) > numDays) {
    return { feasible: false, shifts: [], perDriver: new Array<number>(numDrivers).fill(0), peakLoad: null, unmet: [], reasons: [`minRestDays ${problem.minRestDays} exceeds the ${numDays}-day horizon`] };
  }
  if (totalDemand === 0) return { feasible: true, shifts: [], perDriver: new Array<number>(numDrivers).fill(0), peakLoad: 0, unmet: [], reasons: [] };
  const widest = assign(problem, hardCap);
  if (widest.flow < totalDemand) return infeasible(problem, widest, hardCap, totalDemand);
  let low = Math.max(1, Math.ceil(totalDemand / Math.max(1, numDrivers)));
  let high = hardCap;
  let best = widest;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const attempt = assign(problem, middle);
    if (attempt.flow === totalDemand) {
      high = middle;
      best = attempt;
    } else low = middle + 1;
  }
  // The final roster is filled in stages (every driver up to the average first, then one more shift at a time up
  // to the optimal peak), so work is spread instead of piled on the first drivers the flow happens to reach.
  best = assign(problem, high, Math.min(high, Math.floor(totalDemand / Math.max(1, numDrivers))));
  const perDriver = new Array<number>(numDrivers).fill(0);
  for (const shift of best.shifts) perDriver[shift.driver]!++;
  return { feasible: true, shifts: best.shifts, perDriver, peakLoad: Math.max(...perDriver), unmet: [], reasons: [] };
}

interface Assignment {
  cap: number;
  flow: number;
  shifts: RosterShift[];
  /** Drivers still missing per [day][shift]. */
  missing: number[][];
}

/** Maximum flow under load cap `cap`; with `from` < cap, the drivers' caps rise from `from` one shift per stage. */
function assign(problem: RosterProblem, cap: number, from = cap): Assignment {
  const { numDrivers: D, numDays: N, shiftsPerDay: S } = problem;
  const forbidden = new Set((problem.forbidden ?? []).map(([driver, day]) => driver * N + day));
  const source = 0;
  const driverNode = (driver: number) => 1 + driver;
  const driverDayNode = (driver: number, day: number) => 1 + D + driver * N + day;
  const shiftNode = (day: number, shift: number) => 1 + D + D * N + day * S + shift;
  const sink = 1 + D + D * N + N * S;
  const network = new FlowNetwork(sink + 1);
  const arcs: { arc: number; driver: number; day: number; shift: number }[] = [];
  const demandArcs: number[][] = [];
  const driverArcs: number[] = [];
  for (let driver = 0; driver < D; driver++) {
    driverArcs.push(network.addArc(source, driverNode(driver), from));
    for (let day = 0; day < N; day++) {
      if (forbidden.has(driver * N + day)) continue;
      network.addArc(driverNode(driver), driverDayNode(driver, day), 1);
      for (let shift = 0; shift < S; shift++) {
        if ((problem.demand[day]![shift] ?? 0) > 0) arcs.push({ arc: network.addArc(driverDayNode(driver, day), shiftNode(day, shift), 1), driver, day, shift });
      }
    }
  }
  for (let day = 0; day < N; day++) {
    demandArcs.push([]);
    for (let shift = 0; shift < S; shift++) demandArcs[day]!.push(network.addArc(shiftNode(day, shift), sink, problem.demand[day]![shift] ?? 0));
  }
  let flow = network.maxFlow(source, sink);
  for (let stage = from; stage < cap; stage++) {
    for (const arc of driverArcs) network.raise(arc, 1);
    flow += network.maxFlow(source, sink);
  }
  const shifts = arcs.filter(({ arc }) => network.flow(arc) > 0).map(({ driver, day, shift }) => ({ driver, day, shift }));
  const missing = demandArcs.map((day, d) => day.map((arc, s) => (problem.demand[d]![s] ?? 0) - network.flow(arc)));
  return { cap, flow, shifts, missing };
}

function infeasible(problem: RosterProblem, widest: Assignment, hardCap: number, totalDemand: number): RosterResult {
  const { numDrivers: D, numDays: N } = problem;
  const unmet: RosterUnmet[] = [];
  widest.missing.forEach((day, d) => day.forEach((missing, s) => missing > 0 && unmet.push({ day: d, shift: s, missing })));
  const reasons: string[] = [];
  const capacity = D * hardCap;
  if (totalDemand > capacity) {
    reasons.push(`total demand ${totalDemand} exceeds ${D} drivers × ${hardCap} shifts each (maxShiftsPerDriver and minRestDays)`);
  }
  const blocked = new Set((problem.forbidden ?? []).map(([driver, day]) => driver * N + day));
  for (let day = 0; day < N; day++) {
    const needed = problem.demand[day]!.reduce((a, b) => a + b, 0);
    let available = 0;
    for (let driver = 0; driver < D; driver++) if (!blocked.has(driver * N + day)) available++;
    if (needed > available) reasons.push(`day ${day} needs ${needed} drivers but only ${available} may work that day (one shift per driver per day)`);
  }
  if (!reasons.length) reasons.push(`at most ${widest.flow} of ${totalDemand} demanded shifts can be covered: the drivers free on the short days are already at their limit`);
  return { feasible: false, shifts: [], perDriver: new Array<number>(D).fill(0), peakLoad: null, unmet, reasons };
}
