import type { SqlClient } from '../sql/sql-client.js';
import { isoOf, isoOrNull } from './row-mapping.js';

/** A payment provider's subscription as its signed webhook reported it (docs/billing.md). */
export interface SubscriptionRecord {
  id: string;
  userId: string;
  providerRef: string;
  product: string;
  status: string;
  currency: string;
  priceMinor: number;
  interval: string;
  renewsAt: string | null;
  lastEventAt: string;
}

/** An operator's grant or revocation of one entitlement; it wins over subscriptions. */
export interface EntitlementOverride {
  entitlement: string;
  state: 'granted' | 'revoked';
  expiresAt: string | null;
  reason: string | null;
  changedAt: string;
}

interface SubscriptionRow extends Record<string, unknown> {
  id: string;
  user_id: string;
  provider_ref: string;
  product: string;
  status: string;
  currency: string;
  price_minor: unknown;
  interval: string;
  renews_at: Date | string | null;
  last_event_at: Date | string;
}

const toSubscription = (row: SubscriptionRow): SubscriptionRecord => ({
  id: row.id,
  userId: row.user_id,
  providerRef: row.provider_ref,
  product: row.product,
  status: row.status,
  currency: row.currency,
  priceMinor: Number(row.price_minor),
  interval: row.interval,
  renewsAt: isoOrNull(row.renews_at),
  lastEventAt: isoOf(row.last_event_at),
});

const SUBSCRIPTION_COLUMNS = 'id, user_id, provider_ref, product, status, currency, price_minor, interval, renews_at, last_event_at';

export type SubscriptionUpsert = Omit<SubscriptionRecord, 'lastEventAt'> & { eventAt: string };

/** Subscriptions, operator overrides and the webhook's seen event ids; every read is scoped to a user. */
export class EntitlementRepository {
  constructor(private readonly sql: SqlClient) {}

  /** The user's subscriptions, newest first (at most 50). */
  async subscriptions(userId: string): Promise<SubscriptionRecord[]> {
    const rows = await this.sql.query<SubscriptionRow>(
      `select ${SUBSCRIPTION_COLUMNS} from subscriptions where user_id = $1 order by created_at desc, id limit 50`,
      [userId],
    );
    return rows.map(toSubscription);
  }

  async overrides(userId: string): Promise<EntitlementOverride[]> {
    const rows = await this.sql.query<{ entitlement: string; state: 'granted' | 'revoked'; expires_at: Date | string | null; reason: string | null; changed_at: Date | string }>(
      'select entitlement, state, expires_at, reason, changed_at from entitlement_overrides where user_id = $1 order by entitlement',
      [userId],
    );
    return rows.map((row) => ({ entitlement: row.entitlement, state: row.state, expiresAt: isoOrNull(row.expires_at), reason: row.reason, changedAt: isoOf(row.changed_at) }));
  }

  async setOverride(userId: string, override: { entitlement: string; state: 'granted' | 'revoked'; expiresAt: string | null; reason: string | null; changedBy: string }): Promise<void> {
    await this.sql.query(
      `insert into entitlement_overrides (user_id, entitlement, state, expires_at, reason, changed_by, changed_at)
       values ($1, $2, $3, $4, $5, $6, now())
       on conflict (user_id, entitlement) do update set state = excluded.state, expires_at = excluded.expires_at,
         reason = excluded.reason, changed_by = excluded.changed_by, changed_at = now()`,
      [userId, override.entitlement, override.state, override.expiresAt, override.reason, override.changedBy],
    );
  }

  async clearOverride(userId: string, entitlement: string): Promise<boolean> {
    const rows = await this.sql.query('delete from entitlement_overrides where user_id = $1 and entitlement = $2 returning user_id', [userId, entitlement]);
    return rows.length > 0;
  }

  /**
   * Applies one webhook event to a subscription, in one transaction with the event id: false when the
   * id was seen before (a replay or the provider's retry), and then nothing changes. An event older than the
   * last one applied to the subscription is recorded but does not change it (providers deliver out of order).
   * `apply` false records the id only (an event for an unknown user).
   */
  async applyEvent(event: { id: string; type: string }, subscription: SubscriptionUpsert | null): Promise<{ fresh: boolean; applied: boolean }> {
    return this.sql.transaction(async (tx) => {
      const seen = await tx.query('insert into billing_webhook_events (event_id, type) values ($1, $2) on conflict (event_id) do nothing returning event_id', [event.id, event.type]);
      if (seen.length === 0) return { fresh: false, applied: false };
      if (!subscription) return { fresh: true, applied: false };
      const rows = await tx.query(
        `insert into subscriptions (id, user_id, provider_ref, product, status, currency, price_minor, interval, renews_at, last_event_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         on conflict (provider_ref) do update set status = excluded.status, product = excluded.product, currency = excluded.currency,
           price_minor = excluded.price_minor, interval = excluded.interval, renews_at = excluded.renews_at,
           last_event_at = excluded.last_event_at, updated_at = now()
         where subscriptions.last_event_at <= excluded.last_event_at and subscriptions.user_id = excluded.user_id
         returning id`,
        [
          subscription.id,
          subscription.userId,
          subscription.providerRef,
          subscription.product,
          subscription.status,
          subscription.currency,
          subscription.priceMinor,
          subscription.interval,
          subscription.renewsAt,
          subscription.eventAt,
        ],
      );
      return { fresh: true, applied: rows.length > 0 };
    });
  }
}
