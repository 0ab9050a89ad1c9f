/** Response schemas of the promoted placement endpoints, for the OpenAPI document (spec part 3 §4.10; docs/ads.md). */
import { z } from 'zod';

export const promotedResponse = z.object({
  provider: z.literal('svc-ads'),
  type: z.literal('promoted_pin'),
  count: z.number().int(),
  ads: z.array(
    z.object({
      id: z.string(),
      type: z.literal('promoted_pin'),
      placeId: z.string().nullable(),
      title: z.string(),
      subtitle: z.string().nullable(),
      imageUrl: z.string().nullable(),
      ctaUrl: z.string().describe('Open only after POST /ads/{id}/click'),
      lat: z.number(),
      lng: z.number(),
      sponsored: z.literal(true),
    }),
  ),
});

export const clickResponse = z.object({
  ok: z.literal(true),
  id: z.string(),
  clickId: z.string(),
  duplicate: z.boolean().describe('This clickId was recorded before: the first answer again, not billed twice'),
  charged: z.boolean(),
  chargedMinor: z.number().int(),
  currency: z.string(),
  ctaUrl: z.string(),
});
