import { z } from 'zod';
import type { UserHistory } from '../../services/user-data/user-history.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { latitude, longitude } from '../../domain/geo.js';
import { pagingQuery } from '../schemas/paging.js';

const kind = z.enum(['search', 'visit']);
const route = { tags: ['history'] };

/** Search and visit history (spec part 1 §4.2 rule 6; shapes designed in docs/user-data.md). */
export function historyRoutes(history: UserHistory): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/history',
      summary: 'Your search and visit history, newest first',
      query: z.object({ ...pagingQuery, kind: kind.optional() }),
      handler: async (context) => {
        const { limit, offset, kind: filter } = context.query;
        const page = await history.page(context.principal, { limit, offset, kind: filter });
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
      handler: (context) => history.record(context.principal, context.body),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/history/{id}',
      summary: 'Remove one history entry',
      errors: ['NOT_FOUND'],
      params: z.object({ id: z.uuid() }),
      handler: async (context) => {
        await history.remove(context.principal, context.params.id);
        return { ok: true, deleted: true };
      },
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/history',
      summary: 'Clear your whole history',
      handler: async (context) => ({ ok: true, deleted: await history.clear(context.principal) }),
    }),
  ];
}
