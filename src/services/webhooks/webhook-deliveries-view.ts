import type { WebhookDeliveryRepository, WebhookDeliveryView } from '../../store/pg/webhook-deliveries.js';

/** Attempts listed when the caller gives no limit. */
export const DEFAULT_WEBHOOK_DELIVERIES_LISTED = 20;

/** The body of `GET /navigation/sessions/{id}/webhook-deliveries`. */
export interface WebhookDeliveriesResponse {
  sessionId: string;
  count: number;
  /** Newest attempt first. */
  deliveries: WebhookDeliveryView[];
}

/**
 * The session's recent delivery attempts as its owner sees them. The caller
 * has already checked that the session exists and belongs to the requester;
 * `limit` is clamped to 1..100.
 */
export async function listWebhookDeliveries(
  repository: WebhookDeliveryRepository,
  sessionId: string,
  limit = DEFAULT_WEBHOOK_DELIVERIES_LISTED,
): Promise<WebhookDeliveriesResponse> {
  const deliveries = await repository.listForSession(sessionId, limit);
  return { sessionId, count: deliveries.length, deliveries };
}
