/**
 * Entitlements of a user (spec part 3 §4.9; docs/billing.md): what the user's subscriptions grant, with an
 * operator's grants and revocations on top. `svc_plus` is the master key: it grants every entitlement, and a
 * gate asks for the specific one it protects (offline manifests need `offline_maps`). Answers are kept
 * ENTITLEMENT_CACHE_TTL_MS at most, so a renewal, lapse or refund on another process is seen within it; a
 * change made through this process drops the user's entry at once.
 */
import { ApiError } from '../../shared/errors.js';
import type { EntitlementOverride, EntitlementRepository, SubscriptionRecord } from '../../store/pg/entitlements.js';

export const ENTITLEMENTS = ['svc_plus', 'offline_maps', 'atlas_advanced', 'hazard_alerts'] as const;
export type Entitlement = (typeof ENTITLEMENTS)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'canceled', 'lapsed', 'refunded'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The longest an entitlement answer is reused without asking the database. */
export const ENTITLEMENT_CACHE_TTL_MS = 15_000;
/** An active subscription whose renewal the provider has not confirmed keeps granting this long past renewsAt. */
export const RENEWAL_GRACE_MS = 3 * 24 * 3600_000;
const MAX_CACHED_USERS = 10_000;

export interface EntitlementView {
  provider: 'svc-entitlements';
  entitlements: Entitlement[];
  plus: boolean;
  subscriptions: { id: string; product: string; status: string; currency: string; priceMinor: number; interval: string; renewsAt: string | null }[];
}

/** Whether a subscription grants its product at `nowMs`: active (until renewsAt plus grace) or canceled (until renewsAt). */
export function subscriptionGrants(subscription: Pick<SubscriptionRecord, 'status' | 'renewsAt'>, nowMs: number): boolean {
  const endsMs = subscription.renewsAt === null ? Number.POSITIVE_INFINITY : Date.parse(subscription.renewsAt);
  if (subscription.status === 'active') return nowMs < endsMs + RENEWAL_GRACE_MS;
  if (subscription.status === 'canceled') return nowMs < endsMs;
  return false;
}

/** The effective set: granted by subscriptions or an operator, minus operator revocations; svc_plus implies all. */
export function effectiveEntitlements(subscriptions: readonly SubscriptionRecord[], overrides: readonly EntitlementOverride[], nowMs: number): Entitlement[] {
  const granted = new Set<string>();
  for (const subscription of subscriptions) if (subscriptionGrants(subscription, nowMs)) granted.add(subscription.product);
  const revoked = new Set<string>();
  for (const override of overrides) {
    if (override.state === 'revoked') revoked.add(override.entitlement);
    else if (override.expiresAt === null || Date.parse(override.expiresAt) > nowMs) granted.add(override.entitlement);
  }
  if (granted.has('svc_plus') && !revoked.has('svc_plus')) for (const key of ENTITLEMENTS) granted.add(key);
  return ENTITLEMENTS.filter((key) => granted.has(key) && !revoked.has(key));
}

export class EntitlementService {
  private readonly cache = new Map<string, { atMs: number; view: EntitlementView }>();

  constructor(
    private readonly repository: EntitlementRepository,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = ENTITLEMENT_CACHE_TTL_MS,
  ) {}

  /** GET /me/entitlements: read fresh (the caller asks about itself; never a stale answer there). */
  async view(userId: string): Promise<EntitlementView> {
    const [subscriptions, overrides] = await Promise.all([this.repository.subscriptions(userId), this.repository.overrides(userId)]);
    const entitlements = effectiveEntitlements(subscriptions, overrides, this.now());
    const view: EntitlementView = {
      provider: 'svc-entitlements',
      entitlements,
      plus: entitlements.includes('svc_plus'),
      subscriptions: subscriptions.map((subscription) => ({
        id: subscription.id,
        product: subscription.product,
        status: subscription.status,
        currency: subscription.currency,
        priceMinor: subscription.priceMinor,
        interval: subscription.interval,
        renewsAt: subscription.renewsAt,
      })),
    };
    this.remember(userId, view);
    return view;
  }

  /** Whether the user holds the entitlement now (cached at most the TTL). */
  async has(userId: string, entitlement: Entitlement): Promise<boolean> {
    const cached = this.cache.get(userId);
    const view = cached && this.now() - cached.atMs < this.ttlMs ? cached.view : await this.view(userId);
    return view.entitlements.includes(entitlement);
  }

  /** The gate of a feature: 403 FORBIDDEN naming the entitlement it needs. */
  async require(userId: string, entitlement: Entitlement): Promise<void> {
    if (await this.has(userId, entitlement)) return;
    throw new ApiError('FORBIDDEN', {
      message: `This feature needs the ${entitlement} entitlement`,
      details: { reason: 'entitlement_required', entitlement },
    });
  }

  /** Drops a user's cached answer (after a change made through this process). */
  forget(userId: string): void {
    this.cache.delete(userId);
  }

  private remember(userId: string, view: EntitlementView): void {
    if (this.cache.size >= MAX_CACHED_USERS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.delete(userId);
    this.cache.set(userId, { atMs: this.now(), view });
  }
}
