/**
 * Push providers (docs/commute.md, "Push delivery"): Web Push with VAPID for browser subscriptions
 * (`platform: web`, the token is the PushSubscription JSON) and an HTTP provider interface for FCM
 * (`android`) and APNs (`ios`) configured by URL and a bearer credential. A platform whose provider is not
 * configured is never attempted. Every request goes through the webhook SSRF policy and connects to the
 * address it checked.
 */
import webpush from 'web-push';
import type { Config } from '../../shared/config.js';
import type { NotificationRecord } from '../../store/pg/notifications.js';
import { postWebhook } from '../webhooks/webhook-http.js';
import type { WebhookUrlPolicy } from '../webhooks/webhook-url-guard.js';
import { WebhookUrlPolicy as UrlPolicy } from '../webhooks/webhook-url-guard.js';

export type PushPlatform = 'web' | 'android' | 'ios';

/** What a device is sent: the inbox record's fields. */
export type PushMessage = Pick<NotificationRecord, 'id' | 'type' | 'title' | 'body' | 'url' | 'data'>;

/** `gone`: the provider says the token will never work again (404/410): it is removed. */
export type PushOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'gone'; status: number }
  | { kind: 'retry'; status: number | null; error: string; retryAfterMs?: number }
  | { kind: 'failed'; status: number | null; error: string };

export interface PushProvider {
  readonly platform: PushPlatform;
  send(token: string, message: PushMessage, signal: AbortSignal): Promise<PushOutcome>;
}

const ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 16 * 1024;

async function post(policy: WebhookUrlPolicy, url: string, body: string | Buffer, headers: Record<string, string>, signal: AbortSignal): Promise<PushOutcome> {
  const resolution = await policy.resolve(url);
  if (!resolution.ok) return resolution.retryable ? { kind: 'retry', status: null, error: resolution.reason } : { kind: 'failed', status: null, error: resolution.reason };
  const result = await postWebhook(resolution.target, body, headers, { timeoutMs: ATTEMPT_TIMEOUT_MS, maxResponseBytes: MAX_RESPONSE_BYTES, signal });
  if (result.kind === 'cancelled') return { kind: 'retry', status: null, error: 'cancelled' };
  if (result.kind === 'failure') return { kind: 'retry', status: null, error: result.message };
  const status = result.status;
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 404 || status === 410) return { kind: 'gone', status };
  if (status === 408 || status === 429 || status >= 500) return { kind: 'retry', status, error: `HTTP ${status}`, ...(result.retryAfterMs === undefined ? {} : { retryAfterMs: result.retryAfterMs }) };
  return { kind: 'failed', status, error: `HTTP ${status}` };
}

const payloadOf = (message: PushMessage) => JSON.stringify({ id: message.id, type: message.type, title: message.title, body: message.body, url: message.url, data: message.data });

/** Web Push (RFC 8030) with VAPID (RFC 8292) and aes128gcm payload encryption (RFC 8291), by the `web-push` package. */
export class WebPushProvider implements PushProvider {
  readonly platform = 'web' as const;
  constructor(
    private readonly vapid: { subject: string; publicKey: string; privateKey: string },
    private readonly policy: WebhookUrlPolicy,
  ) {}

  async send(token: string, message: PushMessage, signal: AbortSignal): Promise<PushOutcome> {
    let subscription: webpush.PushSubscription;
    try {
      subscription = JSON.parse(token) as webpush.PushSubscription;
      if (typeof subscription?.endpoint !== 'string' || typeof subscription.keys?.p256dh !== 'string' || typeof subscription.keys?.auth !== 'string') throw new Error('shape');
    } catch {
      return { kind: 'failed', status: null, error: 'token is not a PushSubscription JSON ({ endpoint, keys: { p256dh, auth } })' };
    }
    const shape = this.policy.shapeProblem(subscription.endpoint);
    if (shape) return { kind: 'failed', status: null, error: `endpoint ${shape}` };
    let details: ReturnType<typeof webpush.generateRequestDetails>;
    try {
      details = webpush.generateRequestDetails(subscription, payloadOf(message), { vapidDetails: this.vapid, TTL: 3600, urgency: 'high' });
    } catch (error) {
      return { kind: 'failed', status: null, error: `cannot encrypt for this subscription: ${(error as Error).message}`.slice(0, 200) };
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) if (name.toLowerCase() !== 'content-length') headers[name.toLowerCase()] = String(value);
    return post(this.policy, details.endpoint, details.body ?? Buffer.alloc(0), headers, signal);
  }
}

/**
 * FCM HTTP v1 (`POST {url}` with `{ message: { token, notification, data } }`) or an APNs-style provider
 * (`POST {url}/3/device/{token}` with `{ aps: { alert } }`), authorised with a bearer credential. APNs itself
 * speaks only HTTP/2: PUSH_APNS_URL names an HTTP/1.1 gateway in front of it (docs/commute.md).
 */
export class HttpPushProvider implements PushProvider {
  private readonly policy: WebhookUrlPolicy;
  constructor(
    readonly platform: 'android' | 'ios',
    private readonly url: string,
    private readonly credential: string,
    private readonly topic?: string,
  ) {
    // the operator configured this host: it may be private (a gateway in the cluster) and is the only one reached
    this.policy = new UrlPolicy({ allowedHosts: [new URL(url).host.toLowerCase()] });
  }

  send(token: string, message: PushMessage, signal: AbortSignal): Promise<PushOutcome> {
    const data = Object.fromEntries(Object.entries({ notificationId: message.id, type: message.type, url: message.url ?? '', data: message.data ? JSON.stringify(message.data) : '' }));
    const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${this.credential}` };
    if (this.platform === 'android') {
      return post(this.policy, this.url, JSON.stringify({ message: { token, notification: { title: message.title, body: message.body }, data } }), headers, signal);
    }
    headers['apns-push-type'] = 'alert';
    if (this.topic) headers['apns-topic'] = this.topic;
    const target = `${this.url.replace(/\/+$/, '')}/3/device/${encodeURIComponent(token)}`;
    return post(this.policy, target, JSON.stringify({ aps: { alert: { title: message.title, body: message.body } }, ...data }), headers, signal);
  }
}

/** The providers the configuration sets up, by platform. */
export function pushProvidersOf(config: Config): Map<PushPlatform, PushProvider> {
  const providers = new Map<PushPlatform, PushProvider>();
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY && config.VAPID_SUBJECT) {
    providers.set('web', new WebPushProvider({ subject: config.VAPID_SUBJECT, publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY }, new UrlPolicy({ allowedHosts: config.WEBHOOK_ALLOWED_HOSTS })));
  }
  if (config.PUSH_FCM_URL && config.PUSH_FCM_TOKEN) providers.set('android', new HttpPushProvider('android', config.PUSH_FCM_URL, config.PUSH_FCM_TOKEN));
  if (config.PUSH_APNS_URL && config.PUSH_APNS_TOKEN) providers.set('ios', new HttpPushProvider('ios', config.PUSH_APNS_URL, config.PUSH_APNS_TOKEN, config.PUSH_APNS_TOPIC));
  return providers;
}

/** For `/ready`: which push providers are configured (an unconfigured one is not a failure). */
export function describePushProviders(config: Config): Record<string, string> {
  const configured = pushProvidersOf(config);
  return Object.fromEntries((['web', 'android', 'ios'] as const).map((platform) => [`push-${platform}`, configured.has(platform) ? 'configured' : 'not configured']));
}
