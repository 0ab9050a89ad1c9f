import fc from 'fast-check';
import type { VrpProblem } from '../../../src/solvers/vrp/model.js';

export interface ProblemShape {
  maxJobs: number;
  maxVehicles: number;
}

/**
 * Random small VRPs over points in a 100×100 square (Euclidean, so costs and
 * times agree), with optional capacities, windows, service times, pairs, drop
 * penalty, route-duration limits and open-ended routes.
 */
export function arbitraryProblem(shape: ProblemShape): fc.Arbitrary<VrpProblem> {
  return fc
    .record({
      points: fc.array(fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 })), { minLength: 2, maxLength: shape.maxJobs + 1 }),
      vehicles: fc.integer({ min: 1, max: shape.maxVehicles }),
      capacity: fc.integer({ min: 5, max: 40 }),
      demands: fc.array(fc.integer({ min: 0, max: 12 }), { minLength: shape.maxJobs, maxLength: shape.maxJobs }),
      windows: fc.option(fc.array(fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 20, max: 300 })), { minLength: shape.maxJobs, maxLength: shape.maxJobs })),
      service: fc.integer({ min: 0, max: 15 }),
      pairCount: fc.integer({ min: 0, max: 2 }),
      dropPenalty: fc.option(fc.integer({ min: 10, max: 200 })),
      maxDuration: fc.option(fc.integer({ min: 80, max: 400 })),
      openEnded: fc.boolean(),
      shiftEnd: fc.option(fc.integer({ min: 200, max: 800 })),
    })
    .map((draw): VrpProblem => {
      const n = draw.points.length;
      const matrix = new Float64Array(n * n);
      for (let a = 0; a < n; a++) {
        for (let b = 0; b < n; b++) matrix[a * n + b] = Math.hypot(draw.points[a]![0] - draw.points[b]![0], draw.points[a]![1] - draw.points[b]![1]);
      }
      const jobCount = n - 1;
      const pairs: [number, number][] = [];
      for (let k = 0; k < draw.pairCount && 2 * k + 1 < jobCount; k++) pairs.push([2 * k, 2 * k + 1]);
      return {
        size: n,
        durations: matrix,
        costs: matrix,
        jobs: Array.from({ length: jobCount }, (_, j) => {
          const window = draw.windows?.[j];
          return {
            location: j + 1,
            demand: draw.demands[j]!,
            serviceSec: draw.service,
            ...(window ? { window: [window[0], window[0] + window[1]] as const } : {}),
          };
        }),
        vehicles: Array.from({ length: draw.vehicles }, () => ({
          start: 0,
          end: draw.openEnded ? null : 0,
          capacity: draw.capacity,
          ...(draw.shiftEnd !== null ? { window: [0, draw.shiftEnd] as const } : {}),
          ...(draw.maxDuration !== null ? { maxDurationSec: draw.maxDuration } : {}),
        })),
        pairs,
        ...(draw.dropPenalty !== null ? { dropPenalty: draw.dropPenalty } : {}),
      };
    });
}
