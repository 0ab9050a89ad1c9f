import { z } from 'zod';
import { MAX_OPERATOR_QUOTA, ROLES, type OperatorActions } from '../../services/admin/operator-actions.js';
import { principalOf } from '../auth/bearer-guard.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const route = { tags: ['admin'], errors: ['FORBIDDEN' as const, 'NOT_FOUND' as const] };
const operatorQuota = z.number().int().min(1).max(MAX_OPERATOR_QUOTA);

/** Operator endpoints: a bearer token of a user with role admin or super_admin. */
export function adminRoutes(actions: OperatorActions): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/admin/users',
      summary: 'Find an account by e-mail',
      query: z.object({ email: z.string().min(3).max(254) }),
      handler: async (context) => {
        const user = await actions.findUser(context.query.email);
        return { id: user.id, email: user.email, name: user.name, roles: user.roles, disabled: user.disabled, createdAt: user.createdAt };
      },
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/admin/users/{id}',
      summary: 'Disable or enable an account (a disabled account cannot sign in; its sessions and API keys stop working)',
      params: z.object({ id: z.uuid() }),
      body: z.object({ disabled: z.boolean() }),
      handler: async (context) => {
        const user = await actions.setAccountDisabled(context.params.id, context.body.disabled);
        return { id: user.id, email: user.email, disabled: user.disabled };
      },
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/admin/users/{id}/roles',
      summary: 'Grant or revoke a role (admin roles: super_admin only)',
      params: z.object({ id: z.uuid() }),
      body: z.object({ role: z.enum(ROLES), action: z.enum(['grant', 'revoke']) }),
      handler: async (context) => ({
        roles: await actions.changeRole({ kind: 'user', roles: principalOf(context).roles }, context.params.id, context.body.role, context.body.action),
      }),
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/admin/api-keys/{id}',
      summary: 'Make a key unlimited or limited again, set quotas beyond the self-serve caps, or suspend the key and lift the suspension',
      description:
        '`suspended: true` refuses the key with 403 `FORBIDDEN` (`details.reason: key_suspended`) on every process from the next request, whatever its owner sets `active` to; `suspended: false` lifts the hold.',
      params: z.object({ id: z.uuid() }),
      body: z.object({
        unlimited: z.boolean().optional(),
        quotaPerMinute: operatorQuota.optional(),
        quotaPerDay: operatorQuota.optional(),
        suspended: z.boolean().optional(),
      }),
      handler: async (context) => {
        const key = await actions.setKeyLimits(context.params.id, context.body);
        return { id: key.id, unlimited: key.unlimited, quotaPerMinute: key.quotaPerMinute, quotaPerDay: key.quotaPerDay, suspended: key.suspended };
      },
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/admin/broadcasts',
      summary: 'Send an admin_broadcast notification to every account',
      body: z.object({ title: z.string().trim().min(1).max(200), body: z.string().trim().min(1).max(4000), url: z.url().max(2048).optional() }),
      handler: async (context) => ({ sent: await actions.broadcast(context.body) }),
    }),
  ];
}
