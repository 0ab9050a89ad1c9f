import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import type { LogisticsZone } from '../../domain/logistics-zone.js';
import type { Trip } from '../../solvers/routing/guidance/index.js';
import { planAroundZones, zoneCosts, zoneReport } from './plan-zones.js';

/** A zone over 31.3405–31.3445 east, 30.059–30.061 north. */
function zone(id: string, routingPolicy: LogisticsZone['routingPolicy'], costMultiplier: number, zoneType: LogisticsZone['zoneType'] = 'congestion'): LogisticsZone {
  const ring = [[31.3405, 30.059], [31.3445, 30.059], [31.3445, 30.061], [31.3405, 30.061], [31.3405, 30.059]];
  return { id, name: id, zoneType, riskScore: 0.5, costMultiplier, routingPolicy, bbox: [31.3405, 30.059, 31.3445, 30.061], geometry: { type: 'Polygon', coordinates: [ring] }, active: true, notes: null, createdAt: '', updatedAt: '' };
}

/** A one-leg trip east along `lat` (30.06 crosses the zones, 30.07 passes north of them) in one maneuver of `seconds`. */
function trip(lat = 30.06, seconds = 100): Trip {
  const points: [number, number][] = [[lat, 31.33], [lat, 31.345]];
  return {
    legs: [{ shape: polyline.encode(points, 6), summary: { time: seconds }, maneuvers: [{ time: seconds, length: 1.45, begin_shape_index: 0, end_shape_index: 1 }] }],
    summary: { time: seconds },
  } as unknown as Trip;
}

describe('plan zones', () => {
  it('multiplies the time inside a penalize zone by its cost multiplier; allow zones cost nothing', () => {
    const costs = zoneCosts(trip(), [zone('p', 'penalize', 3), zone('a', 'allow', 5)]);
    const penalized = costs.crossed.find((entry) => entry.id === 'p')!;
    // 400 m of the 1450 m maneuver lies in the zone: about 27.6 s, doubled
    expect(penalized.meters).toBeGreaterThan(380);
    expect(penalized.meters).toBeLessThan(420);
    expect(penalized.penaltySeconds).toBeCloseTo(penalized.seconds * 2, -1);
    expect(costs.crossed.find((entry) => entry.id === 'a')!.penaltySeconds).toBe(0);
    expect(costs.adjustedTime).toBe(100 + costs.penaltySeconds);
    expect(costs.legs[0]).toMatchObject({ index: 0, time: 100, adjustedTime: costs.adjustedTime });
  });

  it('re-plans around an avoid zone crossed, and keeps it unavoidable when no route gets around', async () => {
    const avoid = zone('v', 'avoid', 1);
    const around = await planAroundZones([avoid], [{ lat: 30.06, lon: 31.33 }, { lat: 30.06, lon: 31.35 }], { trip: trip() }, async (areas) => {
      expect(areas.polygons).toHaveLength(1);
      return { trip: trip(30.07) };
    }, () => true);
    expect(around.avoided.map((entry) => entry.id)).toEqual(['v']);
    const stuck = await planAroundZones([avoid], [{ lat: 30.06, lon: 31.33 }, { lat: 30.06, lon: 31.35 }], { trip: trip() }, () => Promise.reject(new Error('no route')), () => true);
    expect(stuck.unavoidable).toEqual([{ zone: avoid, reason: 'no route between the locations goes around it' }]);
    const inside = await planAroundZones([avoid], [{ lat: 30.06, lon: 31.342 }, { lat: 30.06, lon: 31.35 }], { trip: trip() }, () => Promise.reject(new Error('not called')), () => false);
    expect(inside.unavoidable[0]!.reason).toBe('a location of the plan lies inside it');
  });

  it('puts first the alternative crossing no avoid zone, and warns about restricted zones crossed', () => {
    const zones = [zone('v', 'avoid', 1, 'restricted')];
    const { outcome, report } = zoneReport({ trip: trip(), alternates: [{ trip: trip(30.07, 130) }] }, zones, { avoided: [], unavoidable: [{ zone: zones[0]!, reason: 'no route between the locations goes around it' }] }, true);
    expect(report.reorderedAlternates).toBe(true);
    expect(outcome.trip.summary.time).toBe(130);
    expect(report.crossed).toEqual([]);
    const kept = zoneReport({ trip: trip(), alternates: [{ trip: trip(30.07, 130) }] }, zones, { avoided: [], unavoidable: [{ zone: zones[0]!, reason: 'no route between the locations goes around it' }] }, false);
    expect(kept.report.reorderedAlternates).toBe(false);
    expect(kept.report.warnings).toEqual(['The route crosses avoid zone "v": no route between the locations goes around it', expect.stringMatching(/^The route enters restricted zone "v" \(\d+ m\)/)]);
  });
});
