import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/logger.js';
import { NavigationSessionRepository } from '../../store/pg/navigation-sessions.js';
import { loadOrCreateServerSecret } from '../../store/pg/server-secrets.js';
import { WebhookDeliveryRepository } from '../../store/pg/webhook-deliveries.js';
import type { SqlClient } from '../../store/sql/sql-client.js';
import { listWebhookDeliveries, type WebhookDeliveriesResponse } from './webhook-deliveries-view.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from './webhook-dispatcher.js';
import { deriveWebhookSecret } from './webhook-signature.js';
import { WebhookUrlPolicy } from './webhook-url-guard.js';

/** Name of the server secret every session's webhook secret is derived from. */
export const WEBHOOK_MASTER_KEY_NAME = 'webhook-signing';
/** Sessions older than this are not resumed at start: their events are stale for a navigation client. */
const RESUME_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Sessions woken by one resumePending call; each is a short-lived queue. */
const RESUME_MAX_SESSIONS = 10_000;

/** Everything the navigation service needs for webhooks, built once per process. */
export class NavigationWebhooks {
  constructor(
    readonly urlPolicy: WebhookUrlPolicy,
    readonly dispatcher: WebhookDispatcher,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly masterKey: string,
  ) {}

  /**
   * At session creation (SessionWebhooks.assertUsableUrl): the normalised URL,
   * or ApiError VALIDATION_ERROR (400) with message `webhookUrl: <why>`.
   */
  assertUsableUrl(webhookUrl: string): string {
    return this.urlPolicy.assertShape(webhookUrl, 'webhookUrl');
  }

  /** The session's signing secret (`whsec_...`): returned once as `webhookSecret`, never stored. */
  secretFor(sessionId: string): string {
    return deriveWebhookSecret(this.masterKey, sessionId);
  }

  /** After the session's new events are committed. */
  notify(sessionId: string, webhookUrl: string): void {
    this.dispatcher.notify({ sessionId, url: webhookUrl, secret: this.secretFor(sessionId) });
  }

  /** The session host's `onEvents` hook: new durable events of a session, which may have no webhook. */
  onEvents(session: { id: string; webhookUrl: string | null }): void {
    if (session.webhookUrl !== null) this.notify(session.id, session.webhookUrl);
  }

  /** This process no longer owns the session (taken over or evicted): stop delivering it here. */
  release(sessionId: string): Promise<void> {
    return this.dispatcher.stop(sessionId);
  }

  /**
   * Notifies every session with undelivered events updated within `updatedWithinMs`
   * (default 24 h): call once at start, so events of sessions that ended
   * before a crash still go out. Returns how many sessions were woken.
   */
  async resumePending(options: { updatedWithinMs?: number; limit?: number } = {}): Promise<number> {
    const sessions = await this.deliveries.sessionsAwaitingDelivery({
      updatedSince: new Date(Date.now() - (options.updatedWithinMs ?? RESUME_WINDOW_MS)),
      limit: options.limit ?? RESUME_MAX_SESSIONS,
    });
    for (const session of sessions) this.notify(session.sessionId, session.webhookUrl);
    return sessions.length;
  }

  /** Body of `GET /navigation/sessions/{id}/webhook-deliveries`, once the caller owns the session. */
  list(sessionId: string, limit?: number): Promise<WebhookDeliveriesResponse> {
    return listWebhookDeliveries(this.deliveries, sessionId, limit);
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}

/** Loads (or creates) the master key and wires the policy, outbox, log and dispatcher. */
export async function createNavigationWebhooks(
  sql: SqlClient,
  config: Pick<Config, 'WEBHOOK_ALLOWED_HOSTS'>,
  logger?: Logger,
  tuning: Omit<Partial<WebhookDispatcherOptions>, 'outbox' | 'deliveryLog' | 'urlPolicy' | 'logger'> = {},
): Promise<NavigationWebhooks> {
  const masterKey = await loadOrCreateServerSecret(sql, WEBHOOK_MASTER_KEY_NAME);
  const urlPolicy = new WebhookUrlPolicy({ allowedHosts: config.WEBHOOK_ALLOWED_HOSTS });
  const deliveries = new WebhookDeliveryRepository(sql);
  const dispatcher = new WebhookDispatcher({
    ...tuning,
    outbox: new NavigationSessionRepository(sql),
    deliveryLog: deliveries,
    urlPolicy,
    ...(logger ? { logger } : {}),
  });
  return new NavigationWebhooks(urlPolicy, dispatcher, deliveries, masterKey);
}
