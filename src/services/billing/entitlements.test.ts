import { describe, expect, it } from 'vitest';
import type { EntitlementOverride, EntitlementRepository, SubscriptionRecord } from '../../store/pg/entitlements.js';
import { effectiveEntitlements, ENTITLEMENT_CACHE_TTL_MS, EntitlementService, RENEWAL_GRACE_MS, subscriptionGrants } from './entitlements.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-03-10T12:00:00Z');

function subscription(product: string, status: string, renewsAt: string | null): SubscriptionRecord {
  return { id: product, userId: 'u', providerRef: `sub_${product}`, product, status, currency: 'JOD', priceMinor: 1000, interval: 'month', renewsAt, lastEventAt: '2026-03-01T00:00:00Z' };
}

describe('subscriptionGrants', () => {
  it('grants while active (plus the renewal grace) or canceled until the period ends; never lapsed or refunded', () => {
    const renewsAt = new Date(NOW + DAY).toISOString();
    expect(subscriptionGrants({ status: 'active', renewsAt }, NOW)).toBe(true);
    expect(subscriptionGrants({ status: 'active', renewsAt }, NOW + DAY + RENEWAL_GRACE_MS - 1)).toBe(true);
    expect(subscriptionGrants({ status: 'active', renewsAt }, NOW + DAY + RENEWAL_GRACE_MS)).toBe(false);
    expect(subscriptionGrants({ status: 'canceled', renewsAt }, NOW)).toBe(true);
    expect(subscriptionGrants({ status: 'canceled', renewsAt }, NOW + DAY)).toBe(false);
    expect(subscriptionGrants({ status: 'lapsed', renewsAt }, NOW)).toBe(false);
    expect(subscriptionGrants({ status: 'refunded', renewsAt }, NOW)).toBe(false);
    expect(subscriptionGrants({ status: 'active', renewsAt: null }, NOW + 1000 * DAY)).toBe(true);
  });
});

describe('effectiveEntitlements', () => {
  const future = new Date(NOW + DAY).toISOString();
  const override = (entitlement: string, state: 'granted' | 'revoked', expiresAt: string | null = null): EntitlementOverride => ({ entitlement, state, expiresAt, reason: null, changedAt: future });

  it('expands svc_plus to every key, lets a revocation win, and drops expired operator grants', () => {
    expect(effectiveEntitlements([subscription('svc_plus', 'active', future)], [], NOW)).toEqual(['svc_plus', 'offline_maps', 'atlas_advanced', 'hazard_alerts']);
    expect(effectiveEntitlements([subscription('svc_plus', 'active', future)], [override('offline_maps', 'revoked')], NOW)).toEqual(['svc_plus', 'atlas_advanced', 'hazard_alerts']);
    expect(effectiveEntitlements([subscription('svc_plus', 'active', future)], [override('svc_plus', 'revoked')], NOW)).toEqual([]);
    expect(effectiveEntitlements([], [override('hazard_alerts', 'granted', future)], NOW)).toEqual(['hazard_alerts']);
    expect(effectiveEntitlements([], [override('hazard_alerts', 'granted', future)], NOW + 2 * DAY)).toEqual([]);
    expect(effectiveEntitlements([subscription('offline_maps', 'refunded', future)], [], NOW)).toEqual([]);
    // an unknown product in a stored record grants nothing
    expect(effectiveEntitlements([subscription('gold', 'active', future)], [], NOW)).toEqual([]);
  });
});

describe('EntitlementService', () => {
  it('reuses an answer for at most the TTL, then reads again (a change on another process is seen)', async () => {
    let subscriptions = [subscription('offline_maps', 'active', new Date(NOW + 30 * DAY).toISOString())];
    let reads = 0;
    const repository = {
      subscriptions: async () => {
        reads += 1;
        return subscriptions;
      },
      overrides: async () => [],
    } as unknown as EntitlementRepository;
    let now = NOW;
    const service = new EntitlementService(repository, () => now);
    expect(await service.has('u', 'offline_maps')).toBe(true);
    subscriptions = [subscription('offline_maps', 'lapsed', null)];
    now += ENTITLEMENT_CACHE_TTL_MS - 1;
    expect(await service.has('u', 'offline_maps')).toBe(true);
    expect(reads).toBe(1);
    now += 1;
    expect(await service.has('u', 'offline_maps')).toBe(false);
    expect(reads).toBe(2);
    await expect(service.require('u', 'offline_maps')).rejects.toMatchObject({ code: 'FORBIDDEN', details: { entitlement: 'offline_maps' } });
    // a change through this process is seen at once
    subscriptions = [subscription('offline_maps', 'active', null)];
    service.forget('u');
    await expect(service.require('u', 'offline_maps')).resolves.toBeUndefined();
  });
});
