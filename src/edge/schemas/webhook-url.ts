import { z } from 'zod';
import type { WebhookUrlPolicy } from '../../services/webhooks/webhook-url-guard.js';

/**
 * A `webhookUrl` body field checked by the SSRF policy's shape rules, so the
 * route's schema is the one place the URL is validated; the value handed to
 * the handler is the normalised URL. Every address the name resolves to is
 * checked again before each delivery.
 */
export function webhookUrlField(policy: WebhookUrlPolicy) {
  return z
    .string()
    .trim()
    .transform((value, context) => {
      const problem = policy.shapeProblem(value);
      if (problem) {
        context.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return new URL(value).href;
    });
}

/** `limit` (1–100, default 20) of `GET /navigation/sessions/{id}/webhook-deliveries`. */
export const webhookDeliveriesQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });
