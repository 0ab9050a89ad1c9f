import { z } from 'zod';
import type { BillingService } from '../../services/billing/billing-service.js';
import { ENTITLEMENTS, type EntitlementService } from '../../services/billing/entitlements.js';
import { SIGNATURE_HEADER, type PaymentWebhook } from '../../services/billing/payment-webhook.js';
import { entitlementsResponse, plansResponse, webhookResponse } from '../../services/billing/billing-responses.js';
import { CURRENCIES } from '../../services/billing/plan-catalog.js';
import { principalOf } from '../auth/bearer-guard.js';
import { HttpReply, defineRoute, type RouteDefinition } from '../route.js';

const route = { tags: ['billing'] };
const currencyQuery = z.object({ currency: z.enum(CURRENCIES).default('JOD').describe('JOD (thousandths), SAR or AED (hundredths)') });
/** Entitlements must not be cached beyond a short time (spec §4.9): clients and proxies are told not to keep them. */
const NO_STORE = { 'cache-control': 'private, no-store' };

/** Plans, the caller's entitlements, invoice previews, the payment webhook and operators' entitlement changes (spec part 3 §4.9; docs/billing.md). */
export function billingRoutes(deps: { billing: BillingService; entitlements: EntitlementService; webhook: PaymentWebhook }): RouteDefinition[] {
  const { billing, entitlements, webhook } = deps;
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/billing/plans',
      summary: 'Plan catalogue (free, starter, growth, enterprise) in a currency: prices in minor units (null: custom), included weighted requests, overage per thousand, rate limits; and the request weights',
      query: currencyQuery,
      response: plansResponse,
      handler: ({ query }) => billing.plans(query.currency),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/entitlements',
      summary: 'Your entitlements (svc_plus grants all), whether you have Plus, and your subscriptions; never cached',
      response: entitlementsResponse,
      handler: async (context) => HttpReply.json(await entitlements.view(principalOf(context).userId), 200, NO_STORE),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/developer/projects/{id}/invoice-preview',
      summary: "This month's invoice of one of your projects so far: its keys' weighted requests, the plan (highest among its keys), subscription and overage lines in minor units",
      params: z.object({ id: z.uuid({ error: 'must be a project id' }) }),
      query: currencyQuery,
      errors: ['NOT_FOUND'],
      handler: (context) => billing.invoicePreview(principalOf(context).userId, context.params.id, context.query.currency),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/billing/webhooks/payments',
      summary: `Payment provider events (subscription activated, renewed, canceled, lapsed, refunded), signed: ${SIGNATURE_HEADER}: t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">; each event id applied once`,
      // the signature is checked over the bytes received before the body is parsed (services/billing/payment-webhook.ts)
      body: z.unknown(),
      bodyLimitBytes: 64 * 1024,
      successStatus: 200,
      response: webhookResponse,
      errors: ['UNAUTHENTICATED', 'SERVICE_UNAVAILABLE'],
      handler: ({ headers, rawBody }) => webhook.receive(headers, rawBody),
    }),
    defineRoute({
      ...route,
      tags: ['admin'],
      method: 'GET',
      path: '/admin/users/{id}/entitlements',
      summary: "A user's entitlements, subscriptions and operator overrides",
      params: z.object({ id: z.uuid() }),
      errors: ['FORBIDDEN', 'NOT_FOUND'],
      handler: ({ params }) => billing.operatorView(params.id),
    }),
    defineRoute({
      ...route,
      tags: ['admin'],
      method: 'POST',
      path: '/admin/users/{id}/entitlements',
      summary: 'Grant (optionally until expiresAt), revoke (wins over subscriptions) or clear the operator override of one entitlement',
      params: z.object({ id: z.uuid() }),
      body: z.object({
        entitlement: z.enum(ENTITLEMENTS),
        action: z.enum(['grant', 'revoke', 'clear']),
        expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
        reason: z.string().trim().max(500).nullable().optional(),
      }),
      successStatus: 200,
      errors: ['FORBIDDEN', 'NOT_FOUND'],
      handler: (context) => billing.operatorChange(principalOf(context).userId, context.params.id, context.body),
    }),
  ];
}
