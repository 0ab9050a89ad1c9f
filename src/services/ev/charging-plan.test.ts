import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EvStation } from '../../domain/ev-station.js';
import { corridorOf, planCharging, pointAt, project, type Detour, type DetourRequest, type PlanParams } from './charging-plan.js';

// a straight east-west corridor on the equator: 1° of longitude ≈ 111.2 km, so km ↔ lng is linear
const KM_PER_DEG = 111.195;
const line = (totalKm: number) => corridorOf(Array.from({ length: 101 }, (_, i) => ({ lat: 0, lng: (totalKm / KM_PER_DEG) * (i / 100) })), totalKm);

function station(id: string, atKm: number, maxKw: number | null, options: Partial<EvStation> & { offKm?: number } = {}): EvStation {
  return {
    id,
    name: id,
    network: null,
    lat: (options.offKm ?? 0.5) / KM_PER_DEG,
    lng: atKm / KM_PER_DEG,
    connectors: maxKw === null ? [] : [{ type: 'CCS', kw: maxKw, count: 1 }],
    maxKw,
    status: 'operational',
    pricing: null,
    address: null,
    sources: [],
    ...options,
  };
}

/** Road drives: along the line to the station's point, then the straight offset × 1.3 (or what `fixed` says for a station). */
function oracle(fixed: Record<string, Detour> = {}) {
  const asked: string[][] = [];
  const detours = async (requests: DetourRequest[]): Promise<Detour[]> => {
    asked.push(requests.map((request) => request.station.id));
    return requests.map(({ station: s, entry, exit }) => {
      const off = Math.abs(s.lat) * KM_PER_DEG * 1.3;
      return fixed[s.id] ?? { toKm: (s.lng - entry.lng) * KM_PER_DEG + off, backKm: (exit.lng - s.lng) * KM_PER_DEG + off };
    });
  };
  return { detours, asked };
}

const params: PlanParams = { rangeKm: 100, currentPercent: 80, reservePercent: 15, chargeToPercent: 80, detourKm: 5 };

describe('corridor geometry', () => {
  it('scales kilometres to the route length and interpolates points', () => {
    const corridor = line(200);
    expect(corridor.km.at(-1)).toBeCloseTo(200, 6);
    expect(pointAt(corridor, 100).lng).toBeCloseTo(100 / KM_PER_DEG, 6);
    const projected = project(corridor, { lat: 1 / KM_PER_DEG, lng: 42 / KM_PER_DEG });
    expect(projected.atKm).toBeCloseTo(42, 3);
    expect(projected.offKm).toBeCloseTo(1, 2);
  });
});

describe('planCharging', () => {
  it('a trip within the charge needs no stop', async () => {
    const { detours, asked } = oracle();
    const plan = await planCharging(line(60), [station('a', 30, 150)], params, detours);
    expect(plan).toMatchObject({ feasible: true, chargingNeeded: false, stopCount: 0, stops: [], totalKm: 60 });
    expect(plan.arrivalPercent).toBeCloseTo(20, 1);
    expect(asked).toEqual([]);
  });

  it('stops at the strongest reachable station and resumes recharged', async () => {
    const { detours } = oracle();
    const stations = [station('weak', 30, 22), station('strong', 55, 150), station('offline', 60, 350, { status: 'offline' }), station('later', 110, 50)];
    const plan = await planCharging(line(170), stations, params, detours);
    expect(plan.feasible).toBe(true);
    expect(plan.chargingNeeded).toBe(true);
    expect(plan.stops.map((stop) => stop.station.id)).toEqual(['strong', 'later']);
    expect(plan.stops[0]!.atKm).toBeCloseTo(55, 0);
    expect(plan.stops[0]!.detourKm).toBeCloseTo(1.3, 1);
    expect(plan.stops[0]!.arrivalPercent).toBeCloseTo(80 - 55 - 0.65, 0);
    expect(plan.stops[0]!.departurePercent).toBe(80);
    expect(plan.stopCount).toBe(2);
    expect(plan.arrivalPercent!).toBeGreaterThanOrEqual(15);
  });

  it('leaves out stations beyond detourKm on the road even when close in a straight line', async () => {
    const { detours } = oracle({ strong: { toKm: 6.5, backKm: 6.5 } });
    const plan = await planCharging(line(120), [station('strong', 55, 150), station('weak', 40, 50)], params, detours);
    expect(plan.stops.map((stop) => stop.station.id)).toEqual(['weak']);
  });

  it('a station the roads do not reach (NaN) is no candidate', async () => {
    const { detours } = oracle({ island: { toKm: Number.NaN, backKm: Number.NaN } });
    const plan = await planCharging(line(120), [station('island', 50, 150)], params, detours);
    expect(plan).toMatchObject({ feasible: false, reason: 'no_chargers_in_corridor', stopCount: 0 });
  });

  it('no charger in reach: infeasible with the gap where the reserve is hit', async () => {
    const { detours } = oracle();
    const plan = await planCharging(line(200), [station('far', 90, 150)], params, detours);
    expect(plan.feasible).toBe(false);
    expect(plan.chargingNeeded).toBe(true);
    expect(plan.reason).toBe('no_chargers_in_corridor');
    expect(plan.stopCount).toBe(0);
    expect(plan.gap!.atKm).toBeCloseTo(65, 1);
    expect(plan.gap!.lng).toBeCloseTo(65 / KM_PER_DEG, 4);
  });

  it('a gap after a placed stop keeps the stop', async () => {
    const { detours } = oracle();
    const plan = await planCharging(line(300), [station('first', 60, 50)], params, detours);
    expect(plan).toMatchObject({ feasible: false, reason: 'no_chargers_in_corridor', stopCount: 1 });
    expect(plan.stops[0]!.station.id).toBe('first');
    // from km 60 with 80 % less the 0.65 km back to the route, down to 15 %
    expect(plan.gap!.atKm).toBeCloseTo(60 + 80 - 0.65 - 15, 0);
  });

  it('a stop that would not take the car further is no progress', async () => {
    const { detours } = oracle();
    // starting at 100 %, a charge to 80 % at km 5 loses range
    const plan = await planCharging(line(120), [station('early', 5, 350)], { ...params, currentPercent: 100 }, detours);
    expect(plan).toMatchObject({ feasible: false, stopCount: 0 });
  });

  it('holds its invariants on random corridors', async () => {
    const stationArb = fc.record({ atKm: fc.double({ min: 0, max: 400, noNaN: true }), kw: fc.constantFrom(null, 11, 22, 50, 150, 350), offKm: fc.double({ min: 0, max: 8, noNaN: true }), offline: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: 5, max: 400, noNaN: true }),
        fc.array(stationArb, { maxLength: 25 }),
        fc.record({ rangeKm: fc.double({ min: 20, max: 300, noNaN: true }), currentPercent: fc.double({ min: 0, max: 100, noNaN: true }), reservePercent: fc.double({ min: 0, max: 30, noNaN: true }), detourKm: fc.double({ min: 0.5, max: 10, noNaN: true }) }),
        async (totalKm, raw, p) => {
          const planParams = { ...p, chargeToPercent: 80 };
          const stations = raw.map((s, i) => station(`s${i}`, Math.min(s.atKm, totalKm), s.kw, { offKm: s.offKm, status: s.offline ? 'offline' : 'operational' }));
          const { detours } = oracle();
          const plan = await planCharging(line(totalKm), stations, planParams, detours);
          expect(plan.stopCount).toBe(plan.stops.length);
          let previous = -1;
          for (const stop of plan.stops) {
            expect(stop.station.status).toBe('operational');
            expect(stop.detourKm / 2).toBeLessThanOrEqual(planParams.detourKm + 0.1);
            expect(stop.arrivalPercent).toBeGreaterThanOrEqual(planParams.reservePercent - 0.1);
            expect(stop.atKm).toBeGreaterThanOrEqual(previous - 0.1);
            previous = stop.atKm;
          }
          if (plan.feasible) expect(plan.arrivalPercent!).toBeGreaterThanOrEqual(planParams.reservePercent - 0.1);
          else {
            expect(plan.reason).toBe('no_chargers_in_corridor');
            expect(plan.gap!.atKm).toBeLessThan(totalKm + 0.1);
          }
          expect(plan.chargingNeeded).toBe(!(plan.feasible && plan.stopCount === 0));
        },
      ),
      { numRuns: 200 },
    );
  });
});
