import { z } from 'zod';
import { latitude, longitude } from '../../domain/geo.js';

/** Request limits of the optimization endpoints (spec part 3 §4.5), documented in docs/optimization.md. */
export const OPTIMIZATION_LIMITS = {
  maxStops: 500,
  maxVehicles: 200,
  maxItems: 500,
  maxBins: 500,
  maxDrivers: 500,
  maxDays: 92,
  maxShiftsPerDay: 6,
  /** drivers × days × shifts: the size of the roster's flow network. */
  maxRosterCells: 60_000,
  maxForbidden: 20_000,
  /** About 30 days, in seconds: the horizon of time windows and durations. */
  maxSeconds: 2_592_000,
} as const;

const point = z.object({ lat: latitude, lng: longitude }).strict();
const seconds = z.number().finite().min(0).max(OPTIMIZATION_LIMITS.maxSeconds);
const amount = z.number().finite().min(0).max(1e9);
const costing = z.enum(['auto', 'truck', 'bicycle', 'pedestrian']);
const tier = z.enum(['fast', 'balanced', 'best']);

type Issue = { path: (string | number)[]; message: string };

function sameLength(issues: Issue[], name: string, list: readonly unknown[] | undefined, expected: number, what: string): void {
  if (list && list.length !== expected) issues.push({ path: [name], message: `must have one entry per ${what} (${expected}), got ${list.length}` });
}

function report(context: z.RefinementCtx, issues: Issue[]): void {
  for (const issue of issues) context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
}

export const routesRequest = z
  .object({
    stops: z.array(point).min(2).max(OPTIMIZATION_LIMITS.maxStops),
    numVehicles: z.number().int().min(1).max(OPTIMIZATION_LIMITS.maxVehicles).default(1),
    costing: costing.default('auto'),
    tier: tier.default('balanced'),
    demands: z.array(amount).optional(),
    vehicleCapacities: z.array(amount).optional(),
    timeWindows: z.array(z.tuple([seconds, seconds])).optional(),
    serviceTimes: z.array(seconds).optional(),
    pickupsDeliveries: z.array(z.tuple([z.number().int(), z.number().int()])).max(OPTIMIZATION_LIMITS.maxStops).optional(),
    dropPenalty: z.number().finite().min(0).max(1e9).optional(),
    maxRouteDuration: z.number().finite().positive().max(OPTIMIZATION_LIMITS.maxSeconds).optional(),
    openEnded: z.boolean().default(false),
  })
  .strict()
  .superRefine((body, context) => {
    const issues: Issue[] = [];
    const n = body.stops.length;
    sameLength(issues, 'demands', body.demands, n, 'stop');
    sameLength(issues, 'timeWindows', body.timeWindows, n, 'stop');
    sameLength(issues, 'serviceTimes', body.serviceTimes, n, 'stop');
    sameLength(issues, 'vehicleCapacities', body.vehicleCapacities, body.numVehicles, 'vehicle');
    body.timeWindows?.forEach(([earliest, latest], k) => {
      if (earliest > latest) issues.push({ path: ['timeWindows', k], message: `earliest ${earliest} is after latest ${latest}` });
    });
    const paired = new Set<number>();
    body.pickupsDeliveries?.forEach(([pickup, delivery], k) => {
      if (pickup === delivery) {
        issues.push({ path: ['pickupsDeliveries', k], message: 'pickup and delivery must be different stops' });
        return;
      }
      for (const [index, role] of [
        [pickup, 'pickup'],
        [delivery, 'delivery'],
      ] as const) {
        if (index < 1 || index >= n) issues.push({ path: ['pickupsDeliveries', k], message: `${role} index ${index} must refer to a stop 1..${n - 1} (0 is the depot)` });
        else if (paired.has(index)) issues.push({ path: ['pickupsDeliveries', k], message: `stop ${index} is already in another pair` });
        paired.add(index);
      }
    });
    report(context, issues);
  });

export const reoptimizeRequest = z
  .object({
    vehiclePositions: z.array(point).min(1).max(OPTIMIZATION_LIMITS.maxVehicles),
    remainingStops: z.array(point).min(1).max(OPTIMIZATION_LIMITS.maxStops),
    costing: costing.default('auto'),
    tier: tier.default('balanced'),
    demands: z.array(amount).optional(),
    vehicleCapacities: z.array(amount).optional(),
    dropPenalty: z.number().finite().min(0).max(1e9).optional(),
  })
  .strict()
  .superRefine((body, context) => {
    const issues: Issue[] = [];
    const combined = body.vehiclePositions.length + body.remainingStops.length;
    if (combined > OPTIMIZATION_LIMITS.maxStops) issues.push({ path: [], message: `vehiclePositions and remainingStops together must be at most ${OPTIMIZATION_LIMITS.maxStops}, got ${combined}` });
    sameLength(issues, 'demands', body.demands, body.remainingStops.length, 'remaining stop');
    sameLength(issues, 'vehicleCapacities', body.vehicleCapacities, body.vehiclePositions.length, 'vehicle position');
    report(context, issues);
  });

export const binPackRequest = z
  .object({
    itemWeights: z.array(z.number().finite().positive().max(1e12)).min(1).max(OPTIMIZATION_LIMITS.maxItems),
    binCapacities: z.array(z.number().finite().positive().max(1e12)).min(1).max(OPTIMIZATION_LIMITS.maxBins),
  })
  .strict();

export const rosterRequest = z
  .object({
    numDrivers: z.number().int().min(1).max(OPTIMIZATION_LIMITS.maxDrivers),
    numDays: z.number().int().min(1).max(OPTIMIZATION_LIMITS.maxDays),
    shiftsPerDay: z.number().int().min(1).max(OPTIMIZATION_LIMITS.maxShiftsPerDay).default(2),
    demand: z.array(z.array(z.number().int().min(0).max(OPTIMIZATION_LIMITS.maxDrivers))).max(OPTIMIZATION_LIMITS.maxDays),
    maxShiftsPerDriver: z.number().int().min(0).max(OPTIMIZATION_LIMITS.maxDays).optional(),
    minRestDays: z.number().int().min(0).max(OPTIMIZATION_LIMITS.maxDays).optional(),
    forbidden: z.array(z.tuple([z.number().int(), z.number().int()])).max(OPTIMIZATION_LIMITS.maxForbidden).optional(),
  })
  .strict()
  .superRefine((body, context) => {
    const issues: Issue[] = [];
    const cells = body.numDrivers * body.numDays * body.shiftsPerDay;
    if (cells > OPTIMIZATION_LIMITS.maxRosterCells) issues.push({ path: [], message: `numDrivers × numDays × shiftsPerDay must be at most ${OPTIMIZATION_LIMITS.maxRosterCells}, got ${cells}` });
    sameLength(issues, 'demand', body.demand, body.numDays, 'day');
    body.demand.forEach((day, d) => {
      if (day.length !== body.shiftsPerDay) issues.push({ path: ['demand', d], message: `must have one entry per shift (${body.shiftsPerDay}), got ${day.length}` });
    });
    body.forbidden?.forEach(([driver, day], k) => {
      if (driver < 0 || driver >= body.numDrivers) issues.push({ path: ['forbidden', k], message: `driver ${driver} is out of range 0..${body.numDrivers - 1}` });
      if (day < 0 || day >= body.numDays) issues.push({ path: ['forbidden', k], message: `day ${day} is out of range 0..${body.numDays - 1}` });
    });
    report(context, issues);
  });

export type RoutesRequest = z.infer<typeof routesRequest>;
export type ReoptimizeRequest = z.infer<typeof reoptimizeRequest>;
export type BinPackRequest = z.infer<typeof binPackRequest>;
export type RosterRequest = z.infer<typeof rosterRequest>;
