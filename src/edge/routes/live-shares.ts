import { z } from 'zod';
import { MAX_SHARE_MINUTES, type LiveShares } from '../../services/user-data/live-shares.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { heading, latitude, longitude } from '../../domain/geo.js';

const route = { tags: ['live sharing'] };
const position = {
  lat: latitude,
  lng: longitude,
  heading: heading.optional(),
  etaSeconds: z.number().int().min(0).max(7 * 86_400).optional(),
};

/** Live location sharing with ETA (designed in docs/user-data.md). */
export function liveShareRoutes(shares: LiveShares): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/me/live-shares',
      summary: 'Start sharing your live location; the share token is returned this once',
      body: z.object({
        ...position,
        expiresInMinutes: z.number().int().min(1).max(MAX_SHARE_MINUTES).default(60),
        destination: z.object({ name: z.string().trim().min(1).max(200), lat: latitude, lng: longitude }).optional(),
      }),
      handler: async (context) => {
        const { share, token } = await shares.start(context.principal, context.body);
        return { ...share, shareToken: token, sharePath: `/api/v1/live-shares/${token}` };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/live-shares',
      summary: 'Your active shares',
      handler: async (context) => ({ items: await shares.listActive(context.principal) }),
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/me/live-shares/{id}',
      summary: 'Update the shared position and ETA',
      errors: ['NOT_FOUND'],
      params: z.object({ id: z.uuid() }),
      body: z.object({ ...position, lat: latitude.optional(), lng: longitude.optional() }),
      handler: (context) => shares.updatePosition(context.principal, context.params.id, context.body),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/live-shares/{id}',
      summary: 'Stop sharing (the link stops working at once)',
      errors: ['NOT_FOUND'],
      params: z.object({ id: z.uuid() }),
      handler: async (context) => {
        await shares.stop(context.principal, context.params.id);
        return { ok: true, revoked: true };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/live-shares/{token}',
      summary: 'Public view of a live share, by its token',
      tags: ['live sharing'],
      errors: ['NOT_FOUND'],
      params: z.object({ token: z.string().max(100) }),
      handler: (context) => shares.viewByToken(context.params.token),
    }),
  ];
}
