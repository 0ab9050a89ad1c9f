import { z } from 'zod';
import type { UserNotifications } from '../../services/user-data/notifications.js';
import { principalOf } from '../auth/bearer-guard.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { pagingQuery } from '../schemas/paging.js';

const route = { tags: ['me'] };

/** Push tokens (a bearer token or an API key, acting for its owner) and the inbox (bearer token) of spec part 1 §4.4. */
export function meRoutes(notifications: UserNotifications): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/me/push-tokens',
      summary: 'Register a push token (re-binds a token already registered to someone else)',
      body: z.object({ token: z.string().trim().min(8).max(4096), platform: z.enum(['web', 'android', 'ios']) }),
      handler: async (context) => ({
        ok: true,
        ...(await notifications.registerPushToken(context.principal, context.body.token, context.body.platform)),
      }),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/push-tokens/{token}',
      summary: 'Unregister one of your push tokens',
      errors: ['NOT_FOUND'],
      params: z.object({ token: z.string().min(1).max(4096) }),
      handler: async (context) => {
        await notifications.unregisterPushToken(context.principal, context.params.token);
        return { ok: true };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/notifications',
      summary: 'Your notification inbox, newest first',
      description: 'Records are written at send time whether or not a push reached a device; the inbox is not a delivery receipt.',
      query: z.object({ ...pagingQuery, type: z.string().min(1).max(64).optional() }),
      handler: async (context) => {
        const { limit, offset, type } = context.query;
        const page = await notifications.inbox(principalOf(context).userId, { limit, offset, type });
        return { items: page.items, total: page.total, limit, offset };
      },
    }),
  ];
}
