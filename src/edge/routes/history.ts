import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import type { HistoryRepository } from '../../store/pg/history.js';
import type { UserRepository } from '../../store/pg/users.js';
import { principalOf } from '../auth/bearer-guard.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { latitude, longitude } from '../schemas/geo.js';
import { pagingQuery } from '../schemas/paging.js';

const kind = z.enum(['search', 'visit']);
const route = { tags: ['history'] };

/** Search and visit history (spec part 1 §4.2 rule 6; shapes designed in docs/user-data.md). */
export function historyRoutes(history: HistoryRepository, users: UserRepository): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/history',
      summary: 'Your search and visit history, newest first',
      query: z.object({ ...pagingQuery, kind: kind.optional() }),
      handler: async (context) => {
        const { limit, offset, kind: filter } = context.query;
        const page = await history.page(principalOf(context).userId, { limit, offset, ...(filter ? { kind: filter } : {}) });
        return { ...page, limit, offset };
      },
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/me/history',
      summary: 'Record a search or a visit (refused while privacy.saveHistory is false)',
      errors: ['FORBIDDEN'],
      body: z
        .object({
          kind,
          query: z.string().trim().min(1).max(500).optional(),
          placeId: z.string().trim().min(1).max(200).optional(),
          name: z.string().trim().min(1).max(200).optional(),
          lat: latitude.optional(),
          lng: longitude.optional(),
        })
        .refine((entry) => entry.query !== undefined || entry.placeId !== undefined || entry.name !== undefined, {
          message: 'give at least one of query, placeId, name',
        })
        .refine((entry) => (entry.lat === undefined) === (entry.lng === undefined), { message: 'lat and lng go together' }),
      handler: async (context) => {
        const userId = principalOf(context).userId;
        const user = await users.findById(userId);
        if (user?.privacy?.saveHistory === false) {
          throw new ApiError('FORBIDDEN', { message: 'History is switched off in your privacy settings', details: { reason: 'history_disabled' } });
        }
        const body = context.body;
        return history.add(userId, randomUUID(), {
          kind: body.kind,
          query: body.query ?? null,
          placeId: body.placeId ?? null,
          name: body.name ?? null,
          lat: body.lat ?? null,
          lng: body.lng ?? null,
        });
      },
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/history/{id}',
      summary: 'Remove one history entry',
      errors: ['NOT_FOUND'],
      params: z.object({ id: z.uuid() }),
      handler: async (context) => {
        if (!(await history.delete(principalOf(context).userId, context.params.id))) throw new ApiError('NOT_FOUND', { message: 'History entry not found' });
        return { ok: true, deleted: true };
      },
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/history',
      summary: 'Clear your whole history',
      handler: async (context) => ({ ok: true, deleted: await history.clear(principalOf(context).userId) }),
    }),
  ];
}
