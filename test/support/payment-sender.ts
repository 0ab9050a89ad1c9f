/**
 * A local payment provider for black-box tests: signs events the way docs/billing.md says a provider
 * must (HMAC-SHA256 over `<unix seconds>.<raw body>`) and posts them to the webhook.
 */
import { createHmac, randomUUID } from 'node:crypto';

export const WEBHOOK_SECRET = 'test-webhook-secret-0123456789abcdefghij';

export function signature(secret: string, timestampS: number, body: string): string {
  return `t=${timestampS},v1=${createHmac('sha256', secret).update(`${timestampS}.${body}`).digest('hex')}`;
}

export interface SubscriptionEvent {
  id?: string;
  type: 'subscription.activated' | 'subscription.renewed' | 'subscription.canceled' | 'subscription.lapsed' | 'subscription.refunded';
  occurredAt?: string;
  data: { subscriptionId: string; userId: string; product: string; currency?: string; priceMinor?: number; interval?: 'month' | 'year'; renewsAt?: string | null };
}

/** The event as JSON text, with defaults for what a test does not care about. */
export function eventBody(event: SubscriptionEvent): string {
  return JSON.stringify({
    id: event.id ?? `evt_${randomUUID()}`,
    type: event.type,
    occurredAt: event.occurredAt ?? new Date().toISOString(),
    data: { currency: 'JOD', priceMinor: 2_500, interval: 'month', renewsAt: new Date(Date.now() + 30 * 86_400_000).toISOString(), ...event.data },
  });
}

/** Posts a raw body with a signature header (`signatureHeader` overrides the correct one). */
export async function postWebhook(baseUrl: string, body: string, options: { secret?: string; timestampS?: number; signatureHeader?: string | null } = {}) {
  const timestampS = options.timestampS ?? Math.floor(Date.now() / 1000);
  const header = options.signatureHeader === undefined ? signature(options.secret ?? WEBHOOK_SECRET, timestampS, body) : options.signatureHeader;
  const response = await fetch(`${baseUrl}/api/v1/billing/webhooks/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(header === null ? {} : { 'svc-signature': header }) },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Entitles a user through the webhook, as a completed checkout would. */
export async function subscribe(baseUrl: string, userId: string, product: string): Promise<void> {
  const response = await postWebhook(baseUrl, eventBody({ type: 'subscription.activated', data: { subscriptionId: `sub_${randomUUID()}`, userId, product } }));
  if (response.status !== 200 || !response.body.applied) throw new Error(`subscribe failed: ${response.status} ${JSON.stringify(response.body)}`);
}
