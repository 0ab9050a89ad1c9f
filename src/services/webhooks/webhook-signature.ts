import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures follow the Standard Webhooks specification
 * (standardwebhooks.com): HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.${body}`,
 * sent as `webhook-signature: v1,<base64>`, with a `whsec_<base64 key>` secret.
 * Receivers can therefore verify with that specification's libraries in any
 * language, or with `verifyWebhookSignature` below.
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** How far a delivery's timestamp may be from the receiver's clock by default: 5 minutes. */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

const SIGNATURE_VERSION = 'v1';

/**
 * The signing secret of one navigation session. It is derived rather than
 * stored, so the database holds no per-session secret: HMAC-SHA256(masterKey,
 * "nav-webhook:" + sessionId), base64, with the Standard Webhooks `whsec_` prefix.
 * `masterKey` is the server secret `webhook-signing` (loadOrCreateServerSecret).
 */
export function deriveWebhookSecret(masterKey: string, sessionId: string): string {
  return WEBHOOK_SECRET_PREFIX + createHmac('sha256', masterKey).update(`nav-webhook:${sessionId}`).digest('base64');
}

function signingKeyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, 'base64');
}

function signatureBytes(secret: string, webhookId: string, timestampSeconds: number | string, rawBody: string | Buffer): Buffer {
  return createHmac('sha256', signingKeyOf(secret)).update(`${webhookId}.${timestampSeconds}.`).update(rawBody).digest();
}

/** The `webhook-signature` header value for one delivery: `v1,<base64 HMAC>`. */
export function signWebhook(secret: string, webhookId: string, timestampSeconds: number, rawBody: string | Buffer): string {
  return `${SIGNATURE_VERSION},${signatureBytes(secret, webhookId, timestampSeconds, rawBody).toString('base64')}`;
}

/** Request headers as Node (`IncomingHttpHeaders`, lower-case names) or fetch (`Headers`) expose them. */
export type WebhookRequestHeaders = Headers | Record<string, string | string[] | undefined>;

export type WebhookVerification =
  | { valid: true; webhookId: string; timestampSeconds: number }
  | { valid: false; reason: 'missing_headers' | 'timestamp_outside_tolerance' | 'signature_mismatch' };

export interface VerifyWebhookOptions {
  /** Largest accepted distance between the delivery's timestamp and now, in seconds; default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock, unix seconds; default the current time. */
  nowSeconds?: number;
}

function headerOf(headers: WebhookRequestHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks a received delivery: its timestamp is within the tolerance (which
 * defeats replays of old captures) and one of the `v1` signatures in
 * `webhook-signature` matches `rawBody` (the exact bytes received, before any
 * JSON parsing). Comparison is constant-time.
 */
export function verifyWebhookSignature(
  secret: string,
  headers: WebhookRequestHeaders,
  rawBody: string | Buffer,
  options: VerifyWebhookOptions = {},
): WebhookVerification {
  const webhookId = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  if (!webhookId || !timestamp || !signatures || !/^\d{1,12}$/.test(timestamp)) return { valid: false, reason: 'missing_headers' };
  const timestampSeconds = Number(timestamp);
  const nowSeconds = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(nowSeconds - timestampSeconds) > (options.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS)) {
    return { valid: false, reason: 'timestamp_outside_tolerance' };
  }
  const expected = signatureBytes(secret, webhookId, timestamp, rawBody);
  // The header may carry several space-separated signatures (e.g. during a secret rotation).
  const matches = signatures.split(' ').some((entry) => {
    const [version, encoded] = entry.split(',', 2);
    if (version !== SIGNATURE_VERSION || !encoded) return false;
    const received = Buffer.from(encoded, 'base64');
    return received.length === expected.length && timingSafeEqual(received, expected);
  });
  return matches ? { valid: true, webhookId, timestampSeconds } : { valid: false, reason: 'signature_mismatch' };
}
