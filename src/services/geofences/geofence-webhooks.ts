/**
 * Geofence webhooks through the webhook dispatcher of navigation (same SSRF policy, signature scheme, retry
 * policy and delivery log shape; docs/geofences.md, "Webhooks"): each zone is a stream whose events are
 * delivered in seq order, signed with a secret derived from a server key and the zone id.
 */
import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/logger.js';
import type { GeofenceRepository } from '../../store/pg/geofences.js';
import { loadOrCreateServerSecret } from '../../store/pg/server-secrets.js';
import { WebhookDeliveryRepository } from '../../store/pg/webhook-deliveries.js';
import type { SqlClient } from '../../store/sql/sql-client.js';
import { listWebhookDeliveries } from '../webhooks/webhook-deliveries-view.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { deriveWebhookSecret } from '../webhooks/webhook-signature.js';
import { WebhookUrlPolicy } from '../webhooks/webhook-url-guard.js';

export const GEOFENCE_WEBHOOK_KEY_NAME = 'geofence-webhook-signing';

export class GeofenceWebhooks {
  constructor(
    readonly urlPolicy: WebhookUrlPolicy,
    private readonly dispatcher: WebhookDispatcher,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly masterKey: string,
  ) {}

  assertUsableUrl(url: string): string {
    return this.urlPolicy.assertShape(url, 'webhookUrl');
  }

  secretFor(geofenceId: string): string {
    return deriveWebhookSecret(this.masterKey, `geofence:${geofenceId}`);
  }

  notify(geofenceId: string, url: string): void {
    this.dispatcher.notify({ sessionId: geofenceId, url, secret: this.secretFor(geofenceId) });
  }

  async list(geofenceId: string, limit?: number) {
    const { sessionId, ...rest } = await listWebhookDeliveries(this.deliveries, geofenceId, limit);
    return { geofenceId: sessionId, ...rest };
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}

export async function createGeofenceWebhooks(sql: SqlClient, repository: GeofenceRepository, config: Pick<Config, 'WEBHOOK_ALLOWED_HOSTS'>, logger: Logger): Promise<GeofenceWebhooks> {
  const masterKey = await loadOrCreateServerSecret(sql, GEOFENCE_WEBHOOK_KEY_NAME);
  const urlPolicy = new WebhookUrlPolicy({ allowedHosts: config.WEBHOOK_ALLOWED_HOSTS });
  const deliveries = new WebhookDeliveryRepository(sql, { table: 'geofence_webhook_deliveries', key: 'geofence_id' });
  const dispatcher = new WebhookDispatcher({ outbox: repository, deliveryLog: deliveries, urlPolicy, logger, streamField: 'geofenceId' });
  const webhooks = new GeofenceWebhooks(urlPolicy, dispatcher, deliveries, masterKey);
  // events written before a restart (or by a process that died) still go out
  for (const zone of await repository.awaitingDelivery(10_000)) webhooks.notify(zone.id, zone.webhookUrl);
  return webhooks;
}
