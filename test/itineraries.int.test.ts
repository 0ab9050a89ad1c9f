/**
 * Itineraries (spec part 3 §2.4, §4.3; docs/itineraries.md), black-box against a started server on the
 * embedded Nasr City data and its seeded place catalogue: stop ordering checked against every order of the
 * engine's own matrix, auto-plans within budget that match their interests (English and Arabic), saved
 * itineraries with owner scoping, share slugs, the account export and deletion, and the 400s.
 */
import { describe, expect, it } from 'vitest';
import { apiClient, PASSWORD, registerUser } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';

const fixture = useServer();
const api = fixture.api;

/** Real points in Nasr City (the routing tests' streets) and two more between them. */
const STOPS = [
  { lat: 30.0626, lng: 31.3219, name: 'Emarat Al Cinema', dwellMin: 0 },
  { lat: 30.07, lng: 31.34, name: 'Al Nasr Road', dwellMin: 20 },
  { lat: 30.055, lng: 31.33, name: 'Makram Ebeid', dwellMin: 15 },
  { lat: 30.0655, lng: 31.3105, name: 'Al Tayaran north', dwellMin: 10 },
  { lat: 30.0595, lng: 31.3405, name: 'Abbas El Akkad', dwellMin: 5 },
  { lat: 30.068, lng: 31.325, name: 'Youssef Abbas', dwellMin: 0 },
];
const START = { lat: 30.0626, lng: 31.3219 };

let token: string | undefined;
async function caller(): Promise<string> {
  token ??= (await registerUser(api, 'itinerary')).token;
  return token;
}

/** Seconds between every pair of points from the routing engine's own matrix endpoint. */
async function engineSeconds(points: { lat: number; lng: number }[], costing = 'auto'): Promise<number[][]> {
  const response = await api.post('/routing/matrix', { payload: { locations: points.map(({ lat, lng }) => ({ lat, lon: lng })), costing } }, await caller());
  expect(response.status).toBe(201);
  return response.body.data.sources_to_targets.map((row: { time: number }[]) => row.map((cell) => cell.time));
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]));
}

describe('POST /itinerary/plan', () => {
  it('routes two stops directly: one leg, totals with dwell', async () => {
    const response = await api.post('/itinerary/plan', { stops: STOPS.slice(0, 2) }, await caller());
    expect(response.status).toBe(201);
    const { body } = response;
    expect(body).toMatchObject({ provider: 'svc-itinerary', available: true, costing: 'auto' });
    expect(body.orderedStops.map((stop: { name: string }) => stop.name)).toEqual(['Emarat Al Cinema', 'Al Nasr Road']);
    expect(body.legs).toHaveLength(1);
    const seconds = await engineSeconds(STOPS.slice(0, 2));
    expect(body.legs[0]).toMatchObject({ from: 0, to: 1 });
    expect(Math.abs(body.legs[0].minutes - seconds[0]![1]! / 60)).toBeLessThanOrEqual(0.06);
    expect(body.legs[0].distanceKm).toBeGreaterThan(1);
    expect(body.totals).toMatchObject({ dwellMinutes: 20, distanceKm: body.legs[0].distanceKm });
    expect(body.totals.totalMinutes).toBeCloseTo(body.totals.travelMinutes + body.totals.dwellMinutes, 6);
  });

  it('keeps the first and last stop and orders the middle for the least travel (every order of the engine matrix checked)', async () => {
    const response = await api.post('/itinerary/plan', { stops: STOPS, costing: 'auto' }, await caller());
    expect(response.status).toBe(201);
    const { body } = response;
    expect(body.available).toBe(true);
    const order: number[] = body.orderedStops.map((stop: { originalIndex: number }) => stop.originalIndex);
    expect(order[0]).toBe(0);
    expect(order[order.length - 1]).toBe(STOPS.length - 1);
    expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(body.orderedStops.map((stop: { order: number }) => stop.order)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(body.legs).toHaveLength(STOPS.length - 1);

    const seconds = await engineSeconds(STOPS);
    const travel = (path: number[]) => path.slice(1).reduce((sum, to, index) => sum + seconds[path[index]!]![to]!, 0);
    const best = Math.min(...permutations([1, 2, 3, 4]).map((middle) => travel([0, ...middle, 5])));
    // the matrix endpoint rounds each cell to the second
    expect(Math.abs(travel(order) - best)).toBeLessThanOrEqual(STOPS.length);
    expect(Math.abs(body.totals.travelMinutes * 60 - best)).toBeLessThanOrEqual(STOPS.length + 6);
    body.legs.forEach((leg: { from: number; to: number; minutes: number }, index: number) => {
      expect(leg).toMatchObject({ from: index, to: index + 1 });
      expect(Math.abs(leg.minutes - seconds[order[index]!]![order[index + 1]!]! / 60)).toBeLessThanOrEqual(0.06);
    });
    expect(body.totals.dwellMinutes).toBe(50);
    expect(body.totals.totalMinutes).toBeCloseTo(body.totals.travelMinutes + 50, 6);
    const legKm = body.legs.reduce((sum: number, leg: { distanceKm: number }) => sum + leg.distanceKm, 0);
    expect(Math.abs(legKm - body.totals.distanceKm)).toBeLessThan(0.01);
  });

  it('walking takes longer than driving the same stops', async () => {
    const [driving, walking] = await Promise.all(['auto', 'pedestrian'].map(async (costing) => (await api.post('/itinerary/plan', { stops: STOPS.slice(0, 3), costing }, await caller())).body));
    expect(walking.costing).toBe('pedestrian');
    expect(walking.totals.travelMinutes).toBeGreaterThan(driving.totals.travelMinutes);
  });

  it('answers available:false when a stop cannot be reached', async () => {
    const response = await api.post('/itinerary/plan', { stops: [STOPS[0], { lat: 0, lng: 0, name: 'Gulf of Guinea' }, STOPS[1]] }, await caller());
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ provider: 'svc-itinerary', available: false, legs: [], totals: null });
    expect(response.body.reason).toMatch(/no_road_nearby|no_route/);
  });

  it('refuses a non-array, fewer than 2 or more than 40 stops, bad coordinates and costings with 400', async () => {
    const many = Array.from({ length: 41 }, (_, index) => ({ lat: 30.06 + index * 0.0001, lng: 31.33 }));
    for (const body of [{}, { stops: 'x' }, { stops: { lat: 30, lng: 31 } }, { stops: [] }, { stops: [STOPS[0]] }, { stops: many }, { stops: [STOPS[0], { lat: 91, lng: 0 }] }, { stops: [STOPS[0], { lng: 31 }] }, { stops: STOPS.slice(0, 2), costing: 'truck' }, { stops: [STOPS[0], { ...STOPS[1], dwellMin: -1 }] }]) {
      const response = await api.post('/itinerary/plan', body, await caller());
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
    const forty = await api.post('/itinerary/plan', { stops: many.slice(0, 40) }, await caller());
    expect(forty.status).toBe(201);
    expect(forty.body.legs).toHaveLength(39);
  });

  it('needs a caller', async () => {
    expect((await api.post('/itinerary/plan', { stops: STOPS.slice(0, 2) })).status).toBe(401);
  });
});

describe('POST /itinerary/auto', () => {
  const auto = async (body: Record<string, unknown>) => api.post('/itinerary/auto', { start: START, ...body }, await caller());

  it('chooses stops of the interests within the budget and the radius, ordered, with the skipped ones and their reasons', async () => {
    const response = await auto({ interests: ['restaurant', 'cafe'], timeBudgetMin: 180, radiusKm: 3, dwellMin: 25, maxCandidates: 20 });
    expect(response.status).toBe(201);
    const { body } = response;
    expect(body).toMatchObject({ provider: 'svc-itinerary', available: true, start: START, costing: 'pedestrian' });
    const { totals, orderedStops, skipped } = body;
    expect(orderedStops.length).toBeGreaterThan(0);
    expect(totals.stops).toBe(orderedStops.length);
    expect(totals.candidatesConsidered).toBeLessThanOrEqual(20);
    expect(totals.candidatesConsidered).toBe(orderedStops.length + skipped.length);
    expect(totals.budgetMinutes).toBe(180);
    expect(totals.totalMinutes).toBeLessThanOrEqual(180);
    expect(totals.dwellMinutes).toBe(25 * orderedStops.length);
    expect(totals.totalMinutes).toBeCloseTo(totals.travelMinutes + totals.dwellMinutes, 6);
    const food = new Set(['restaurant', 'fast-food', 'cafe', 'bakery', 'juice-bar', 'sweets']);
    orderedStops.forEach((stop: any, index: number) => {
      expect(stop).toMatchObject({ order: index, dwellMin: 25 });
      expect(food.has(stop.category), stop.category).toBe(true);
      expect(typeof stop.placeId).toBe('string');
      expect(typeof stop.slug).toBe('string');
      expect(stop.name).toBeTruthy();
      expect(typeof stop.rating).toBe('number');
      // within the radius, straight line
      const km = Math.hypot((stop.lat - START.lat) * 111.2, (stop.lng - START.lng) * 111.2 * Math.cos((START.lat * Math.PI) / 180));
      expect(km).toBeLessThanOrEqual(3.01);
      if (index) expect(stop.arriveAtMin).toBeGreaterThanOrEqual(orderedStops[index - 1].arriveAtMin + 25);
    });
    for (const skip of skipped) {
      expect(skip).toMatchObject({ name: expect.any(String), rating: expect.any(Number) });
      expect(['time_budget', 'too_far', 'no_route']).toContain(skip.reason);
    }
    // the travel is the engine's: the walking times of the tour's legs add up to travelMinutes
    const seconds = await engineSeconds([START, ...orderedStops], 'pedestrian');
    const legs = orderedStops.reduce((sum: number, _stop: unknown, index: number) => sum + seconds[index]![index + 1]!, 0);
    expect(Math.abs(legs / 60 - totals.travelMinutes)).toBeLessThanOrEqual(0.2 + orderedStops.length / 60);
  });

  it('reads Arabic interests as their English categories', async () => {
    const body = { timeBudgetMin: 120, radiusKm: 4, maxCandidates: 15 };
    const [english, arabic] = await Promise.all([auto({ ...body, interests: ['restaurants'] }), auto({ ...body, interests: ['مطاعم'] })]);
    expect(arabic.status).toBe(201);
    expect(arabic.body.orderedStops.length).toBeGreaterThan(0);
    expect(arabic.body.orderedStops.map((stop: { placeId: string }) => stop.placeId)).toEqual(english.body.orderedStops.map((stop: { placeId: string }) => stop.placeId));
    expect(arabic.body.unmatchedInterests).toEqual([]);
  });

  it('never goes over budget: a budget too small for any stop visits none and says why', async () => {
    const response = await auto({ interests: ['hospital'], timeBudgetMin: 30, dwellMin: 30, radiusKm: 5 });
    expect(response.status).toBe(201);
    expect(response.body.orderedStops).toEqual([]);
    expect(response.body.totals).toMatchObject({ stops: 0, totalMinutes: 0, budgetMinutes: 30 });
    expect(response.body.skipped.length).toBe(response.body.totals.candidatesConsidered);
    expect(response.body.skipped.length).toBeGreaterThan(0);
    for (const skip of response.body.skipped) expect(skip.reason).toBe('too_far');
  });

  it('a larger budget visits at least as much value, and a round trip still fits', async () => {
    const body = { interests: ['pharmacy', 'mosque'], radiusKm: 3, dwellMin: 10, maxCandidates: 25 };
    const [short, long, round] = await Promise.all([auto({ ...body, timeBudgetMin: 60 }), auto({ ...body, timeBudgetMin: 240 }), auto({ ...body, timeBudgetMin: 120, returnToStart: true })]);
    expect(long.body.totals.value).toBeGreaterThanOrEqual(short.body.totals.value);
    expect(long.body.totals.stops).toBeGreaterThan(0);
    for (const answer of [short, long, round]) expect(answer.body.totals.totalMinutes).toBeLessThanOrEqual(answer.body.totals.budgetMinutes);
    expect(round.body.returnToStart).toBe(true);
  });

  it('weights by rating: a well-reviewed place outranks the unreviewed ones', async () => {
    const body = { interests: ['clinic'], timeBudgetMin: 240, radiusKm: 4, dwellMin: 15 };
    const before = (await auto({ ...body, maxCandidates: 30 })).body;
    const candidates = [...before.orderedStops, ...before.skipped].filter((place: any) => place.reason !== 'too_far' && place.reason !== 'no_route');
    expect(candidates.length).toBeGreaterThan(1);
    for (const place of candidates) expect(place.value).toBe(3);
    // one of them (the last by slug) gets two five-star reviews
    const target = candidates.sort((a: any, b: any) => a.slug.localeCompare(b.slug))[candidates.length - 1];
    for (const label of ['reviewer-a', 'reviewer-b']) {
      const reviewer = await registerUser(api, label);
      expect((await api.post(`/places/${target.slug}/reviews`, { rating: 5 }, reviewer.token)).status).toBe(201);
    }
    const after = (await auto({ ...body, maxCandidates: 1 })).body;
    expect(after.totals.candidatesConsidered).toBe(1);
    // (5·2 + 3·2) / (2 + 2): the Bayesian average the docs give
    expect(after.orderedStops).toEqual([expect.objectContaining({ slug: target.slug, rating: 5, value: 4 })]);
  });

  it('says which interests named nothing and answers an empty plan when none did', async () => {
    const response = await auto({ interests: ['zzqqxx'] });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ available: true, orderedStops: [], unmatchedInterests: ['zzqqxx'], totals: { stops: 0, candidatesConsidered: 0 } });
  });

  it('refuses out-of-range parameters with 400', async () => {
    for (const body of [{ start: undefined }, { start: { lat: 95, lng: 31 } }, { timeBudgetMin: 29 }, { timeBudgetMin: 1441 }, { radiusKm: 51 }, { radiusKm: 0 }, { maxCandidates: 61 }, { maxCandidates: 0 }, { interests: 'food' }, { costing: 'truck' }, { dwellMin: -5 }]) {
      const response = await api.post('/itinerary/auto', { start: START, ...body }, await caller());
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('saved itineraries', () => {
  const itinerary = { name: 'Nasr City day', stops: STOPS.slice(0, 3), notes: 'Start early' };

  it('saves, lists, updates by POST and PATCH (null clears notes and plan) and deletes', async () => {
    const user = await registerUser(api, 'saver');
    const created = await api.post('/me/itineraries', { ...itinerary, plan: { totals: { totalMinutes: 42 } } }, user.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ provider: 'svc-itinerary', name: 'Nasr City day', notes: 'Start early', isPublic: false, plan: { totals: { totalMinutes: 42 } } });
    expect(created.body.stops).toHaveLength(3);
    expect(created.body.stops[0]).toMatchObject({ lat: 30.0626, lng: 31.3219, dwellMin: 0 });
    expect(created.body).not.toHaveProperty('shareSlug');
    expect(created.body.createdAt).toBeTruthy();
    const id = created.body.id;

    const list = await api.get('/me/itineraries', user.token);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ provider: 'svc-itinerary', count: 1 });
    expect(list.body.itineraries[0].id).toBe(id);

    const renamed = await api.post(`/me/itineraries/${id}`, { name: 'Renamed' }, user.token);
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', notes: 'Start early', plan: { totals: { totalMinutes: 42 } } });
    const cleared = await api.patch(`/me/itineraries/${id}`, { notes: null, plan: null }, user.token);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ name: 'Renamed', notes: null, plan: null });
    expect(cleared.body.stops).toHaveLength(3);
    const restopped = await api.patch(`/me/itineraries/${id}`, { stops: STOPS.slice(0, 1) }, user.token);
    expect(restopped.body.stops).toHaveLength(1);

    const deleted = await api.delete(`/me/itineraries/${id}`, user.token);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ deleted: true, id });
    expect((await api.delete(`/me/itineraries/${id}`, user.token)).status).toBe(404);
    expect((await api.patch(`/me/itineraries/${id}`, { name: 'x' }, user.token)).status).toBe(404);
    expect((await api.get('/me/itineraries', user.token)).body.count).toBe(0);
  });

  it('has a share slug only while public, served to anyone; withdrawing it kills the link', async () => {
    const user = await registerUser(api, 'sharer');
    const created = (await api.post('/me/itineraries', { ...itinerary, isPublic: true }, user.token)).body;
    expect(created.isPublic).toBe(true);
    expect(created.shareSlug).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    const shared = await api.get(`/itineraries/${created.shareSlug}`);
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ provider: 'svc-itinerary', id: created.id, name: itinerary.name, shareSlug: created.shareSlug, isPublic: true });
    expect(JSON.stringify(shared.body)).not.toContain(user.userId);

    const hidden = await api.patch(`/me/itineraries/${created.id}`, { isPublic: false }, user.token);
    expect(hidden.body.isPublic).toBe(false);
    expect(hidden.body).not.toHaveProperty('shareSlug');
    expect((await api.get(`/itineraries/${created.shareSlug}`)).status).toBe(404);
    const again = await api.patch(`/me/itineraries/${created.id}`, { isPublic: true }, user.token);
    expect(again.body.shareSlug).toBeTruthy();
    expect(again.body.shareSlug).not.toBe(created.shareSlug);
    expect((await api.get(`/itineraries/${again.body.shareSlug}`)).status).toBe(200);
    expect((await api.get('/itineraries/no-such-slug')).status).toBe(404);
  });

  it("answers another user's itinerary exactly as an unknown one", async () => {
    const owner = await registerUser(api, 'owner');
    const other = await registerUser(api, 'other');
    const mine = (await api.post('/me/itineraries', itinerary, owner.token)).body;
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const call of [
      (id: string) => api.patch(`/me/itineraries/${id}`, { name: 'stolen' }, other.token),
      (id: string) => api.post(`/me/itineraries/${id}`, { name: 'stolen' }, other.token),
      (id: string) => api.delete(`/me/itineraries/${id}`, other.token),
    ]) {
      const [theirs, none] = await Promise.all([call(mine.id), call(unknown)]);
      expect(theirs.status).toBe(404);
      const strip = ({ requestId: _id, ...rest }: Record<string, unknown>) => rest;
      expect(strip(theirs.body)).toEqual(strip(none.body));
    }
    expect((await api.get('/me/itineraries', other.token)).body.count).toBe(0);
    expect((await api.get('/me/itineraries', owner.token)).body.itineraries[0]).toMatchObject({ id: mine.id, name: itinerary.name });
  });

  it('refuses missing or oversized stops, notes over 500 characters and a missing name with 400', async () => {
    const user = await registerUser(api, 'validator');
    const many = Array.from({ length: 41 }, () => STOPS[0]);
    for (const body of [{ name: 'x' }, { name: 'x', stops: [] }, { name: 'x', stops: many }, { name: 'x', stops: 'a' }, { stops: STOPS }, { ...itinerary, notes: 'n'.repeat(501) }, { ...itinerary, stops: [{ lat: 30 }] }]) {
      const response = await api.post('/me/itineraries', body, user.token);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await api.post('/me/itineraries', { ...itinerary, notes: 'n'.repeat(500) }, user.token)).status).toBe(201);
    const id = (await api.get('/me/itineraries', user.token)).body.itineraries[0].id;
    expect((await api.patch(`/me/itineraries/${id}`, { notes: 'n'.repeat(501) }, user.token)).status).toBe(400);
    expect((await api.patch(`/me/itineraries/${id}`, { stops: many }, user.token)).status).toBe(400);
    expect((await api.patch('/me/itineraries/not-a-uuid', { name: 'x' }, user.token)).status).toBe(400);
  });

  it('needs a signed-in user', async () => {
    expect((await api.get('/me/itineraries')).status).toBe(401);
    expect((await api.post('/me/itineraries', itinerary)).status).toBe(401);
    expect((await api.get('/me/itineraries', 'not-a-token')).status).toBe(401);
  });

  it('are in the account export and go with the account', async () => {
    const user = await registerUser(api, 'leaver');
    const saved = (await api.post('/me/itineraries', { ...itinerary, isPublic: true }, user.token)).body;
    const exported = await api.get('/auth/me/export', user.token);
    expect(exported.status).toBe(200);
    expect(exported.body.itineraries).toHaveLength(1);
    expect(exported.body.itineraries[0]).toMatchObject({ id: saved.id, name: itinerary.name, notes: itinerary.notes });
    const deleted = await fetch(`${fixture.server.baseUrl}/api/v1/auth/me`, { method: 'DELETE', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ confirm: 'DELETE', password: PASSWORD }) });
    expect(deleted.status).toBeLessThan(300);
    expect((await api.get(`/itineraries/${saved.shareSlug}`)).status).toBe(404);
    // a new account with a fresh client sees none of it
    const fresh = await registerUser(apiClient(fixture.server.baseUrl), 'newcomer');
    expect((await api.get('/me/itineraries', fresh.token)).body.count).toBe(0);
  });
});
