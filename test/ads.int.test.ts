/**
 * Promoted placements (spec part 3 §4.10; docs/ads.md), black-box against a started server with an operator:
 * campaign CRUD and its validation, promoted_pin results by map box (target box or radius), categories and
 * schedule, clicks recorded once per client click id and charged against the budget until it is spent (then
 * the ad is no longer served), concurrent clicks never overspending, and sponsored marks in /search.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type ApiClient } from './support/api-client.js';
import { keysWithScopes } from './support/api-keys.js';
import { expectError } from './support/expect-error.js';
import { startServerWithAdmin, type ServerWithAdmin } from './support/server-with-admin.js';

type User = Awaited<ReturnType<typeof registerUser>>;
let deployment: ServerWithAdmin;
let api: ApiClient;
let admin: User;
let viewer: User;
/** A place of the default catalogue: its id, name and coordinates. */
let place: { id: string; slug: string; name: string; lat: number; lng: number };

beforeAll(async () => {
  deployment = await startServerWithAdmin('ads');
  ({ api, admin } = deployment);
  viewer = await registerUser(api, 'viewer');
  const items = (await api.get('/places?sort=name&limit=50')).body.items as { id: string; slug: string; nameEn: string | null; center: string }[];
  const named = items.find((item) => item.nameEn && /^[A-Za-z ]{4,}$/.test(item.nameEn))!;
  const [lng, lat] = /POINT\(([-\d.]+) ([-\d.]+)\)/.exec(named.center)!.slice(1).map(Number) as [number, number];
  place = { id: named.id, slug: named.slug, name: named.nameEn!, lat, lng };
}, 180_000);

afterAll(async () => {
  await deployment?.stop();
});

/** A box of ± `halfDeg` around a point, as the bbox query parameter. */
const boxAround = (lat: number, lng: number, halfDeg: number) => `${lng - halfDeg},${lat - halfDeg},${lng + halfDeg},${lat + halfDeg}`;

/** A campaign at a pin of its own (far from other tests' pins unless placed), 10 fils a click, a 1 JOD budget. */
async function campaign(fields: Record<string, unknown>) {
  const response = await api.post(
    '/admin/ads/campaigns',
    { title: 'Shawarma Reem', ctaUrl: 'https://example.jo/reem', currency: 'JOD', costPerClickMinor: 10, budgetMinor: 1_000, radiusMeters: 2_000, ...fields },
    admin.token,
  );
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const promoted = (query: string) => api.get(`/ads/promoted?${query}`, viewer.token);
const click = (id: string, clickId: string = randomUUID()) => api.post(`/ads/${id}/click`, { clickId, source: 'map' }, viewer.token);

describe('operator campaigns', () => {
  it('creates on a place, reads, lists, changes and deletes a campaign', async () => {
    const created = await campaign({ placeId: place.slug, subtitle: 'Open late', imageUrl: 'https://example.jo/reem.jpg', categories: ['restaurant', 'restaurant', 'fast_food'] });
    expect(created).toMatchObject({
      id: expect.any(String),
      placeId: place.id,
      lat: place.lat,
      lng: place.lng,
      categories: ['restaurant', 'fast_food'],
      radiusMeters: 2_000,
      targetBbox: null,
      spentMinor: 0,
      remainingMinor: 1_000,
      clicks: 0,
      status: 'running',
    });
    expect((await api.get(`/admin/ads/campaigns/${created.id}`, admin.token)).body).toEqual(created);
    expect((await api.get('/admin/ads/campaigns', admin.token)).body.items.map((item: { id: string }) => item.id)).toContain(created.id);
    // a target box replaces the radius; pausing shows in the status
    const patched = await api.patch(`/admin/ads/campaigns/${created.id}`, { targetBbox: [31.0, 29.9, 31.5, 30.2], active: false, budgetMinor: 2_000 }, admin.token);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ targetBbox: [31.0, 29.9, 31.5, 30.2], radiusMeters: null, status: 'paused', budgetMinor: 2_000, title: 'Shawarma Reem', placeId: place.id, categories: ['restaurant', 'fast_food'] });
    expect((await api.delete(`/admin/ads/campaigns/${created.id}`, admin.token)).status).toBe(200);
    expectError(await api.get(`/admin/ads/campaigns/${created.id}`, admin.token), 404, 'NOT_FOUND');
    expectError(await api.patch(`/admin/ads/campaigns/${created.id}`, { title: 'x' }, admin.token), 404, 'NOT_FOUND');
  });

  it('refuses bad campaigns with a 400 naming the field, and anyone but an operator', async () => {
    const base = { title: 'Bad', ctaUrl: 'https://example.jo', currency: 'JOD', costPerClickMinor: 10, budgetMinor: 100, lat: 30, lng: 31 };
    const bad: Record<string, unknown>[] = [
      { ...base }, // neither a box nor a radius
      { ...base, radiusMeters: 1000, targetBbox: [31, 30, 31.1, 30.1] }, // both
      { ...base, targetBbox: [31.1, 30, 31, 30.1] }, // west > east
      { ...base, radiusMeters: 1000, ctaUrl: 'http://example.jo' }, // not https
      { ...base, radiusMeters: 1000, ctaUrl: 'javascript:alert(1)' },
      { ...base, radiusMeters: 1000, budgetMinor: 5 }, // not one click
      { ...base, radiusMeters: 1000, currency: 'USD' },
      { ...base, radiusMeters: 1000, lat: undefined }, // no pin and no place
      { ...base, radiusMeters: 1000, placeId: 'no-such-place-anywhere' },
      { ...base, radiusMeters: 1000, startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' },
      { ...base, radiusMeters: 1000, categories: ['Not A Slug'] },
      { ...base, radiusMeters: 1000, title: '' },
    ];
    for (const body of bad) expectError(await api.post('/admin/ads/campaigns', body, admin.token), 400, 'VALIDATION_ERROR');
    expectError(await api.post('/admin/ads/campaigns', { ...base, radiusMeters: 1000 }, viewer.token), 403, 'FORBIDDEN');
    expectError(await api.get('/admin/ads/campaigns', viewer.token), 403, 'FORBIDDEN');
    expectError(await api.get(`/admin/ads/campaigns/${randomUUID()}`, admin.token), 404, 'NOT_FOUND');
  });
});

describe('GET /ads/promoted', () => {
  it('serves promoted pins whose target reaches the box, filtered by categories and schedule', async () => {
    // a pin of its own, far from the other tests' pins
    const pin = { lat: 31.2, lng: 29.9 };
    const radius = await campaign({ ...pin, radiusMeters: 1_500, categories: ['cafe'], title: 'Cafe Radius', subtitle: 'Espresso' });
    const boxed = await campaign({ lat: 31.25, lng: 29.95, radiusMeters: null, targetBbox: [29.94, 31.24, 29.96, 31.26], categories: ['pharmacy'], title: 'Pharmacy Box' });
    const later = await campaign({ ...pin, categories: ['cafe'], startsAt: new Date(Date.now() + 86_400_000).toISOString() });
    const ended = await campaign({ ...pin, categories: ['cafe'], startsAt: '2024-01-01T00:00:00Z', endsAt: '2024-02-01T00:00:00Z' });
    const paused = await campaign({ ...pin, categories: ['cafe'], active: false });

    const near = await promoted(`bbox=${boxAround(pin.lat, pin.lng, 0.005)}`);
    expect(near.status).toBe(200);
    expect(near.body).toMatchObject({ provider: 'svc-ads', type: 'promoted_pin' });
    expect(near.body.ads.map((ad: { id: string }) => ad.id)).toEqual([radius.id]);
    expect(near.body.count).toBe(1);
    expect(near.body.ads[0]).toEqual({
      id: radius.id,
      type: 'promoted_pin',
      placeId: null,
      title: 'Cafe Radius',
      subtitle: 'Espresso',
      imageUrl: null,
      ctaUrl: 'https://example.jo/reem',
      lat: pin.lat,
      lng: pin.lng,
      sponsored: true,
    });
    // ~1.1 km east of the pin: inside the 1.5 km radius; ~3.3 km: outside
    expect((await promoted(`bbox=${29.9115},${31.199},${29.912},${31.201}`)).body.ads.map((ad: { id: string }) => ad.id)).toEqual([radius.id]);
    expect((await promoted(`bbox=${29.935},${31.199},${29.936},${31.201}`)).body.count).toBe(0);
    // the target box, not the pin, decides
    const both = (await promoted(`bbox=29.89,31.19,29.945,31.245`)).body.ads.map((ad: { id: string }) => ad.id).sort();
    expect(both).toEqual([radius.id, boxed.id].sort());
    expect((await promoted(`bbox=29.89,31.19,29.945,31.245&categories=pharmacy`)).body.ads.map((ad: { id: string }) => ad.id)).toEqual([boxed.id]);
    expect((await promoted(`bbox=29.89,31.19,29.945,31.245&categories=bakery, CAFE`)).body.ads.map((ad: { id: string }) => ad.id)).toEqual([radius.id]);
    expect((await promoted(`bbox=29.89,31.19,29.945,31.245&categories=bakery`)).body.count).toBe(0);
    // scheduled, ended and paused campaigns are not served; their status says why
    for (const [id, status] of [
      [later.id, 'scheduled'],
      [ended.id, 'ended'],
      [paused.id, 'paused'],
    ]) {
      expect((await api.get(`/admin/ads/campaigns/${id}`, admin.token)).body.status).toBe(status);
    }
    // serving is free and records nothing
    const after = (await api.get(`/admin/ads/campaigns/${radius.id}`, admin.token)).body;
    expect(after).toMatchObject({ clicks: 0, spentMinor: 0 });
  });

  it('needs a valid bbox and a caller; an API key is enough', async () => {
    expectError(await promoted(''), 400, 'VALIDATION_ERROR');
    expectError(await promoted('bbox=1,2,3'), 400, 'VALIDATION_ERROR');
    expectError(await promoted('bbox=10,10,5,5'), 400, 'VALIDATION_ERROR');
    expectError(await api.get('/ads/promoted?bbox=29,31,30,32'), 401, 'UNAUTHENTICATED');
    const { keys } = await keysWithScopes(api, {});
    expect((await api.get('/ads/promoted?bbox=29,31,30,32', undefined, { 'x-api-key': keys[0]! })).status).toBe(200);
  });
});

describe('POST /ads/{id}/click', () => {
  it('records a click once per clickId, charges it against the budget, and stops serving when the budget is spent', async () => {
    const pin = { lat: 31.5, lng: 29.5 };
    const bbox = boxAround(pin.lat, pin.lng, 0.01);
    const ad = await campaign({ ...pin, costPerClickMinor: 250, budgetMinor: 500, currency: 'SAR' });
    const first = await click(ad.id, 'tap-0001');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ok: true, id: ad.id, clickId: 'tap-0001', duplicate: false, charged: true, chargedMinor: 250, currency: 'SAR', ctaUrl: 'https://example.jo/reem' });
    // the client retries the same tap: same answer, not billed again
    const retry = await click(ad.id, 'tap-0001');
    expect(retry.body).toEqual({ ...first.body, duplicate: true });
    expect((await api.get(`/admin/ads/campaigns/${ad.id}`, admin.token)).body).toMatchObject({ clicks: 1, spentMinor: 250, remainingMinor: 250 });
    expect((await promoted(`bbox=${bbox}`)).body.count).toBe(1);

    expect((await click(ad.id, 'tap-0002')).body.charged).toBe(true);
    expect((await api.get(`/admin/ads/campaigns/${ad.id}`, admin.token)).body).toMatchObject({ clicks: 2, spentMinor: 500, remainingMinor: 0, status: 'budget_exhausted' });
    expect((await promoted(`bbox=${bbox}`)).body.count).toBe(0);
    // a client holding the old pin may still click: recorded, not charged, and the CTA still opens
    const late = await click(ad.id, 'tap-0003');
    expect(late.body).toMatchObject({ ok: true, duplicate: false, charged: false, chargedMinor: 0, ctaUrl: 'https://example.jo/reem' });
    // raising the budget serves it again
    await api.patch(`/admin/ads/campaigns/${ad.id}`, { budgetMinor: 750 }, admin.token);
    expect((await promoted(`bbox=${bbox}`)).body.count).toBe(1);
  });

  it('never overspends under concurrent clicks', async () => {
    const ad = await campaign({ lat: 31.6, lng: 29.6, costPerClickMinor: 100, budgetMinor: 300 });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => click(ad.id, `burst-${index}-${randomUUID()}`)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.body.charged)).toHaveLength(3);
    expect((await api.get(`/admin/ads/campaigns/${ad.id}`, admin.token)).body).toMatchObject({ clicks: 3, spentMinor: 300 });
    // the same click id sent twice at once is recorded once
    const ad2 = await campaign({ lat: 31.7, lng: 29.7 });
    const twins = await Promise.all([click(ad2.id, 'same-tap-xyz'), click(ad2.id, 'same-tap-xyz')]);
    expect(twins.map((answer) => answer.body.duplicate).sort()).toEqual([false, true]);
    expect((await api.get(`/admin/ads/campaigns/${ad2.id}`, admin.token)).body).toMatchObject({ clicks: 1, spentMinor: 10 });
  });

  it('answers 404 for an unknown campaign and 400 for a bad click body; needs a caller', async () => {
    const ad = await campaign({ lat: 31.8, lng: 29.8 });
    expectError(await click(randomUUID()), 404, 'NOT_FOUND');
    expectError(await click('not-a-uuid'), 400, 'VALIDATION_ERROR');
    expectError(await api.post(`/ads/${ad.id}/click`, {}, viewer.token), 400, 'VALIDATION_ERROR');
    expectError(await api.post(`/ads/${ad.id}/click`, { clickId: 'short' }, viewer.token), 400, 'VALIDATION_ERROR');
    expectError(await api.post(`/ads/${ad.id}/click`, { clickId: 'has spaces in it' }, viewer.token), 400, 'VALIDATION_ERROR');
    expectError(await api.post(`/ads/${ad.id}/click`, { clickId: 'tap-00000001', source: 'billboard' }, viewer.token), 400, 'VALIDATION_ERROR');
    expectError(await api.post(`/ads/${ad.id}/click`, { clickId: 'tap-00000001' }), 401, 'UNAUTHENTICATED');
    expect((await api.get(`/admin/ads/campaigns/${ad.id}`, admin.token)).body.clicks).toBe(0);
  });
});

describe('sponsored results in /search', () => {
  it('marks a place with a live campaign sponsored, with the campaign to click, and stops when the budget is spent', async () => {
    const search = () => api.get(`/search?q=${encodeURIComponent(place.name)}&limit=20`);
    const before = (await search()).body.items as { id: string; sponsored: boolean; adId?: string }[];
    const unsponsored = before.find((item) => item.id === place.id)!;
    expect(unsponsored).toBeDefined();
    expect(unsponsored.adId).toBeUndefined();

    const ad = await campaign({ placeId: place.id, costPerClickMinor: 10, budgetMinor: 10 });
    const items = (await search()).body.items as { id: string; sponsored: boolean; adId?: string }[];
    expect(items.map((item) => item.id)).toEqual(before.map((item) => item.id)); // marked, never moved
    const marked = items.find((item) => item.id === place.id)!;
    expect(marked).toMatchObject({ sponsored: true, adId: ad.id });
    expect(items.filter((item) => item.adId !== undefined)).toHaveLength(1);

    expect((await click(ad.id)).body.charged).toBe(true);
    const spent = ((await search()).body.items as { id: string; sponsored: boolean; adId?: string }[]).find((item) => item.id === place.id)!;
    expect(spent.adId).toBeUndefined();
    expect(spent.sponsored).toBe(unsponsored.sponsored);
  });
});
