/**
 * Plans, metering, entitlements and the payment webhook (spec part 3 §2.9, §4.9; docs/billing.md),
 * black-box against a started server with an operator and a webhook secret: the catalogue against the
 * key quotas of part 1 §2.3, weighted usage per key and per project and the invoice preview, the signed
 * webhook (signature, timestamp window, replay, out-of-order events), renew/lapse/refund/cancel changing
 * entitlements, operator grants and revocations, and the offline_maps gate of offline manifests.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type ApiClient } from './support/api-client.js';
import { eventBody, postWebhook, signature, subscribe, WEBHOOK_SECRET } from './support/payment-sender.js';
import { expectError } from './support/expect-error.js';
import { startServerWithAdmin, type ServerWithAdmin } from './support/server-with-admin.js';

type User = Awaited<ReturnType<typeof registerUser>>;
let deployment: ServerWithAdmin;
let api: ApiClient;
let baseUrl: string;
let admin: User;

beforeAll(async () => {
  deployment = await startServerWithAdmin('billing', { BILLING_WEBHOOK_SECRET: WEBHOOK_SECRET });
  ({ api, admin } = deployment);
  baseUrl = deployment.server.baseUrl;
}, 180_000);

afterAll(async () => {
  await deployment?.stop();
});

/** A developer with an organization, a project and one key (default scopes) on `plan`. */
async function developer(label: string, plan = 'free') {
  const user = await registerUser(api, label);
  await api.post('/developer/enroll', undefined, user.token);
  const organization = (await api.post('/developer/organizations', { name: `${label} org` }, user.token)).body;
  const project = (await api.post('/developer/projects', { name: `${label} app`, organizationId: organization.id }, user.token)).body;
  const key = (await api.post('/developer/api-keys', { projectId: project.id, label: 'web', plan }, user.token)).body;
  return { ...user, project, key };
}

const withKey = (key: string) => ({ 'x-api-key': key });

describe('GET /billing/plans', () => {
  it('lists free, starter, growth and enterprise with the key quotas of part 1 §2.3, JOD by default', async () => {
    const user = await registerUser(api, 'plans');
    const response = await api.get('/billing/plans', user.token);
    expect(response.status).toBe(200);
    expect(response.body.provider).toBe('svc-billing');
    expect(response.body.currency).toBe('JOD');
    const plans = response.body.plans as Record<string, any>[];
    expect(plans.map((plan) => plan.key)).toEqual(['free', 'starter', 'growth', 'enterprise']);
    for (const plan of plans) {
      expect(Object.keys(plan).sort()).toEqual(
        ['key', 'name', 'tagline', 'currency', 'monthlyPriceMinor', 'includedRequests', 'overagePerThousandMinor', 'rateLimitPerMin', 'rateLimitPerDay', 'features'].sort(),
      );
      expect(plan.currency).toBe('JOD');
    }
    // the catalogue and the key plans of the developer portal never disagree
    await api.post('/developer/enroll', undefined, user.token);
    const keyPlans = (await api.get('/developer/overview', user.token)).body.plans as { plan: string; quotaPerMinute: number; quotaPerDay: number; includedMonthlyRequests: number }[];
    for (const plan of plans.filter((entry) => entry.key !== 'enterprise')) {
      const keyPlan = keyPlans.find((entry) => entry.plan === plan.key)!;
      expect(plan).toMatchObject({ rateLimitPerMin: keyPlan.quotaPerMinute, rateLimitPerDay: keyPlan.quotaPerDay, includedRequests: keyPlan.includedMonthlyRequests });
    }
    expect(plans[0]).toMatchObject({ key: 'free', monthlyPriceMinor: 0, overagePerThousandMinor: 0, rateLimitPerMin: 60, rateLimitPerDay: 5000 });
    // JOD is in thousandths: a whole number of fils, a paid plan costs something
    expect(plans[1]!.monthlyPriceMinor).toBeGreaterThan(0);
    expect(plans[2]!.monthlyPriceMinor).toBeGreaterThan(plans[1]!.monthlyPriceMinor);
    expect(plans[3]).toMatchObject({ monthlyPriceMinor: null, includedRequests: null, overagePerThousandMinor: null, rateLimitPerMin: null, rateLimitPerDay: null });
    expect(response.body.requestWeights).toMatchObject({ default: 1, routing: 5 });
    expect(response.body.requestWeights.geocodeArabic).toBeGreaterThan(response.body.requestWeights.geocodeLatin);
  });

  it('prices in SAR and AED in hundredths, answers an API key, and refuses an unknown currency and the anonymous', async () => {
    const dev = await developer('plans-key');
    const sar = await api.get('/billing/plans?currency=SAR', undefined, withKey(dev.key.key));
    expect(sar.status).toBe(200);
    expect(sar.body.currency).toBe('SAR');
    expect(sar.body.plans.every((plan: { currency: string }) => plan.currency === 'SAR')).toBe(true);
    const jod = (await api.get('/billing/plans', dev.token)).body;
    // prices are set per currency, not a JOD figure relabelled
    expect(sar.body.plans[1].monthlyPriceMinor).not.toBe(jod.plans[1].monthlyPriceMinor);
    expect((await api.get('/billing/plans?currency=AED', dev.token)).body.plans[3].monthlyPriceMinor).toBeNull();
    expectError(await api.get('/billing/plans?currency=USD', dev.token), 400, 'VALIDATION_ERROR');
    expectError(await api.get('/billing/plans'), 401, 'UNAUTHENTICATED');
  });
});

describe('metering and the invoice preview', () => {
  it('counts each keyed request at its weight, per key and per project, and previews the invoice exactly', async () => {
    const dev = await developer('meter');
    const second = (await api.post('/developer/api-keys', { projectId: dev.project.id, label: 'ios' }, dev.token)).body;
    const key = withKey(dev.key.key);
    // weights: Latin geocoding 2, Arabic geocoding 3, routing 5, a simple lookup 1
    expect((await api.get(`/geocode/search?q=${encodeURIComponent('abbas el akkad')}`, undefined, key)).status).toBe(200);
    expect((await api.get(`/geocode/search?q=${encodeURIComponent('makram ebeid')}`, undefined, key)).status).toBe(200);
    expect((await api.get(`/geocode/search?q=${encodeURIComponent('شارع عباس العقاد')}`, undefined, key)).status).toBe(200);
    const route = await api.post('/routing/route', { payload: { locations: [{ lat: 30.0626, lon: 31.3219 }, { lat: 30.07, lon: 31.34 }] } }, undefined, key);
    expect(route.status).toBe(201);
    expect((await api.get('/billing/plans', undefined, key)).status).toBe(200);
    expect((await api.get('/billing/plans', undefined, withKey(second.key))).status).toBe(200);

    const monthly = await api.get(`/developer/api-keys/${dev.key.id}/usage/monthly`, dev.token);
    expect(monthly.status).toBe(200);
    // the key's own fields as before, plus the project as billed
    expect(monthly.body).toMatchObject({ id: dev.key.id, plan: 'free', weightedRequests: 2 + 2 + 3 + 5 + 1, rawRequests: 5, overageRequests: 0 });
    expect(monthly.body.project).toEqual({
      id: dev.project.id,
      plan: 'free',
      pricedAs: 'free',
      weightedRequests: 14,
      rawRequests: 6,
      includedRequests: monthly.body.includedRequests,
      overageRequests: 0,
      currency: 'JOD',
      overageMinor: 0,
      totalMinor: 0,
    });

    const preview = await api.get(`/developer/projects/${dev.project.id}/invoice-preview`, dev.token);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      projectId: dev.project.id,
      periodStart: monthly.body.periodStart,
      preview: true,
      plan: 'free',
      custom: false,
      currency: 'JOD',
      minorUnitsPerMajor: 1000,
      weightedRequests: 14,
      rawRequests: 6,
      overageRequests: 0,
      totalMinor: 0,
      totalFormatted: '0.000 JOD',
    });
    expect(preview.body.keys.map((entry: { id: string; weightedRequests: number }) => [entry.id, entry.weightedRequests]).sort()).toEqual(
      [
        [dev.key.id, 13],
        [second.id, 1],
      ].sort(),
    );
    const [year, month] = (monthly.body.periodStart as string).split('-').map(Number) as [number, number];
    expect(preview.body.periodEnd).toBe(new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10));

    // the project is billed on the highest plan among its keys, in the currency asked for
    expect((await api.patch(`/developer/api-keys/${second.id}`, { plan: 'starter' }, dev.token)).status).toBe(200);
    const plans = (await api.get('/billing/plans?currency=SAR', dev.token)).body.plans as { key: string; monthlyPriceMinor: number }[];
    const starter = plans.find((plan) => plan.key === 'starter')!;
    const sar = (await api.get(`/developer/projects/${dev.project.id}/invoice-preview?currency=SAR`, dev.token)).body;
    expect(sar).toMatchObject({ plan: 'starter', currency: 'SAR', minorUnitsPerMajor: 100, totalMinor: starter.monthlyPriceMinor, overageRequests: 0 });
    expect(sar.lines).toEqual([
      expect.objectContaining({ kind: 'subscription', quantity: 1, amountMinor: starter.monthlyPriceMinor }),
      expect.objectContaining({ kind: 'overage', quantity: 0, amountMinor: 0 }),
    ]);
    expect(sar.totalFormatted).toBe(`${(starter.monthlyPriceMinor / 100).toFixed(2)} SAR`);

    // enterprise (and scale) are priced by contract: amounts null, counts still exact
    expect((await api.patch(`/developer/api-keys/${second.id}`, { plan: 'scale' }, dev.token)).status).toBe(200);
    const custom = (await api.get(`/developer/projects/${dev.project.id}/invoice-preview`, dev.token)).body;
    expect(custom).toMatchObject({ plan: 'scale', pricedAs: 'enterprise', custom: true, totalMinor: null, totalFormatted: null, weightedRequests: 14, includedRequests: null, overageRequests: null });
  }, 60_000);

  it("answers 404 for another user's project and an unknown one, 400 for a bad id or currency", async () => {
    const owner = await developer('owner');
    const intruder = await developer('intruder');
    expectError(await api.get(`/developer/projects/${owner.project.id}/invoice-preview`, intruder.token), 404, 'NOT_FOUND');
    expectError(await api.get(`/developer/projects/${randomUUID()}/invoice-preview`, owner.token), 404, 'NOT_FOUND');
    expectError(await api.get('/developer/projects/nope/invoice-preview', owner.token), 400, 'VALIDATION_ERROR');
    expectError(await api.get(`/developer/projects/${owner.project.id}/invoice-preview?currency=EUR`, owner.token), 400, 'VALIDATION_ERROR');
    expectError(await api.get(`/developer/projects/${owner.project.id}/invoice-preview`), 401, 'UNAUTHENTICATED');
  });
});

describe('GET /me/entitlements', () => {
  it('starts empty, is never cached by clients, and needs a bearer token', async () => {
    const user = await registerUser(api, 'fresh');
    const response = await api.get('/me/entitlements', user.token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ provider: 'svc-entitlements', entitlements: [], plus: false, subscriptions: [] });
    expect(response.headers.get('cache-control')).toContain('no-store');
    expectError(await api.get('/me/entitlements'), 401, 'UNAUTHENTICATED');
    const dev = await developer('keyed');
    expectError(await api.get('/me/entitlements', undefined, withKey(dev.key.key)), 401, 'UNAUTHENTICATED');
  });
});

describe('payment webhook', () => {
  it('refuses a missing, malformed, wrong or tampered signature and a timestamp outside the window', async () => {
    const user = await registerUser(api, 'sig');
    const body = eventBody({ type: 'subscription.activated', data: { subscriptionId: `sub_${randomUUID()}`, userId: user.userId, product: 'offline_maps' } });
    const now = Math.floor(Date.now() / 1000);
    const cases: [Parameters<typeof postWebhook>[2], string][] = [
      [{ signatureHeader: null }, 'signature_missing'],
      [{ signatureHeader: 'sha256=abc' }, 'signature_malformed'],
      [{ secret: 'another-secret-0123456789abcdefghijklmn' }, 'signature_mismatch'],
      [{ signatureHeader: `t=${now},v1=${'0'.repeat(64)}` }, 'signature_mismatch'],
      [{ signatureHeader: `t=${now},v1=zz` }, 'signature_mismatch'],
      [{ timestampS: now - 3600 }, 'timestamp_out_of_tolerance'],
      [{ timestampS: now + 3600 }, 'timestamp_out_of_tolerance'],
    ];
    for (const [options, reason] of cases) {
      const response = await postWebhook(baseUrl, body, options);
      expect(response.status, `${reason}: ${JSON.stringify(response.body)}`).toBe(401);
      expect(response.body).toMatchObject({ code: 'UNAUTHENTICATED', details: { reason } });
    }
    // a body changed after signing: the signature of the original does not cover it
    const tampered = body.replace('offline_maps', 'svc_plus');
    const tamperedResponse = await postWebhook(baseUrl, tampered, { signatureHeader: signature(WEBHOOK_SECRET, now, body) });
    expect(tamperedResponse.body.details.reason).toBe('signature_mismatch');
    expect((await api.get('/me/entitlements', user.token)).body.entitlements).toEqual([]);
    // correctly signed but not an event: 400, never 500
    const junk = await postWebhook(baseUrl, '{"id":"x"}');
    expect(junk.status).toBe(400);
    expect(junk.body.code).toBe('VALIDATION_ERROR');
    expect((await postWebhook(baseUrl, 'not json')).status).toBe(400);
  });

  it('applies an event once: a replay or retry of the same id changes nothing', async () => {
    const user = await registerUser(api, 'replay');
    const subscriptionId = `sub_${randomUUID()}`;
    const body = eventBody({ type: 'subscription.activated', data: { subscriptionId, userId: user.userId, product: 'hazard_alerts' } });
    expect(await postWebhook(baseUrl, body)).toEqual({ status: 200, body: { received: true, duplicate: false, applied: true } });
    expect((await api.get('/me/entitlements', user.token)).body.entitlements).toEqual(['hazard_alerts']);
    // the provider lapses it, then an attacker replays the captured activation (signed, within the window)
    const lapse = eventBody({ type: 'subscription.lapsed', data: { subscriptionId, userId: user.userId, product: 'hazard_alerts' } });
    expect((await postWebhook(baseUrl, lapse)).body.applied).toBe(true);
    expect(await postWebhook(baseUrl, body)).toEqual({ status: 200, body: { received: true, duplicate: true, applied: false } });
    expect((await api.get('/me/entitlements', user.token)).body.entitlements).toEqual([]);
  });

  it('ignores an event older than the last one applied, and accepts (without effect) an unknown user', async () => {
    const user = await registerUser(api, 'order');
    const subscriptionId = `sub_${randomUUID()}`;
    const data = { subscriptionId, userId: user.userId, product: 'atlas_advanced' };
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    expect((await postWebhook(baseUrl, eventBody({ type: 'subscription.activated', occurredAt: at(10), data }))).body.applied).toBe(true);
    expect((await postWebhook(baseUrl, eventBody({ type: 'subscription.refunded', occurredAt: at(5), data }))).body.applied).toBe(true);
    // the renewal was sent before the refund but arrives after it
    const late = await postWebhook(baseUrl, eventBody({ type: 'subscription.renewed', occurredAt: at(8), data }));
    expect(late.body).toEqual({ received: true, duplicate: false, applied: false });
    const view = (await api.get('/me/entitlements', user.token)).body;
    expect(view.entitlements).toEqual([]);
    expect(view.subscriptions).toEqual([{ id: expect.any(String), product: 'atlas_advanced', status: 'refunded', currency: 'JOD', priceMinor: 2500, interval: 'month', renewsAt: expect.any(String) }]);

    const stranger = await postWebhook(baseUrl, eventBody({ type: 'subscription.activated', data: { subscriptionId: `sub_${randomUUID()}`, userId: randomUUID(), product: 'svc_plus' } }));
    expect(stranger).toEqual({ status: 200, body: { received: true, duplicate: false, applied: false } });
  });

  it('renew, cancel, lapse and refund change the entitlements; svc_plus grants every key', async () => {
    const user = await registerUser(api, 'lifecycle');
    const offline = { subscriptionId: `sub_${randomUUID()}`, userId: user.userId, product: 'offline_maps' };
    const renewsAt = new Date(Date.now() + 40 * 86_400_000).toISOString();
    await postWebhook(baseUrl, eventBody({ type: 'subscription.activated', data: offline }));
    await postWebhook(baseUrl, eventBody({ type: 'subscription.renewed', data: { ...offline, renewsAt, priceMinor: 2_400 } }));
    let view = (await api.get('/me/entitlements', user.token)).body;
    expect(view).toMatchObject({ entitlements: ['offline_maps'], plus: false });
    expect(view.subscriptions[0]).toMatchObject({ product: 'offline_maps', status: 'active', priceMinor: 2_400, renewsAt });
    // canceled: still entitled until the paid period ends
    await postWebhook(baseUrl, eventBody({ type: 'subscription.canceled', data: { ...offline, renewsAt } }));
    view = (await api.get('/me/entitlements', user.token)).body;
    expect(view.entitlements).toEqual(['offline_maps']);
    expect(view.subscriptions[0].status).toBe('canceled');
    await postWebhook(baseUrl, eventBody({ type: 'subscription.lapsed', data: offline }));
    expect((await api.get('/me/entitlements', user.token)).body.entitlements).toEqual([]);

    const plus = { subscriptionId: `sub_${randomUUID()}`, userId: user.userId, product: 'svc_plus', interval: 'year' as const };
    await postWebhook(baseUrl, eventBody({ type: 'subscription.activated', data: plus }));
    view = (await api.get('/me/entitlements', user.token)).body;
    expect(view).toMatchObject({ entitlements: ['svc_plus', 'offline_maps', 'atlas_advanced', 'hazard_alerts'], plus: true });
    await postWebhook(baseUrl, eventBody({ type: 'subscription.refunded', data: plus }));
    expect((await api.get('/me/entitlements', user.token)).body).toMatchObject({ entitlements: [], plus: false });
    // the account export carries the subscription records (part 1 data portability)
    const exported = (await api.get('/auth/me/export', user.token)).body;
    expect(exported.subscriptions.map((entry: { product: string; status: string }) => [entry.product, entry.status]).sort()).toEqual([
      ['offline_maps', 'lapsed'],
      ['svc_plus', 'refunded'],
    ]);
  });
});

describe('operator entitlements', () => {
  it('grants, revokes over a subscription and clears; admins only; 404 for an unknown user', async () => {
    const user = await registerUser(api, 'operated');
    const path = `/admin/users/${user.userId}/entitlements`;
    const granted = await api.post(path, { entitlement: 'hazard_alerts', action: 'grant', reason: 'pilot' }, admin.token);
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body).toMatchObject({ userId: user.userId, entitlements: ['hazard_alerts'], overrides: [{ entitlement: 'hazard_alerts', state: 'granted', reason: 'pilot', expiresAt: null }] });
    expect((await api.get('/me/entitlements', user.token)).body.entitlements).toEqual(['hazard_alerts']);

    // a revocation wins over a paid subscription (fraud, chargeback under review)
    await subscribe(baseUrl, user.userId, 'offline_maps');
    expect((await api.get('/me/entitlements', user.token)).body.entitlements).toEqual(['offline_maps', 'hazard_alerts']);
    await api.post(path, { entitlement: 'offline_maps', action: 'revoke' }, admin.token);
    expect((await api.get('/me/entitlements', user.token)).body.entitlements).toEqual(['hazard_alerts']);
    // clearing the operator's word gives the subscription back
    const cleared = await api.post(path, { entitlement: 'offline_maps', action: 'clear' }, admin.token);
    expect(cleared.body.entitlements).toEqual(['offline_maps', 'hazard_alerts']);
    expect((await api.get(path, admin.token)).body.overrides.map((entry: { entitlement: string }) => entry.entitlement)).toEqual(['hazard_alerts']);

    // a grant with an expiry in the future counts, one in the past is refused
    const until = new Date(Date.now() + 86_400_000).toISOString();
    expect((await api.post(path, { entitlement: 'atlas_advanced', action: 'grant', expiresAt: until }, admin.token)).body.entitlements).toContain('atlas_advanced');
    expectError(await api.post(path, { entitlement: 'atlas_advanced', action: 'grant', expiresAt: '2020-01-01T00:00:00Z' }, admin.token), 400, 'VALIDATION_ERROR');
    expectError(await api.post(path, { entitlement: 'gold', action: 'grant' }, admin.token), 400, 'VALIDATION_ERROR');
    expectError(await api.post(path, { entitlement: 'svc_plus', action: 'grant' }, user.token), 403, 'FORBIDDEN');
    expectError(await api.get(path, user.token), 403, 'FORBIDDEN');
    expectError(await api.post(`/admin/users/${randomUUID()}/entitlements`, { entitlement: 'svc_plus', action: 'grant' }, admin.token), 404, 'NOT_FOUND');
  });
});

describe('the offline_maps gate', () => {
  it('serves offline manifests only to callers holding offline_maps (bearer, or the key of its holder)', async () => {
    const region = ((await api.get('/offline/regions')).body.regions as { id: string; scope: string }[]).find((entry) => entry.scope === 'city')!;
    const path = `/offline/regions/${region.id}/manifest`;
    expectError(await api.get(path), 401, 'UNAUTHENTICATED');
    const dev = await developer('offline');
    for (const response of [await api.get(path, dev.token), await api.get(path, undefined, withKey(dev.key.key))]) {
      expectError(response, 403, 'FORBIDDEN');
      expect(response.body.details).toEqual({ reason: 'entitlement_required', entitlement: 'offline_maps' });
    }
    // another entitlement does not open this gate
    await subscribe(baseUrl, dev.userId, 'hazard_alerts');
    expectError(await api.get(path, dev.token), 403, 'FORBIDDEN');
    await subscribe(baseUrl, dev.userId, 'offline_maps');
    const manifest = await api.get(path, dev.token);
    expect(manifest.status).toBe(200);
    expect(manifest.body.tiles.zooms.length).toBeGreaterThan(0);
    expect((await api.get(path, undefined, withKey(dev.key.key))).status).toBe(200);
    // an operator's revocation closes it again at once
    await api.post(`/admin/users/${dev.userId}/entitlements`, { entitlement: 'offline_maps', action: 'revoke' }, admin.token);
    expectError(await api.get(path, dev.token), 403, 'FORBIDDEN');
    // the region list stays open
    expect((await api.get('/offline/regions')).status).toBe(200);
  }, 60_000);
});
