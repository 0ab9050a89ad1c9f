import { describe, expect, it } from 'vitest';
import { reoptimizeRequest, routesRequest } from './optimization-requests.js';

const stops = (n: number) => Array.from({ length: n }, (_, k) => ({ lat: 30 + k / 1000, lng: 31 }));

function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): string[] {
  return result.success ? [] : result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('route optimization requests', () => {
  it('applies the spec defaults', () => {
    expect(routesRequest.parse({ stops: stops(2) })).toMatchObject({ numVehicles: 1, costing: 'auto', tier: 'balanced', openEnded: false });
    expect(reoptimizeRequest.parse({ vehiclePositions: stops(1), remainingStops: stops(1) })).toMatchObject({ costing: 'auto', tier: 'balanced' });
  });

  it('rejects arrays whose lengths do not match the stops or vehicles', () => {
    expect(messages(routesRequest.safeParse({ stops: stops(3), demands: [1, 2], serviceTimes: [1, 2, 3, 4], numVehicles: 2, vehicleCapacities: [5] }))).toEqual([
      'demands: must have one entry per stop (3), got 2',
      'serviceTimes: must have one entry per stop (3), got 4',
      'vehicleCapacities: must have one entry per vehicle (2), got 1',
    ]);
    expect(messages(reoptimizeRequest.safeParse({ vehiclePositions: stops(2), remainingStops: stops(3), demands: [1], vehicleCapacities: [1, 2, 3] }))).toEqual([
      'demands: must have one entry per remaining stop (3), got 1',
      'vehicleCapacities: must have one entry per vehicle position (2), got 3',
    ]);
  });

  it('rejects pair indices out of range, the depot in a pair, reused stops and reversed windows', () => {
    const result = routesRequest.safeParse({
      stops: stops(4),
      pickupsDeliveries: [[0, 1], [2, 4], [2, 3], [3, 3]],
      timeWindows: [[0, 100], [50, 10], [0, 1], [0, 1]],
    });
    expect(messages(result)).toEqual([
      'timeWindows.1: earliest 50 is after latest 10',
      'pickupsDeliveries.0: pickup index 0 must refer to a stop 1..3 (0 is the depot)',
      'pickupsDeliveries.1: delivery index 4 must refer to a stop 1..3 (0 is the depot)',
      'pickupsDeliveries.2: stop 2 is already in another pair',
      'pickupsDeliveries.3: pickup and delivery must be different stops',
    ]);
  });

  it('holds the size limits: 2 to 500 stops, 200 vehicles, 500 points in a re-plan', () => {
    expect(routesRequest.safeParse({ stops: stops(1) }).success).toBe(false);
    expect(routesRequest.safeParse({ stops: stops(501) }).success).toBe(false);
    expect(routesRequest.safeParse({ stops: stops(500), numVehicles: 200 }).success).toBe(true);
    expect(routesRequest.safeParse({ stops: stops(3), numVehicles: 201 }).success).toBe(false);
    expect(messages(reoptimizeRequest.safeParse({ vehiclePositions: stops(100), remainingStops: stops(401) }))).toEqual([
      ': vehiclePositions and remainingStops together must be at most 500, got 501',
    ]);
  });
});
