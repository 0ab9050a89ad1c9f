import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { registerUser, type ApiClient } from './support/api-client.js';
import { generatedUniform, independentL2, verifyPacking } from './support/binpack-instances.js';
import { NASR_CITY_STOPS } from './support/optimization.js';
import { useServer } from './support/server-fixture.js';

const fixture = useServer();
const api = fixture.api;

let bearer: string | undefined;
async function token(): Promise<string> {
  bearer ??= (await registerUser(api, 'optimizer')).token;
  return bearer;
}

async function keyWithScopes(client: ApiClient, scopes: Record<string, boolean>): Promise<string> {
  const user = await registerUser(client, 'optimize-key');
  await client.post('/developer/enroll', undefined, user.token);
  const organization = (await client.post('/developer/organizations', { name: 'Fleet' }, user.token)).body;
  const project = (await client.post('/developer/projects', { name: 'Dispatch', organizationId: organization.id }, user.token)).body;
  return (await client.post('/developer/api-keys', { projectId: project.id, label: 'k', scopes }, user.token)).body.key;
}

/** Falkenauer u120_00 (OR-Library binpack1), the public benchmark instance. */
function falkenauerFirst(): { capacity: number; weights: number[]; bestKnown: number } {
  const tokens = readFileSync(new URL('../../shared/data/benchmarks/binpacking-falkenauer/binpack1_u120.txt', import.meta.url), 'utf8').split(/\s+/).filter(Boolean);
  const [capacity, items, bestKnown] = tokens.slice(2, 5).map(Number) as [number, number, number];
  return { capacity, bestKnown, weights: tokens.slice(5, 5 + items).map(Number) };
}

describe('GET /optimize/health', () => {
  it('answers without credentials, with the solvers that are served', async () => {
    const response = await api.get('/optimize/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ provider: 'svc-optimize', available: true, ok: true, service: 'optimization', solvers: ['routing', 'binpack', 'roster'] });
  });
});

describe('POST /optimize/binpack', () => {
  it('packs a public benchmark instance into its proven minimum of bins', async () => {
    const instance = falkenauerFirst();
    const response = await api.post('/optimize/binpack', { itemWeights: instance.weights, binCapacities: instance.weights.map(() => instance.capacity) }, await token());
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ feasible: true, binsUsed: instance.bestKnown, optimal: true, lowerBound: instance.bestKnown });
    const loads = new Map<number, number>();
    response.body.assignment.forEach((bin: number, item: number) => loads.set(bin, (loads.get(bin) ?? 0) + instance.weights[item]!));
    expect(loads.size).toBe(instance.bestKnown);
    expect(Math.max(...loads.values())).toBeLessThanOrEqual(instance.capacity);
  });

  // Generated instances (seeded, Falkenauer's uniform recipe, not OR-Library files): a 250-item one where L2 (101)
  // is one short and the LP bound proves 102, and a 500-item one the local search alone left a bin over.
  it.each([
    [250, 86, 102],
    [500, 97, 208],
  ])('proves the optimum of generated %i-item instance (seed %i): %i bins', async (items, seed, optimum) => {
    const instance = generatedUniform(items, seed);
    const response = await api.post('/optimize/binpack', { itemWeights: instance.weights, binCapacities: instance.weights.map(() => instance.capacity) }, await token());
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ feasible: true, binsUsed: optimum, optimal: true, lowerBound: optimum });
    expect(independentL2(instance.weights, instance.capacity)).toBe(seed === 86 ? optimum - 1 : optimum);
    verifyPacking(instance.weights, instance.capacity, response.body.assignment, response.body.binsUsed, instance.name);
  });

  it('uses the largest bins of a mixed fleet and says which items fit nowhere', async () => {
    const packed = await api.post('/optimize/binpack', { itemWeights: [5, 4, 3], binCapacities: [4, 12, 5] }, await token());
    expect(packed.body).toEqual({ feasible: true, assignment: [1, 1, 1], binsUsed: 1, optimal: true, lowerBound: 1 });
    const oversized = await api.post('/optimize/binpack', { itemWeights: [5, 40, 3], binCapacities: [10, 12] }, await token());
    expect(oversized.status).toBe(201);
    expect(oversized.body).toMatchObject({ feasible: false, binsUsed: 0, oversizedItems: [1] });
    const tooFew = await api.post('/optimize/binpack', { itemWeights: [6, 6, 6], binCapacities: [10, 10] }, await token());
    expect(tooFew.body).toMatchObject({ feasible: false, oversizedItems: [], reason: 'the items do not fit into the 2 bins together' });
  });

  it('rejects malformed bodies with 400s', async () => {
    for (const body of [{}, { itemWeights: [], binCapacities: [1] }, { itemWeights: [1, -2], binCapacities: [3] }, { itemWeights: [1], binCapacities: [0] }, { itemWeights: ['1'], binCapacities: [3] }, { itemWeights: new Array(501).fill(1), binCapacities: [3] }, { itemWeights: [1], binCapacities: [3], extra: 1 }]) {
      const response = await api.post('/optimize/binpack', body, await token());
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('POST /optimize/roster', () => {
  it("covers a week's demand with the least possible peak load", async () => {
    const demand = Array.from({ length: 7 }, (_, day) => (day >= 5 ? [1, 1] : [2, 1]));
    const response = await api.post('/optimize/roster', { numDrivers: 4, numDays: 7, demand, minRestDays: 1, forbidden: [[0, 0], [0, 1]] }, await token());
    expect(response.status).toBe(201);
    const { shifts, perDriver, peakLoad, feasible } = response.body;
    expect(feasible).toBe(true);
    // 19 shifts over 4 drivers: at least 5 each for someone; the solver proves 5 suffices.
    expect(peakLoad).toBe(5);
    expect(Math.max(...perDriver)).toBe(5);
    const cover = new Map<string, number>();
    const days = new Set<string>();
    for (const { driver, day, shift } of shifts) {
      expect(days.has(`${driver}:${day}`)).toBe(false);
      days.add(`${driver}:${day}`);
      cover.set(`${day}:${shift}`, (cover.get(`${day}:${shift}`) ?? 0) + 1);
    }
    expect(shifts.some((entry: { driver: number; day: number }) => entry.driver === 0 && entry.day < 2)).toBe(false);
    demand.forEach((day, d) => day.forEach((need, s) => expect(cover.get(`${d}:${s}`) ?? 0).toBeGreaterThanOrEqual(need)));
  });

  it('proves infeasibility and names the short shifts', async () => {
    const response = await api.post('/optimize/roster', { numDrivers: 2, numDays: 3, shiftsPerDay: 1, demand: [[2], [2], [2]], maxShiftsPerDriver: 2 }, await token());
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ feasible: false, peakLoad: null, shifts: [] });
    expect(response.body.reasons[0]).toBe('total demand 6 exceeds 2 drivers × 2 shifts each (maxShiftsPerDriver and minRestDays)');
    expect(response.body.unmet.reduce((sum: number, entry: { missing: number }) => sum + entry.missing, 0)).toBe(2);
  });

  it('rejects mismatched demand and out-of-range drivers with 400s', async () => {
    const cases = [
      { numDrivers: 2, numDays: 2, demand: [[1, 1]] },
      { numDrivers: 2, numDays: 1, demand: [[1]] },
      { numDrivers: 2, numDays: 1, demand: [[1, 1]], forbidden: [[2, 0]] },
      { numDrivers: 2, numDays: 1, demand: [[1, 1]], forbidden: [[0, 1]] },
      { numDrivers: 500, numDays: 92, shiftsPerDay: 6, demand: [] },
      { numDays: 1, demand: [[1, 1]] },
    ];
    for (const body of cases) {
      const response = await api.post('/optimize/roster', body, await token());
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('access to the optimize family', () => {
  it('needs credentials, and a key needs the opt-in optimize scope', async () => {
    const body = { itemWeights: [1], binCapacities: [2] };
    expect((await api.post('/optimize/binpack', body)).status).toBe(401);
    const without = await keyWithScopes(api, {});
    const refused = await api.post('/optimize/binpack', body, undefined, { 'x-api-key': without });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', details: { missingScopes: ['optimize'] } });
    const scoped = await keyWithScopes(api, { optimize: true });
    expect((await api.post('/optimize/binpack', body, undefined, { 'x-api-key': scoped })).status).toBe(201);
  });

});

const NASR_CITY = NASR_CITY_STOPS;

describe('route optimization over the road network', () => {
  it('visits every stop once with capacity-bound vehicles, on road travel times', async () => {
    const body = { stops: NASR_CITY, numVehicles: 2, tier: 'fast', demands: [0, 3, 3, 3, 3, 3, 3], vehicleCapacities: [9, 9] };
    const response = await api.post('/optimize/routes', body, await token());
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ provider: 'svc-optimize', feasible: true, dropped: [] });
    const visited = response.body.routes.flatMap((route: { order: number[] }) => route.order.filter((stop) => stop !== 0));
    expect([...visited].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const route of response.body.routes as { order: number[]; durationSec: number; distanceMeters: number }[]) {
      expect(route.order[0]).toBe(0);
      expect(route.order[route.order.length - 1]).toBe(0);
      expect(route.order.length - 2).toBeLessThanOrEqual(3); // 9 capacity / 3 per stop
      // road distances, longer than the straight lines between the same stops
      expect(route.distanceMeters).toBeGreaterThan(0);
    }
    expect(response.body.routes.length).toBe(2);
  }, 60_000);

  it('re-optimizes from the vehicles\' positions, open-ended, without echoing the positions as stops', async () => {
    const body = { vehiclePositions: [NASR_CITY[0], NASR_CITY[3]], remainingStops: NASR_CITY.slice(4), tier: 'fast' };
    const response = await api.post('/optimize/reoptimize', body, await token());
    expect(response.status).toBe(201);
    expect(response.body.feasible).toBe(true);
    const returned = response.body.routes.flatMap((route: { stops: { lat: number; lng: number }[] }) => route.stops);
    expect(returned).toHaveLength(3);
    for (const position of body.vehiclePositions) expect(returned).not.toContainEqual(position);
  }, 60_000);

  it('refuses truck matrices where the data has no truck attributes', async () => {
    const response = await api.post('/optimize/routes', { stops: NASR_CITY.slice(0, 3), costing: 'truck', tier: 'fast' }, await token());
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('COSTING_UNAVAILABLE');
  });
});
