import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { campaignBody, campaignPatch, clickBody, promotedQuery, type PromotedPlacements } from '../../services/ads/promoted-placements.js';
import { clickResponse, promotedResponse } from '../../services/ads/ads-responses.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const route = { tags: ['ads'] };
const admin = { tags: ['admin'], errors: ['FORBIDDEN' as const, 'NOT_FOUND' as const] };
const campaignParams = z.object({ id: z.uuid({ error: 'must be a campaign id' }) });

/** Promoted placements (spec part 3 §4.10; docs/ads.md) and the operators' campaigns. */
export function adsRoutes(ads: PromotedPlacements): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/ads/promoted',
      summary: 'Promoted pins for a map box (bbox=west,south,east,north) and categories; sponsored: true; serving records nothing (impressions are free)',
      query: promotedQuery,
      response: promotedResponse,
      handler: ({ query }) => ads.promoted(query),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/ads/{id}/click',
      summary: 'Record a click before opening ctaUrl: once per clickId (a retry answers the same), charged per click while the budget lasts',
      params: campaignParams,
      body: clickBody,
      bodyLimitBytes: 2 * 1024,
      successStatus: 200,
      response: clickResponse,
      errors: ['NOT_FOUND'],
      handler: ({ params, body }) => ads.click(params.id, body),
    }),
    defineRoute({
      ...admin,
      method: 'POST',
      path: '/admin/ads/campaigns',
      summary: 'Create a campaign: place or pin, title, subtitle, image, CTA URL, categories, target box or radius, cost per click, budget, schedule',
      body: campaignBody,
      bodyLimitBytes: 16 * 1024,
      handler: ({ body }) => ads.create(randomUUID(), body),
    }),
    defineRoute({
      ...admin,
      method: 'GET',
      path: '/admin/ads/campaigns',
      summary: 'Campaigns, newest first, with spend, clicks and status',
      query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
      handler: ({ query }) => ads.list(query.limit),
    }),
    defineRoute({
      ...admin,
      method: 'GET',
      path: '/admin/ads/campaigns/{id}',
      summary: 'One campaign with spend, clicks and status',
      params: campaignParams,
      handler: ({ params }) => ads.get(params.id),
    }),
    defineRoute({
      ...admin,
      method: 'PATCH',
      path: '/admin/ads/campaigns/{id}',
      summary: 'Change any field of a campaign (pause with active: false, raise the budget, reschedule)',
      params: campaignParams,
      body: campaignPatch,
      bodyLimitBytes: 16 * 1024,
      handler: ({ params, body }) => ads.update(params.id, body),
    }),
    defineRoute({
      ...admin,
      method: 'DELETE',
      path: '/admin/ads/campaigns/{id}',
      summary: 'Delete a campaign and its click records',
      params: campaignParams,
      handler: ({ params }) => ads.delete(params.id),
    }),
  ];
}
