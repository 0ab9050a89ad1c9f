import { describe, expect, it } from 'vitest';
import type { FleetPlan } from '../../domain/fleet.js';
import { diffPlans } from './plan-diff.js';

function plan(version: number, routes: Record<string, string[]>): FleetPlan {
  return {
    planVersion: version,
    computedAt: '2026-11-23T10:00:00.000Z',
    changeSeq: version,
    feasible: true,
    routes: Object.entries(routes).map(([vehicleId, stopIds]) => ({ vehicleId, completedStopIds: [], stopIds, arrivalSeconds: stopIds.map((_, k) => k * 60), durationSeconds: 0, distanceMeters: 0 })),
    unassignedStopIds: [],
    objective: { totalDurationSeconds: 0, totalDistanceMeters: 0, vehiclesUsed: 0 },
  };
}

describe('plan diff', () => {
  it('names stops added, removed and moved between vehicles, and the vehicles whose stops changed', () => {
    const before = plan(1, { van1: ['a', 'b', 'c'], van2: ['d'], van3: ['e', 'f'] });
    const after = plan(2, { van1: ['a', 'c'], van2: ['b', 'd', 'g'], van3: ['e', 'f'] });
    expect(diffPlans(before, after)).toEqual({
      added: ['g'],
      removed: [],
      moved: [{ stopId: 'b', fromVehicleId: 'van1', toVehicleId: 'van2' }],
      changedVehicleIds: ['van1', 'van2'],
    });
  });

  it('counts a reordering as a change of that vehicle only, and a stop gone from every route as removed', () => {
    const before = plan(3, { van1: ['a', 'b'], van2: ['c'] });
    const after = plan(4, { van1: ['b', 'a'], van2: [] });
    expect(diffPlans(before, after)).toEqual({ added: [], removed: ['c'], moved: [], changedVehicleIds: ['van1', 'van2'] });
  });

  it('against no plan, every planned stop is added', () => {
    expect(diffPlans(null, plan(1, { van1: ['a'], van2: ['b'] }))).toEqual({ added: ['a', 'b'], removed: [], moved: [], changedVehicleIds: ['van1', 'van2'] });
  });
});
