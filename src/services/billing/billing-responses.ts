/** Response schemas of the billing endpoints, for the OpenAPI document (spec part 3 §2.9, §4.9; docs/billing.md). */
import { z } from 'zod';
import { CATALOG_PLANS, CURRENCIES } from './plan-catalog.js';

const minor = z.number().int().nullable();

export const plansResponse = z.object({
  provider: z.literal('svc-billing'),
  currency: z.enum(CURRENCIES).describe('Read it first: JOD in thousandths, SAR and AED in hundredths'),
  plans: z.array(
    z.object({
      key: z.enum(CATALOG_PLANS),
      name: z.string(),
      tagline: z.string(),
      currency: z.enum(CURRENCIES),
      monthlyPriceMinor: minor.describe('null: custom plan (contact sales)'),
      includedRequests: minor.describe('Weighted requests included each month'),
      overagePerThousandMinor: minor.describe('Per thousand weighted requests over the included ones; 0: overage not billed'),
      rateLimitPerMin: minor,
      rateLimitPerDay: minor,
      features: z.array(z.string()),
    }),
  ),
  requestWeights: z.record(z.string(), z.number()).describe('Weight of one request per billing class (docs/billing.md "Metering")'),
});

export const entitlementsResponse = z.object({
  provider: z.literal('svc-entitlements'),
  entitlements: z.array(z.string()).describe('svc_plus, offline_maps, atlas_advanced, hazard_alerts; svc_plus grants all'),
  plus: z.boolean(),
  subscriptions: z.array(
    z.object({
      id: z.string(),
      product: z.string(),
      status: z.enum(['active', 'canceled', 'lapsed', 'refunded']),
      currency: z.string(),
      priceMinor: z.number().int(),
      interval: z.enum(['month', 'year']),
      renewsAt: z.string().nullable(),
    }),
  ),
});

export const webhookResponse = z.object({
  received: z.literal(true),
  duplicate: z.boolean().describe('The event id was seen before: nothing changed'),
  applied: z.boolean().describe('The event changed a subscription'),
});
