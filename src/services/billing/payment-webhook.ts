/**
 * The payment provider's webhook (docs/billing.md "Payment webhook"), provider-neutral: any provider (or a
 * small adapter in front of one) signs `<unix seconds>.<raw body>` with HMAC-SHA256 under the shared secret
 * and sends `Svc-Signature: t=<unix seconds>,v1=<hex>`. A signature is checked timing-safe over the bytes
 * received, before the body is parsed; a timestamp further than the tolerance from the server clock is
 * refused (an old capture cannot be replayed later), and an event id is applied once (a capture replayed
 * within the tolerance, or the provider's retry, changes nothing).
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import type { EntitlementRepository } from '../../store/pg/entitlements.js';
import type { UserRepository } from '../../store/pg/users.js';
import { CURRENCIES } from './plan-catalog.js';
import { ENTITLEMENTS, type EntitlementService, type SubscriptionStatus } from './entitlements.js';

export const SIGNATURE_HEADER = 'svc-signature';

/** What each event type makes of the subscription. */
const EVENT_STATUS = {
  'subscription.activated': 'active',
  'subscription.renewed': 'active',
  'subscription.canceled': 'canceled',
  'subscription.lapsed': 'lapsed',
  'subscription.refunded': 'refunded',
} as const satisfies Record<string, SubscriptionStatus>;
export const EVENT_TYPES = Object.keys(EVENT_STATUS) as (keyof typeof EVENT_STATUS)[];

const isoTime = z.iso.datetime({ offset: true });

export const paymentEventSchema = z.object({
  id: z.string().min(1).max(128).describe("The provider's event id: applied once"),
  type: z.enum(EVENT_TYPES as [keyof typeof EVENT_STATUS, ...(keyof typeof EVENT_STATUS)[]]),
  occurredAt: isoTime,
  data: z.object({
    subscriptionId: z.string().min(1).max(128).describe("The provider's subscription id"),
    userId: z.uuid().describe('Our user id, passed to the provider at checkout'),
    product: z.enum(ENTITLEMENTS),
    currency: z.enum(CURRENCIES),
    priceMinor: z.number().int().min(0).max(1_000_000_000),
    interval: z.enum(['month', 'year']),
    renewsAt: isoTime.nullable(),
  }),
});
export type PaymentEvent = z.infer<typeof paymentEventSchema>;

/** The signature header's value for a body at a time (what a sender computes; the tests' local sender uses it). */
export function signPayload(secret: string, timestampS: number, rawBody: string | Buffer): string {
  const mac = createHmac('sha256', secret).update(`${timestampS}.`).update(rawBody).digest('hex');
  return `t=${timestampS},v1=${mac}`;
}

const unauthorized = (reason: string, message: string) => new ApiError('UNAUTHENTICATED', { message, details: { reason } });

/** The header's timestamp and `v1` values; 401 when it is missing or not of the form `t=…,v1=…`. */
function parseSignatureHeader(header: string | undefined): { timestamp: number; candidates: string[] } {
  if (!header) throw unauthorized('signature_missing', `The ${SIGNATURE_HEADER} header is required`);
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',').slice(0, 10)) {
    const [name, value] = part.trim().split('=', 2);
    if (name === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && value) candidates.push(value);
  }
  if (timestamp === undefined || candidates.length === 0) throw unauthorized('signature_malformed', `${SIGNATURE_HEADER} must be t=<unix seconds>,v1=<hex HMAC-SHA256>`);
  return { timestamp, candidates };
}

/** Checks the header against the body: throws 401 naming why. Several `v1` entries are allowed (secret rotation at the sender). */
export function verifySignature(secret: string, header: string | undefined, rawBody: Buffer, nowMs: number, toleranceS: number): void {
  const { timestamp, candidates } = parseSignatureHeader(header);
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceS) throw unauthorized('timestamp_out_of_tolerance', `The signed timestamp is more than ${toleranceS} s from the server's clock`);
  const expected = Buffer.from(signPayload(secret, timestamp, rawBody).split('v1=')[1]!, 'hex');
  // compare every candidate (no early exit on a match), each in constant time
  let matched = false;
  for (const candidate of candidates) {
    const wellFormed = /^[0-9a-f]{64}$/i.test(candidate);
    const given = wellFormed ? Buffer.from(candidate, 'hex') : Buffer.alloc(expected.length);
    if (timingSafeEqual(given, expected) && wellFormed) matched = true;
  }
  if (!matched) throw unauthorized('signature_mismatch', 'The signature does not match the body');
}

export interface WebhookOutcome {
  received: true;
  /** The event id was seen before: nothing changed. */
  duplicate: boolean;
  /** The event changed a subscription (false: duplicate, older than the last applied, or an unknown user). */
  applied: boolean;
}

export class PaymentWebhook {
  constructor(
    private readonly deps: {
      secret: string | undefined;
      toleranceS: number;
      repository: EntitlementRepository;
      users: Pick<UserRepository, 'findById'>;
      entitlements: EntitlementService;
      now?: () => number;
    },
  ) {}

  async receive(headers: Readonly<Record<string, string>>, rawBody: Buffer | undefined): Promise<WebhookOutcome> {
    const { secret } = this.deps;
    // an unsigned request is refused as such whether or not a secret is configured
    parseSignatureHeader(headers[SIGNATURE_HEADER]);
    if (!secret) throw new ApiError('SERVICE_UNAVAILABLE', { message: 'The payment webhook is not configured (BILLING_WEBHOOK_SECRET)', details: { reason: 'not_configured' } });
    const body = rawBody ?? Buffer.alloc(0);
    verifySignature(secret, headers[SIGNATURE_HEADER], body, (this.deps.now ?? Date.now)(), this.deps.toleranceS);
    const event = parseEvent(body);
    const user = await this.deps.users.findById(event.data.userId);
    const outcome = await this.deps.repository.applyEvent(
      { id: event.id, type: event.type },
      user
        ? {
            id: randomUUID(),
            userId: user.id,
            providerRef: event.data.subscriptionId,
            product: event.data.product,
            status: EVENT_STATUS[event.type],
            currency: event.data.currency,
            priceMinor: event.data.priceMinor,
            interval: event.data.interval,
            renewsAt: event.data.renewsAt === null ? null : new Date(event.data.renewsAt).toISOString(),
            eventAt: new Date(event.occurredAt).toISOString(),
          }
        : null,
    );
    if (outcome.applied) this.deps.entitlements.forget(event.data.userId);
    return { received: true, duplicate: !outcome.fresh, applied: outcome.applied };
  }
}

function parseEvent(body: Buffer): PaymentEvent {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw new ApiError('VALIDATION_ERROR', { message: ['body: malformed JSON'], details: { reason: 'malformed_json' } });
  }
  const parsed = paymentEventSchema.safeParse(value);
  if (!parsed.success) {
    throw new ApiError('VALIDATION_ERROR', { message: parsed.error.issues.map((issue) => `${['body', ...issue.path].join('.')}: ${issue.message}`) });
  }
  return parsed.data;
}
